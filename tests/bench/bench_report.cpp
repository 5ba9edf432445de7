#include "bench_report.h"

#include <sys/resource.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

namespace relayhud::bench {
namespace {

// Jiffies every CPU spent busy (all but idle and iowait), from /proc/stat.
std::uint64_t busyJiffies()
{
    std::ifstream stat("/proc/stat");
    std::string cpu;
    std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0,
                  steal = 0;
    stat >> cpu >> user >> nice >> system >> idle >> iowait >> irq >> softirq >> steal;
    return user + nice + system + irq + softirq + steal;
}

// CPU seconds of this process and of the children it waited for (xmllint,
// grep, relayhud runs: references and subjects, not other load).
double ownCpuSeconds()
{
    auto seconds = [](const rusage& r) {
        return static_cast<double>(r.ru_utime.tv_sec + r.ru_stime.tv_sec)
               + static_cast<double>(r.ru_utime.tv_usec + r.ru_stime.tv_usec) / 1e6;
    };
    rusage self{}, children{};
    getrusage(RUSAGE_SELF, &self);
    getrusage(RUSAGE_CHILDREN, &children);
    return seconds(self) + seconds(children);
}

double loadAverage()
{
    std::ifstream in("/proc/loadavg");
    double one = -1;
    in >> one;
    return one;
}

std::string ratioText(double ratio)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1fx", ratio);
    return buf;
}

} // namespace

bool Measurement::met() const
{
    if (target > 0 && value > target)
        return false;
    if (maxRatio > 0 && (reference <= 0 || value > maxRatio * reference))
        return false;
    return true;
}

MachineLoad::MachineLoad()
    : m_start(std::chrono::steady_clock::now()), m_busyStart(busyJiffies()),
      m_ownStart(ownCpuSeconds()), m_loadStart(loadAverage())
{
}

double MachineLoad::othersCores() const
{
    const double wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    const double busy = static_cast<double>(busyJiffies() - m_busyStart)
                        / static_cast<double>(sysconf(_SC_CLK_TCK));
    const double own = ownCpuSeconds() - m_ownStart;
    return wall > 0 ? std::max(0.0, busy - own) / wall : 0.0;
}

// The load average at the start still counts what ran before (a build just
// finished); other processes' CPU during the run is what slows the figures.
bool MachineLoad::quiet() const { return othersCores() < 0.1; }

std::string MachineLoad::summary() const
{
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "%ld cores; load average %.2f before, %.2f after; other processes used %.2f "
                  "cores on average: %s",
                  sysconf(_SC_NPROCESSORS_ONLN), m_loadStart, loadAverage(), othersCores(),
                  quiet() ? "quiet" : "NOT QUIET, the figures may be slow");
    return buf;
}

void Report::add(Measurement m)
{
    std::printf("  %-44s %10.2f %-3s", m.name.c_str(), m.value, m.unit.c_str());
    if (m.target > 0)
        std::printf(" (target <= %.0f)", m.target);
    if (m.maxRatio > 0)
        std::printf(" (target <= %s %s)", ratioText(m.maxRatio).c_str(), m.referenceName.c_str());
    std::printf("\n");
    std::fflush(stdout);
    m_rows.push_back(std::move(m));
}

int Report::print() const
{
    int missed = 0;
    std::printf("\n%-44s %12s %14s  %-6s %s\n", "benchmark", "measured", "target", "result",
                "reference (same run) and ratio");
    for (const auto& m : m_rows) {
        const bool ok = m.met();
        missed += ok ? 0 : 1;
        std::string target;
        if (m.target > 0) {
            std::ostringstream t;
            t.precision(0);
            t << std::fixed << m.target << ' ' << m.unit;
            target = t.str();
        }
        if (m.maxRatio > 0)
            target += (target.empty() ? "" : ", ") + ratioText(m.maxRatio) + " ref";
        std::printf("%-44s %9.2f %-2s %14s  %-6s", m.name.c_str(), m.value, m.unit.c_str(),
                    target.c_str(), ok ? "ok" : "MISSED");
        if (m.reference > 0)
            std::printf(" %s: %.2f %s, ratio %.2fx", m.referenceName.c_str(), m.reference,
                        m.unit.c_str(), m.value / m.reference);
        std::printf("\n");
    }
    std::printf("\n%d of %zu targets met\n", static_cast<int>(m_rows.size()) - missed,
                m_rows.size());
    std::printf("machine: %s\n", m_load.summary().c_str());
    return missed;
}

} // namespace relayhud::bench
