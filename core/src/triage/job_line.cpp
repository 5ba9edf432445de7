#include "relayhud/triage/job_line.h"

#include "relayhud/util/hash.h"
#include "relayhud/util/time.h"

namespace relayhud::triage {

std::uint64_t ruleSetHash(const RuleSet& rules)
{
    std::uint64_t hash = kFnv1aOffset;
    // A separator no pattern or name holds keeps "ab"+"c" apart from "a"+"bc".
    constexpr std::string_view kSep{"\0", 1};
    for (const Rule& rule : rules.rules()) {
        hash = fnv1a(rule.name, hash);
        hash = fnv1a(kSep, hash);
        hash = fnv1a(rule.pattern, hash);
        hash = fnv1a(kSep, hash);
        hash = fnv1a(failureClassName(rule.impliedClass), hash);
        hash = fnv1a(kSep, hash);
    }
    return hash;
}

Result<JobFailureLine> pickJobLine(const Classifier& classifier, CheckRunRow checkRunRow,
                                   const std::string& logPath, const std::string& logHash)
{
    auto picked = classifier.classifyFile(logPath);
    if (!picked)
        return picked.error();
    JobFailureLine line;
    line.checkRunRow = checkRunRow;
    line.rulesHash = ruleSetHash(classifier.rules());
    line.logHash = logHash;
    line.pickedAt = nowSeconds();
    if (!*picked) {
        line.state = JobLineState::NoMatch;
        line.message = "no rule matched the log";
        return line;
    }
    line.state = JobLineState::Matched;
    line.rule = (*picked)->ruleName;
    line.cls = (*picked)->impliedClass;
    line.line = (*picked)->line;
    line.text = std::move((*picked)->text);
    line.captures = std::move((*picked)->captures);
    line.named = std::move((*picked)->named);
    return line;
}

} // namespace relayhud::triage
