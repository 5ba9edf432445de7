// relayhud-cli classify / classify-accuracy: the failure-line rules from the
// command line (see relayhud/triage/classifier.h).
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/triage/accuracy.h"
#include "relayhud/triage/classifier.h"
#include "relayhud/util/terminal_text.h"

#include <cstdio>
#include <cstdlib>

namespace relayhud::cli {
namespace {

using triage::Classifier;

struct ClassifyArgs {
    std::vector<std::string> ruleFiles;
    std::vector<std::string> positional;
    std::string minPercent; // classify-accuracy only
    std::string error;
};

ClassifyArgs parseArgs(const std::vector<std::string>& args, bool acceptMin)
{
    ClassifyArgs parsed;
    for (std::size_t i = 0; i < args.size() && parsed.error.empty(); ++i) {
        const std::string& a = args[i];
        const bool takesValue = a == "--rules" || (acceptMin && a == "--min");
        if (takesValue && i + 1 >= args.size())
            parsed.error = a + " needs a value";
        else if (a == "--rules")
            parsed.ruleFiles.push_back(args[++i]);
        else if (takesValue)
            parsed.minPercent = args[++i];
        else if (a.size() > 1 && a[0] == '-')
            parsed.error = "unknown option '" + a + "'";
        else
            parsed.positional.push_back(a);
    }
    return parsed;
}

// The given rule files in order, or the default rules; bad rules are
// reported and left out.
Result<Classifier> loadClassifier(const std::vector<std::string>& files, std::ostream& err)
{
    triage::RuleSet rules = files.empty() ? triage::defaultRuleSet() : triage::RuleSet{};
    for (const auto& file : files) {
        if (auto loaded = rules.addFile(file); !loaded)
            return loaded.error();
    }
    for (const auto& problem : rules.problems())
        err << "relayhud-cli: warning: " << problem.describe() << '\n';
    return Classifier::create(std::move(rules));
}

std::string describeVerdict(const std::optional<triage::FailureLine>& verdict)
{
    if (!verdict)
        return "no match";
    return std::to_string(verdict->line) + '\t' + oneLine(verdict->ruleName) + '\t'
           + oneLine(triage::joinCaptures(verdict->captures));
}

void printCase(const triage::AccuracyCase& c, std::ostream& out)
{
    out << (c.agrees() ? "ok  " : "MISS") << '\t' << c.file << "\texpected "
        << (c.expectedLine ? std::to_string(*c.expectedLine) : std::string("no match")) << "\tgot "
        << describeVerdict(c.verdict) << '\n';
}

bool parsePercent(const std::string& text, double& out)
{
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    return !text.empty() && end == text.c_str() + text.size() && out >= 0.0 && out <= 100.0;
}

} // namespace

int runClassify(const GlobalOptions&, const std::vector<std::string>& args, std::ostream& out,
                std::ostream& err)
{
    const ClassifyArgs parsed = parseArgs(args, false);
    if (!parsed.error.empty())
        return fail(err, "classify: " + parsed.error, kTrouble);
    if (parsed.positional.size() != 1)
        return fail(err, "classify: give one LOG file (try --help)", kTrouble);
    auto classifier = loadClassifier(parsed.ruleFiles, err);
    if (!classifier)
        return fail(err, "classify: " + classifier.message(), kTrouble);
    const auto verdict = classifier->classifyFile(parsed.positional.front());
    if (!verdict)
        return fail(err, "classify: " + verdict.message(), kTrouble);
    out << describeVerdict(*verdict) << '\n';
    return verdict->has_value() ? kMatched : kNoMatch;
}

int runClassifyAccuracy(const GlobalOptions&, const std::vector<std::string>& args,
                        std::ostream& out, std::ostream& err)
{
    const ClassifyArgs parsed = parseArgs(args, true);
    double minPercent = 0.0;
    if (!parsed.error.empty())
        return fail(err, "classify-accuracy: " + parsed.error, kTrouble);
    if (parsed.positional.size() != 1)
        return fail(err, "classify-accuracy: give one fixture DIR (try --help)", kTrouble);
    if (!parsed.minPercent.empty() && !parsePercent(parsed.minPercent, minPercent))
        return fail(err, "classify-accuracy: --min takes a percentage (0-100)", kTrouble);
    auto classifier = loadClassifier(parsed.ruleFiles, err);
    if (!classifier)
        return fail(err, "classify-accuracy: " + classifier.message(), kTrouble);
    const auto report = triage::measureAccuracy(*classifier, parsed.positional.front());
    if (!report)
        return fail(err, "classify-accuracy: " + report.message(), kTrouble);
    for (const auto& c : report->cases)
        printCase(c, out);
    char percent[32];
    std::snprintf(percent, sizeof percent, "%.1f%%", report->percent());
    out << "agreement: " << report->agreeing() << '/' << report->cases.size() << " (" << percent
        << ") with " << classifier->rules().size() << " rules\n";
    return report->percent() + 1e-9 >= minPercent ? 0 : 1;
}

} // namespace relayhud::cli
