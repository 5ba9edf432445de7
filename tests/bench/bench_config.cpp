// The outcome-config engine on a generated config of 400 names (the size of
// the largest real one), beside yaml-cpp's bare Load of the same text:
//   load + validate          <= 20 ms (issue 6)
//   one edit with re-parse   <= 20 ms (issue 6)
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/outcome_config.h"

#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <string>

namespace relayhud::bench {
namespace {

constexpr int kEntries = 8;
constexpr int kNamesPerEntry = 50;
constexpr int kRounds = 21;

// Entries alternate modes and carry edits and comments, as real ones do.
std::string generatedConfig()
{
    std::string text = "test_suite_config:\n  labels: [trunk]\n  files:\n"
                       "    - path: ${TORCH_ROOT}/test/test_bench.py\n"
                       "      unlisted_test_mode: skip\n      tests:\n";
    for (int e = 0; e < kEntries; ++e) {
        text += "        # group " + std::to_string(e) + ": why these tests share a mode\n";
        text += "        - names:\n";
        for (int n = 0; n < kNamesPerEntry; ++n)
            text += "            - TestBench::test_case_" + std::to_string(e) + "_"
                    + std::to_string(n) + "  # RuntimeError https://example.org/issues/"
                    + std::to_string(n) + "\n";
        text += e % 2 ? "          mode: xfail\n" : "          mode: mandatory_success\n";
        text += "          edits:\n            dtypes:\n              exclude:\n"
                "                - name: int64\n";
    }
    text += "  global:\n    supported_dtypes:\n      - name: float16\n      - name: int64\n"
            "    supported_ops:\n      - name: add\n      - name: mul\n        force_xfail: true\n";
    return text;
}

template <class F>
double medianMs(F&& run)
{
    std::vector<double> times;
    for (int i = 0; i < kRounds; ++i) {
        const auto start = Clock::now();
        run();
        times.push_back(msSince(start));
    }
    return median(times);
}

} // namespace

void benchConfig(Report& report)
{
    const std::string text = generatedConfig();
    const double yamlLoad = medianMs([&] { (void)YAML::Load(text).size(); });
    bool ok = true;
    const double load = medianMs([&] {
        Result<config::ParsedConfig> parsed = config::parseOutcomeConfig(text);
        ok = ok && parsed && !parsed->hasErrors();
    });
    config::EditRequest request;
    request.test = "TestBench::test_case_2_25";
    request.kind = config::EditKind::Demote;
    request.reason = "bench";
    const double edit = medianMs([&] { ok = ok && config::planModeEdit(text, request); });
    if (!ok)
        std::printf("  config: a load or an edit failed\n");
    report.add({"config load+validate (400 names)", ok ? load : 1e9, "ms", 20,
                "yaml-cpp Load alone", yamlLoad});
    report.add(
        {"config edit with re-parse", ok ? edit : 1e9, "ms", 20, "yaml-cpp Load alone", yamlLoad});
}

} // namespace relayhud::bench
