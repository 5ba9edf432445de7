#include "relayhud/triage/rule_set.h"

#include "relayhud/util/read_file.h"

#include <iterator>
#include <re2/re2.h>

namespace relayhud::triage {

namespace {

std::string lookAroundHint(const std::string& pattern)
{
    for (const char* op : {"(?=", "(?!", "(?<=", "(?<!"}) {
        if (pattern.find(op) != std::string::npos)
            return "look-around (" + std::string(op) + "...) is not supported by RE2";
    }
    return {};
}

std::string backReferenceHint(const std::string& pattern)
{
    for (std::size_t i = 0; i + 1 < pattern.size(); ++i) {
        if (pattern[i] == '\\' && pattern[i + 1] >= '1' && pattern[i + 1] <= '9')
            return "back-references (\\" + std::string(1, pattern[i + 1])
                   + ") are not supported by RE2";
        if (pattern[i] == '\\')
            ++i; // an escaped backslash is not a back-reference
    }
    return {};
}

} // namespace

std::string RuleProblem::describe() const
{
    return file + ":" + std::to_string(line) + ": " + message;
}

std::string patternProblem(const std::string& pattern)
{
    RE2::Options options;
    options.set_log_errors(false);
    const RE2 re(pattern, options);
    if (re.ok())
        return {};
    if (re.error_code() == RE2::ErrorBadPerlOp || re.error_code() == RE2::ErrorMissingParen) {
        if (auto hint = lookAroundHint(pattern); !hint.empty())
            return hint;
    }
    if (re.error_code() == RE2::ErrorBadEscape) {
        if (auto hint = backReferenceHint(pattern); !hint.empty())
            return hint;
    }
    return "invalid pattern: " + re.error();
}

const Rule* RuleSet::find(std::string_view name) const
{
    for (const auto& rule : m_rules) {
        if (rule.name == name)
            return &rule;
    }
    return nullptr;
}

bool RuleSet::add(Rule rule)
{
    if (auto why = patternProblem(rule.pattern); !why.empty()) {
        addProblem({rule.file, rule.line, "rule '" + rule.name + "': " + why});
        return false;
    }
    if (const Rule* first = find(rule.name)) {
        addProblem({rule.file, rule.line,
                    "duplicate rule name '" + rule.name + "' (first defined at " + first->file + ":"
                        + std::to_string(first->line) + "); both are kept, the first has priority",
                    true});
    }
    m_rules.push_back(std::move(rule));
    return true;
}

Result<void> RuleSet::addFile(const std::string& path)
{
    auto text = readRegularFile(path, kMaxRuleFileBytes, "a rule file");
    if (!text)
        return text.error();
    addText(*text, path);
    return {};
}

RuleSet defaultRuleSet()
{
    RuleSet set;
    set.addText(defaultRulesText(), "default_rules.toml");
    return set;
}

} // namespace relayhud::triage
