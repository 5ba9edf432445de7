// The failure-line classifier on a generated 100 MB GitHub Actions log with
// 150 rules (RelayHUD's defaults plus generated ones), beside
// `grep -c -E -f` of the same patterns on the same file:
//   classify             <= 300 ms (issue 5), the verdict on the planted line
// and the doctor's checkout scan (logs/checkout_scan.h) of such a log that
// checks out two repositories, beside `grep -c -F` of its marker:
//   checkouts            <= 300 ms (as the classifier: it runs on the same logs)
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/logs/checkout_scan.h"
#include "relayhud/triage/classifier.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace relayhud::bench {
namespace {

using triage::Classifier;
using triage::RuleSet;

constexpr int kRules = 150;
constexpr const char* kPlanted = "FAILED test/test_planted.py::TestPlanted::test_it - Boom";

// Rules of the shapes real rule files have: anchored literals, unanchored
// phrases, alternations, captures.
std::string generatedRule(int i)
{
    std::string pattern;
    switch (i % 4) {
    case 0: pattern = "^Synthetic check " + std::to_string(i) + " failed: (\\S+)"; break;
    case 1: pattern = "error code E" + std::to_string(1000 + i) + ".*"; break;
    case 2: pattern = "^(?:WARN|ERR)" + std::to_string(i) + ": (cannot|will not) (\\w+)"; break;
    default: pattern = "[Cc]omponent" + std::to_string(i) + " (crashed|hung) after \\d+s"; break;
    }
    return "[[rule]]\nname = 'generated " + std::to_string(i) + "'\npattern = '" + pattern
           + "'\n\n";
}

RuleSet benchRules()
{
    RuleSet set = triage::defaultRuleSet();
    std::string extra;
    for (int i = static_cast<int>(set.size()); i < kRules; ++i)
        extra += generatedRule(i);
    set.addText(extra, "generated.toml");
    return set;
}

// The same patterns for GNU grep -E: no (?:), no \d.
std::string grepPattern(std::string pattern)
{
    for (std::size_t at; (at = pattern.find("(?:")) != std::string::npos;)
        pattern.erase(at + 1, 2);
    for (std::size_t at; (at = pattern.find("\\d")) != std::string::npos;)
        pattern.replace(at, 2, "[0-9]");
    return pattern;
}

void writePatterns(const RuleSet& rules, const std::string& path)
{
    std::ofstream out(path);
    for (const auto& rule : rules.rules())
        out << grepPattern(rule.pattern) << '\n';
}

// Pytest progress, ANSI colour, group markers and tracebacks, ~`mb` MB; the
// planted failure near the end is the line to find. `head` goes first.
std::uint64_t writeLog(const std::string& path, int mb, const std::string& head = {})
{
    std::ofstream out(path, std::ios::binary);
    out << head;
    const std::uint64_t target = std::uint64_t(mb) << 20;
    std::uint64_t bytes = 0, line = 0, planted = 0;
    std::string text;
    for (std::uint64_t i = 0; bytes < target; ++i) {
        text = "2026-07-29T23:58:10." + std::to_string(1000000 + i % 9000000) + "Z ";
        if (i % 500 == 0)
            text += "##[group]Run shard " + std::to_string(i / 500);
        else if (i % 97 == 3)
            text += "  File \"/opt/conda/lib/python3.10/site-packages/torch/x.py\", line 12";
        else
            text += "test_ops.py::TestCommonCUDA::test_case_" + std::to_string(i)
                    + " \x1b[32mPASSED\x1b[0m [0.0123s] [ 42%]";
        if (planted == 0 && bytes > target - target / 20) {
            text = "2026-07-29T23:59:59.0000000Z " + std::string(kPlanted);
            planted = line + 1;
        }
        out << text << '\n';
        bytes += text.size() + 1;
        ++line;
    }
    return planted;
}

// Two checkouts as actions/checkout v4 logs them: the backend's own, then
// pytorch's.
std::string checkoutSteps()
{
    std::string out;
    for (const char* repo : {"torch-spyre/torch-spyre", "pytorch/pytorch"})
        out += std::string("2026-07-29T23:58:10.0000000Z Syncing repository: ") + repo
               + "\n2026-07-29T23:58:11.0000000Z [command]/usr/bin/git log -1 --format=%H\n"
                 "2026-07-29T23:58:11.1000000Z c8ab2e8b637515b6488931f5e59f23848aae9991\n";
    return out;
}

double commandMs(const std::string& command)
{
    const auto start = Clock::now();
    if (std::FILE* p = ::popen(command.c_str(), "r")) {
        char sink[64];
        while (std::fgets(sink, sizeof sink, p)) {
        }
        ::pclose(p);
    }
    return msSince(start);
}

double grepOnceMs(const std::string& patterns, const std::string& log)
{
    return commandMs("grep -c -E -f '" + patterns + "' '" + log + "' 2>/dev/null");
}

void benchCheckouts(Report& report, const std::string& log, int mb)
{
    writeLog(log, mb, checkoutSteps());
    std::vector<double> ours, grep;
    bool right = true;
    for (int i = 0; i < 3; ++i) {
        const auto start = Clock::now();
        const auto found = logs::scanCheckouts(log);
        ours.push_back(msSince(start));
        right = right && found && found->size() == 2 && (*found)[1].repository == "pytorch/pytorch"
                && (*found)[1].line == 6;
        grep.push_back(commandMs("grep -c -F 'git log -1 --format=' '" + log + "'"));
    }
    report.add({"checkout scan: " + std::to_string(mb) + " MB log", right ? median(ours) : 1e9,
                "ms", 300, "grep -c -F", median(grep)});
}

} // namespace

void benchClassify(Report& report)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "relayhud-bench-classify";
    fs::create_directories(dir);
    const std::string log = (dir / "job.log").string(), patterns = (dir / "patterns").string();
    const int mb = envNumber("RELAYHUD_BENCH_CLASSIFY_MB", 100);
    const std::uint64_t planted = writeLog(log, mb);
    auto classifier = Classifier::create(benchRules());
    if (!classifier) {
        std::printf("  classify: %s\n", classifier.message().c_str());
        return;
    }
    writePatterns(classifier->rules(), patterns);
    std::vector<double> ours, grep;
    bool right = true;
    for (int i = 0; i < 3; ++i) {
        const auto start = Clock::now();
        const auto verdict = classifier->classifyFile(log);
        ours.push_back(msSince(start));
        right = right && verdict && verdict->has_value() && (*verdict)->line == planted;
        grep.push_back(grepOnceMs(patterns, log));
    }
    report.add({"classify: " + std::to_string(classifier->rules().size()) + " rules, "
                    + std::to_string(mb) + " MB log",
                right ? median(ours) : 1e9, "ms", 300, "grep -c -E -f", median(grep)});
    benchCheckouts(report, log, mb);
    fs::remove_all(dir);
}

} // namespace relayhud::bench
