// relayhud-cli suggest: the automatic failure classes (triage/suggest.h) of
// one run, one SHA's runs, or every failed run in the cache, one line per
// failure: class, check run, job, test, and why.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/util/terminal_text.h"
#include "relayhud/util/time.h"

#include <map>

namespace relayhud::cli {
namespace {

using namespace relayhud::triage;

// --sha, --days and --limit, checked before the cache is opened.
Result<TriageRunQuery> runQuery(const Flags& flags)
{
    TriageRunQuery query;
    query.sha = Sha{flags.get("sha")};
    if (flags.has("sha") && query.sha.empty())
        return makeError("--sha needs a SHA");
    int days = 0;
    if (!parseInt(flags.get("days", "0"), days) || days < 0)
        return makeError("--days must be a non-negative integer");
    if (days > 0)
        query.since = nowSeconds() - static_cast<EpochSeconds>(days) * 86'400;
    if (!parseInt64(flags.get("limit", "0"), query.limit) || query.limit < 0)
        return makeError("--limit must be a non-negative integer");
    return query;
}

Result<std::vector<CheckRunRow>> chosenRows(const Database& cache, const Flags& flags,
                                            const TriageRunQuery& query)
{
    if (!flags.has("check-run"))
        return EvidenceStore(cache).triageRunRows(query);
    const CheckRunId id{flags.get("check-run")};
    auto row = RunStore(cache).checkRunRowFor(id);
    if (!row)
        return row.error();
    if (!*row)
        return makeError("no check run with id " + id.value + " in the cache (sync first?)");
    return std::vector<CheckRunRow>{**row};
}

std::string describeRun(const EvidenceRun& run)
{
    return run.downstreamRepo + " " + run.workflow + " / " + run.jobName + " on "
           + run.sha.shortSha() + " (attempt " + std::to_string(run.runAttempt) + ")";
}

std::string prSuffix(const EvidenceRun& run);

void printEvidence(const Evidence& e, std::ostream& out)
{
    out << "    " << evidenceKindName(e.kind) << ":";
    switch (e.kind) {
    case EvidenceKind::Outcome:
    case EvidenceKind::Rerun:
    case EvidenceKind::Baseline:
        if (e.run)
            out << ' ' << describeRun(*e.run);
        out << ' ' << (e.outcome ? outcomeName(*e.outcome) : "absent");
        if (!e.message.empty()) // a green rerun judged by its own counts
            out << " (" << e.message << ')';
        if (!e.compareUrl.empty())
            out << ' ' << e.compareUrl;
        break;
    case EvidenceKind::Concurrent:
        out << " fails on " << e.failedCount << " of " << e.failedCount + e.passedCount
            << " runs within " << e.windowSeconds / 3600 << " h";
        for (const EvidenceRun& run : e.others)
            out << "\n      failed: " << describeRun(run) << prSuffix(run);
        for (const EvidenceRun& run : e.passed)
            out << "\n      passed: " << describeRun(run) << prSuffix(run);
        break;
    case EvidenceKind::NoBaseline:
        out << " no earlier head of this PR (or earlier nightly) ran this job with results";
        break;
    case EvidenceKind::Breakage:
        if (e.run)
            out << " since " << formatIso(e.run->dispatchedAt) << ", " << e.brokenRuns
                << " runs of " << e.brokenSources << " PRs and nightlies";
        if (e.firstSeen)
            out << "; first seen " << describeRun(*e.firstSeen) << prSuffix(*e.firstSeen);
        if (e.culpritPr.value > 0)
            out << "; culprit #" << e.culpritPr.value << ' ' << e.pullUrl;
        break;
    case EvidenceKind::TestLine: out << " rule '" << e.rule << "': " << e.text; break;
    case EvidenceKind::FailureLine:
        out << " line " << e.line << " rule '" << e.rule << "' (" << failureClassName(e.ruleClass)
            << "): " << e.text;
        break;
    case EvidenceKind::NoLine: out << ' ' << e.message; break;
    case EvidenceKind::Outage:
        for (const EvidenceRun& other : e.others)
            out << "\n      " << describeRun(other);
        break;
    }
    out << '\n';
}

std::string prSuffix(const EvidenceRun& run)
{
    return run.prNumber.value > 0 ? " #" + std::to_string(run.prNumber.value)
                                  : std::string(" nightly");
}

// Each suggestion's check run, read once.
class RunsOf {
public:
    explicit RunsOf(const Database& cache) : m_cache(cache) {}

    Result<const CheckRun*> operator()(CheckRunRow row)
    {
        auto it = m_runs.find(row);
        if (it == m_runs.end()) {
            auto run = RunStore(m_cache).checkRun(row);
            if (!run)
                return run.error();
            it = m_runs.emplace(row, std::move(*run)).first;
        }
        return &it->second;
    }

private:
    const Database& m_cache;
    std::map<CheckRunRow, CheckRun> m_runs;
};

// CLASS, CHECK_RUN_ID, TEST ("" for the job), WHY: what attribution-accuracy
// and scripts read.
Result<void> printTsv(const Database& cache, const std::vector<triage::Suggestion>& suggestions,
                      std::ostream& out)
{
    RunsOf runOf(cache);
    for (const triage::Suggestion& s : suggestions) {
        auto run = runOf(s.target.checkRunRow);
        if (!run)
            return run.error();
        out << failureClassSlug(s.cls) << '\t' << (*run)->checkRunId.value << '\t'
            << oneLine(s.target.identity) << '\t' << oneLine(s.why) << '\n';
    }
    return {};
}

// One line per suggestion (its evidence below it with --evidence), then the
// counts by class.
Result<void> printText(const Database& cache, const std::vector<triage::Suggestion>& suggestions,
                       std::size_t runCount, bool evidence, std::ostream& out)
{
    RunsOf runOf(cache);
    std::map<FailureClass, int> counts;
    int provisional = 0;
    for (const triage::Suggestion& s : suggestions) {
        auto found = runOf(s.target.checkRunRow);
        if (!found)
            return found.error();
        const CheckRun& run = **found;
        out << failureClassName(s.cls) << '\t' << run.checkRunId.value << '\t' << run.downstreamRepo
            << ' ' << oneLine(run.workflow + " / " + run.jobName) << " (attempt " << run.runAttempt
            << ")\t" << (s.target.isJob() ? "(job)" : oneLine(s.target.identity)) << '\t'
            << (s.provisional() ? "provisional, " + coverageText(s.coverage) + ": " : "")
            << oneLine(s.why) << '\n';
        if (evidence)
            for (const Evidence& e : s.evidence)
                printEvidence(e, out);
        ++counts[s.cls];
        provisional += s.provisional() ? 1 : 0;
    }
    out << "# " << suggestions.size() << " suggestions for " << runCount << " runs";
    for (const auto& [cls, n] : counts)
        out << (cls == counts.begin()->first ? ": " : ", ") << n << ' ' << failureClassName(cls);
    if (provisional > 0)
        out << "; " << provisional
            << " provisional (results of some of their job's runs are not fetched yet)";
    out << '\n';
    return {};
}

} // namespace

int runSuggest(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
               std::ostream& err)
{
    // Switches take no value, so they are taken out before the flags that do.
    std::vector<std::string> withValues;
    bool failed = false;
    bool noExpected = false;
    bool evidence = false;
    for (const std::string& arg : args) {
        if (arg == "--failed")
            failed = true;
        else if (arg == "--no-expected")
            noExpected = true;
        else if (arg == "--evidence")
            evidence = true;
        else
            withValues.push_back(arg);
    }
    const Flags flags =
        parseFlags(withValues, {"--check-run", "--sha", "--days", "--limit", "--format"});
    if (!flags.error.empty())
        return fail(err, "suggest: " + flags.error, 2);
    if (static_cast<int>(flags.has("check-run")) + static_cast<int>(flags.has("sha"))
            + static_cast<int>(failed)
        != 1)
        return fail(err, "suggest: give one of --check-run ID, --sha SHA or --failed", 2);
    const std::string format = flags.get("format", "text");
    if (format != "text" && format != "tsv")
        return fail(err, "suggest: --format must be text or tsv", 2);
    auto query = runQuery(flags);
    if (!query)
        return fail(err, "suggest: " + query.message(), 2);
    auto cache = openCache(global);
    if (!cache)
        return fail(err, cache.message());
    auto rows = chosenRows(**cache, flags, *query);
    if (!rows)
        return fail(err, "suggest: " + rows.message());
    triage::SuggestOptions options;
    options.includeExpected = !noExpected;
    auto suggestions = suggestForRuns(**cache, *rows, options);
    if (!suggestions)
        return fail(err, "suggest: " + suggestions.message());

    auto printed = format == "tsv" ? printTsv(**cache, *suggestions, out)
                                   : printText(**cache, *suggestions, rows->size(), evidence, out);
    if (!printed)
        return fail(err, "suggest: " + printed.message());
    return 0;
}

} // namespace relayhud::cli
