#pragma once
// Picks the line that explains a failed job's log, with the same verdict as
// pytorch's log classifier:
//  - each line is cleaned of the GitHub Actions timestamp prefix and of ANSI
//    escapes before matching;
//  - boilerplate that never explains a failure is dropped
//    ("##[error]Process completed with exit code N", "[OSDC] Step script
//    exited", the custom-container and 'jobPod' runner errors, "[OSDC] Step
//    cancelled by GitHub Actions"), and so is the sccache compilation log,
//    from its "=== sccache compilation log ===" banner to its "=== If your
//    build fails, ... ===" banner, both included;
//  - each rule's match is the last line it matches; the highest-priority
//    (first) rule that matches anywhere wins (its other lines are listed by
//    their first capture, FailureLine::named).
// All rules run as one RE2::Set, so a line costs about one pass whatever the
// number of rules; only the winner's line is matched again for captures.
// Lines end at "\n" (a "\r" before it is dropped) and are numbered as in the
// raw file, from 1.
#include "relayhud/triage/rule_set.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::triage {

struct FailureLine {
    std::size_t ruleIndex = 0; // into rules().rules()
    std::string ruleName;
    FailureClass impliedClass = FailureClass::Unset;
    std::uint64_t line = 0; // in the raw log, from 1
    std::string text;       // the cleaned line
    // The rule's capture groups that took part in the match, in order; the
    // whole match when the pattern has none.
    std::vector<std::string> captures;
    // The first capture of every line the same rule matched, in log order and
    // each once, this line's among them; at most kMaxNamed. pytest's short
    // test summary names each failed test on a "FAILED" line of its own
    // (-rfE), so a job without results still says every test it failed.
    std::vector<std::string> named;
    static constexpr std::size_t kMaxNamed = 64;
};

class Classifier {
public:
    // An error when the set is empty or RE2 cannot build it.
    static Result<Classifier> create(RuleSet rules);
    ~Classifier();
    Classifier(Classifier&&) noexcept;
    Classifier& operator=(Classifier&&) noexcept;

    std::optional<FailureLine> classifyText(std::string_view log) const;
    // Reads the file in large blocks; an error when it cannot be read.
    Result<std::optional<FailureLine>> classifyFile(const std::string& path) const;

    const RuleSet& rules() const { return m_rules; }

private:
    struct Compiled;
    class Scan;
    Classifier(RuleSet rules, std::unique_ptr<const Compiled> compiled);
    std::optional<FailureLine> finish(const Scan& scan) const;

    RuleSet m_rules;
    std::unique_ptr<const Compiled> m_compiled;
};

// Captures joined for one-line output: "a | b".
std::string joinCaptures(const std::vector<std::string>& captures);

} // namespace relayhud::triage
