#pragma once
// Failure-line rules in pytorch's log-classifier format (ruleset.toml):
//
//   [[rule]]
//   name = 'GHA timeout'
//   pattern = '^##\[error\]The action (.*)has timed out'
//   class = 'infra'          # ours, optional: the failure class it implies
//
// Priority is order: the first rule loaded is the highest. Loading several
// files appends each after the last. A bad rule (invalid or RE2-unsupported
// pattern, missing key, duplicate name, unknown class) is reported with its
// file and line and left out; the good ones still load. A TOML syntax error
// loses only the [[rule]] table it sits in. A duplicate name is reported but
// the rule is kept, as pytorch's classifier keeps it (its own ruleset.toml
// has duplicates): the first has priority and both can match.
#include "relayhud/model/failure_class.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::triage {

struct Rule {
    std::string name;
    std::string pattern; // RE2 syntax, checked when loaded
    FailureClass impliedClass = FailureClass::Unset;
    std::string file;     // where it was loaded from
    std::size_t line = 0; // of its pattern (or its table), from 1
};

struct RuleProblem {
    std::string file;
    std::size_t line = 0;  // from 1
    std::string message;   // names the rule when it has a name
    bool ruleKept = false; // a warning only: the rule loaded anyway
    // "FILE:LINE: MESSAGE"
    std::string describe() const;
};

class RuleSet {
public:
    // Appends the rules of a rule file. An error only when the file cannot be
    // read; problems inside it go to problems().
    Result<void> addFile(const std::string& path);
    // Appends rules from TOML text; `source` names it in problems.
    void addText(std::string_view text, const std::string& source);

    const std::vector<Rule>& rules() const { return m_rules; }
    const std::vector<RuleProblem>& problems() const { return m_problems; }
    std::size_t size() const { return m_rules.size(); }
    bool empty() const { return m_rules.empty(); }

    // Checks a rule and appends it, or records why not (used by the loader;
    // tests and tools may build sets by hand).
    bool add(Rule rule);
    void addProblem(RuleProblem problem) { m_problems.push_back(std::move(problem)); }

private:
    const Rule* find(std::string_view name) const;

    std::vector<Rule> m_rules;
    std::vector<RuleProblem> m_problems;
};

// RelayHUD's own rules (resources/triage/default_rules.toml), built into the
// binary so they are there wherever it runs.
std::string_view defaultRulesText();
// The default rules, loaded; the source is named "default_rules.toml".
RuleSet defaultRuleSet();

// Why RE2 refuses `pattern`, in words a rule author can act on; empty when it
// compiles (look-around and back-references are named as such).
std::string patternProblem(const std::string& pattern);

} // namespace relayhud::triage
