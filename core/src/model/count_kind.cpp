// The one table of what each known backend's counts count (count_kind.h).
#include "relayhud/model/count_kind.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace relayhud {
namespace {

constexpr std::array<CountKindEntry, 3> kTable{{
    {"torch-spyre/torch-spyre", CountKind::TestCases,
     "real-backends.md 1.5, 3.2: the report job counts the run's JUnit XML "
     "(torch-spyre build_test_pytorch_source.yaml @01f88357, @5a14b852, "
     "parse_junit_xml_counts.py)"},
    {"TorchedHat/pytorch-redhat-ci", CountKind::TestCommands,
     "real-backends.md 1.4: pass/fail counts are test commands, kept in step summaries and logs; "
     "none are sent to the HUD (TorchedHat/pytorch-redhat-ci .github/workflows/crcr-nightly.yml "
     "@a559b04, L143-152, L704-725)"},
    {"pytorch/crcr-test", CountKind::HealthChecks,
     "real-backends.md 1.3: test-results are health-check outcomes, not tests "
     "(pytorch/crcr-test crcr-dispatch-receiver.yml @03d231d3; tests/write_health_report.py "
     "@5b735a0b, checks_to_test_results)"},
}};

bool sameRepo(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x))
                      == std::tolower(static_cast<unsigned char>(y));
           });
}

} // namespace

CountKindEntry countKindOf(std::string_view repo)
{
    for (const CountKindEntry& e : kTable)
        if (sameRepo(e.repo, repo))
            return e;
    return {repo, CountKind::Unknown, {}};
}

std::string_view countKindName(CountKind kind)
{
    switch (kind) {
    case CountKind::TestCases: return "test cases";
    case CountKind::TestCommands: return "test commands";
    case CountKind::HealthChecks: return "health checks";
    case CountKind::Unknown: break;
    }
    return "test counts";
}

bool comparableWithJUnit(CountKind kind)
{
    return kind == CountKind::TestCases || kind == CountKind::Unknown;
}

} // namespace relayhud
