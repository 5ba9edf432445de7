// Failure-line rule files in pytorch's ruleset.toml format (triage/rule_set.h,
// classifier.h): any TOML gives rules and problems, never an exception; the
// rules that load build a classifier that runs over a log.
#include "fuzz_check.h"
#include "relayhud/triage/classifier.h"
#include "relayhud/triage/rule_set.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace {

// A few lines of the kinds the default rules name, so a fuzzed rule has
// something to match.
constexpr std::string_view kLog =
    "2026-05-04T20:48:28.1234567Z ##[group]Run pytest\n"
    "FAILED test/test_ops.py::TestCommonPRIVATEUSE1::test_add_spyre_float16 - AssertionError\n"
    "\x1b[31mE   RuntimeError: device lost\x1b[0m\n"
    "##[error]Process completed with exit code 1.\n"
    "ninja: build stopped: subcommand failed.\n";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace relayhud::triage;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    RuleSet rules;
    rules.addText(text, "fuzz.toml");
    for (const RuleProblem& problem : rules.problems())
        (void)problem.describe();
    for (const Rule& rule : rules.rules()) {
        FUZZ_CHECK(patternProblem(rule.pattern).empty(), "a loaded rule's pattern compiles");
        FUZZ_CHECK(rule.line >= 1, "a loaded rule names its line");
    }
    if (rules.empty())
        return 0;
    auto classifier = Classifier::create(std::move(rules));
    if (!classifier)
        return 0;
    if (const auto line = classifier->classifyText(kLog)) {
        FUZZ_CHECK(line->ruleIndex < classifier->rules().size(), "the rule that matched exists");
        (void)joinCaptures(line->captures);
    }
    return 0;
}
