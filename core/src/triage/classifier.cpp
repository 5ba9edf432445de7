#include "relayhud/triage/classifier.h"

#include "classifier_scan.h"

#include <algorithm>

#include <re2/re2.h>
#include <re2/set.h>

namespace relayhud::triage {

namespace {

RE2::Options ruleOptions()
{
    RE2::Options options;
    options.set_log_errors(false);
    return options;
}

std::vector<std::string> capturesOf(const RE2& re, std::string_view text)
{
    const int groups = re.NumberOfCapturingGroups();
    std::vector<re2::StringPiece> found(static_cast<std::size_t>(groups) + 1);
    if (!re.Match(text, 0, text.size(), RE2::UNANCHORED, found.data(), groups + 1))
        return {};
    if (groups == 0)
        return {std::string(found[0])};
    std::vector<std::string> captures;
    for (std::size_t i = 1; i < found.size(); ++i) {
        if (found[i].data() != nullptr) // the group took part in the match
            captures.emplace_back(found[i]);
    }
    return captures;
}

} // namespace

Result<Classifier> Classifier::create(RuleSet rules)
{
    if (rules.empty())
        return makeError("no rules to classify with");
    auto compiled = std::make_unique<Compiled>(ruleOptions());
    for (const Rule& rule : rules.rules()) {
        std::string error;
        if (compiled->set.Add("(?m)" + rule.pattern, &error) < 0)
            return makeError("rule '" + rule.name + "': " + error);
        compiled->patterns.push_back(std::make_unique<RE2>(rule.pattern, ruleOptions()));
    }
    if (!compiled->set.Compile())
        return makeError("the rules are too large for RE2 to compile together");
    return Classifier(std::move(rules), std::move(compiled));
}

Classifier::Classifier(RuleSet rules, std::unique_ptr<const Compiled> compiled)
    : m_rules(std::move(rules)), m_compiled(std::move(compiled))
{
}

Classifier::~Classifier() = default;
Classifier::Classifier(Classifier&&) noexcept = default;
Classifier& Classifier::operator=(Classifier&&) noexcept = default;

std::optional<FailureLine> Classifier::classifyText(std::string_view log) const
{
    Scan scan(*m_compiled);
    const std::size_t used = scan.feedLines(log);
    scan.feedLast(log.substr(used));
    return finish(scan);
}

std::optional<FailureLine> Classifier::finish(const Scan& scan) const
{
    if (!scan.matched())
        return std::nullopt;
    const Rule& rule = m_rules.rules()[scan.bestRule()];
    FailureLine result{scan.bestRule(), rule.name,       rule.impliedClass,
                       scan.bestLine(), scan.bestText(), {}};
    const RE2& pattern = *m_compiled->patterns[scan.bestRule()];
    result.captures = capturesOf(pattern, result.text);
    const auto named = [&](const std::string& test) {
        return std::find(result.named.begin(), result.named.end(), test) != result.named.end();
    };
    for (const std::string& text : scan.bestRuleLines())
        if (auto captures = capturesOf(pattern, text); !captures.empty() && !named(captures[0]))
            result.named.push_back(std::move(captures[0]));
    if (!result.captures.empty() && !named(result.captures[0])) {
        if (result.named.size() == FailureLine::kMaxNamed)
            result.named.pop_back(); // room for the picked line's, past the kept ones
        result.named.push_back(result.captures[0]);
    }
    return result;
}

std::string joinCaptures(const std::vector<std::string>& captures)
{
    std::string joined;
    for (const auto& capture : captures) {
        if (!joined.empty())
            joined += " | ";
        joined += capture;
    }
    return joined;
}

} // namespace relayhud::triage
