#include "bench_report.h"

#include <cstdio>

namespace relayhud::bench {

void Report::add(Measurement m)
{
    std::printf("  %-44s %10.2f %-3s (target <= %.0f)\n", m.name.c_str(), m.value, m.unit.c_str(),
                m.target);
    std::fflush(stdout);
    m_rows.push_back(std::move(m));
}

int Report::print() const
{
    int missed = 0;
    std::printf("\n%-44s %12s %10s  %-6s %s\n", "benchmark", "measured", "target", "result",
                "reference (same run) and ratio");
    for (const auto& m : m_rows) {
        const bool ok = m.value <= m.target;
        missed += ok ? 0 : 1;
        std::printf("%-44s %9.2f %-2s %7.0f %-2s  %-6s", m.name.c_str(), m.value, m.unit.c_str(),
                    m.target, m.unit.c_str(), ok ? "ok" : "MISSED");
        if (m.reference > 0)
            std::printf(" %s: %.2f %s, ratio %.2fx", m.referenceName.c_str(), m.reference,
                        m.unit.c_str(), m.value / m.reference);
        std::printf("\n");
    }
    std::printf("\n%d of %zu targets met\n", static_cast<int>(m_rows.size()) - missed,
                m_rows.size());
    return missed;
}

} // namespace relayhud::bench
