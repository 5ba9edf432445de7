// What a report is made of, read from the cache: the verdict of each job's
// newest attempt on one upstream SHA, and its failures as triage sees them (a
// person's tag over the suggestion engine's class and evidence).
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/triage/cluster.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/util/time.h"
#include "relayhud/verdict/report.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace relayhud::verdict {
namespace {

using triage::EvidenceKind;
using triage::FailureClass;
using triage::Suggestion;

// The failure lines of a run's failing cases by test id: the engine does not
// carry the messages. Not of its xfailed cases: there can be thousands, and
// their why ("fails as its xfail mark expects") says what matters.
Result<std::map<TestId, std::string>> messageLines(const Database& cache, CheckRunRow row)
{
    std::map<TestId, std::string> out;
    auto testRun = TestResultStore(cache).testRunForCheckRun(row);
    if (!testRun)
        return testRun.error();
    if (!*testRun || (*testRun)->state != TestRunState::Stored)
        return out;
    TestResultFilter filter;
    filter.outcomes = {TestOutcome::Failed, TestOutcome::Error, TestOutcome::XPassStrict};
    auto results = TestResultStore(cache).testResults((*testRun)->id, filter);
    if (!results)
        return results.error();
    for (const StoredTestResult& r : *results)
        out.emplace(r.testId, std::string(triage::firstMeaningfulLine(r.message)));
    return out;
}

// One attempt of a job: its check run, suggestions, tags and messages.
class AttemptClassifier {
public:
    AttemptClassifier(const Database& cache, const RunVerdict& job, CheckRun attempt,
                      CheckRunRow attemptRow)
        : m_cache(cache), m_job(job), m_attempt(std::move(attempt)), m_row(attemptRow)
    {
    }

    // Every failure when `onlyFlakyByRerun` is false; else only those a
    // later attempt passed (what an earlier attempt adds to the report).
    Result<void> classify(bool onlyFlakyByRerun, std::vector<ClassifiedFailure>& out)
    {
        auto suggestions = triage::suggestForRun(m_cache, m_row);
        if (!suggestions)
            return suggestions.error();
        auto tags = TriageStore(m_cache).triageTagsForCheckRun(m_row);
        if (!tags)
            return tags.error();
        auto lines = messageLines(m_cache, m_row);
        if (!lines)
            return lines.error();
        std::map<std::string, const TriageTag*> tagOf;
        for (const TriageTag& tag : *tags)
            tagOf.emplace(tag.target.test, &tag);
        for (const Suggestion& s : *suggestions) {
            if (onlyFlakyByRerun
                && (s.cls != FailureClass::Flaky || s.evidence.empty()
                    || s.evidence.front().kind != EvidenceKind::Rerun))
                continue;
            ClassifiedFailure f = fromSuggestion(s, *lines);
            if (Result<void> rerun = addRerun(s, f); !rerun)
                return rerun;
            if (auto tag = tagOf.find(s.target.identity); tag != tagOf.end())
                applyTag(*tag->second, f);
            out.push_back(std::move(f));
        }
        return {};
    }

private:
    ClassifiedFailure fromSuggestion(const Suggestion& s,
                                     const std::map<TestId, std::string>& lines) const
    {
        ClassifiedFailure f;
        f.checkRunRow = m_job.checkRunRow;
        f.attempt = m_attempt.runAttempt;
        f.test = s.target.identity;
        f.cls = s.cls;
        f.why = s.why;
        f.group = s.group;
        f.runUrl = m_attempt.reported.runUrl;
        f.logUrl = jobLogUrl(m_attempt);
        if (!s.target.isJob())
            if (auto line = lines.find(s.target.testId); line != lines.end())
                f.line = line->second;
        f.changeUrl = triage::pullFilesUrl(m_attempt.upstreamRepo, m_attempt.prNumber);
        for (const triage::Evidence& e : s.evidence) {
            if (e.kind == EvidenceKind::Baseline && e.run) {
                f.baseSha = e.run->sha;
                f.compareUrl = e.compareUrl;
                f.failedBefore = e.outcome && isFailingOutcome(*e.outcome);
            } else if (e.kind == EvidenceKind::Breakage) {
                f.culpritPr = e.culpritPr;
                f.culpritUrl = e.pullUrl;
                if (e.firstSeen)
                    f.firstSeen = (e.firstSeen->prNumber.value > 0
                                       ? "#" + std::to_string(e.firstSeen->prNumber.value)
                                       : std::string("nightly"))
                                  + " (" + e.firstSeen->sha.shortSha() + ") at "
                                  + formatIso(e.firstSeen->dispatchedAt);
            } else if (e.kind == EvidenceKind::FailureLine && s.target.isJob()) {
                f.line = e.text;
                f.logLine = e.line;
            }
        }
        return f;
    }

    // The run of the attempt that passed, for the flaky section's link.
    Result<void> addRerun(const Suggestion& s, ClassifiedFailure& f) const
    {
        if (s.cls != FailureClass::Flaky || s.evidence.empty()
            || s.evidence.front().kind != EvidenceKind::Rerun || !s.evidence.front().run)
            return {};
        const triage::EvidenceRun& passed = *s.evidence.front().run;
        auto run = RunStore(m_cache).checkRun(passed.checkRunRow);
        if (!run)
            return run.error();
        f.rerunAttempt = passed.runAttempt;
        f.rerunUrl = run->reported.runUrl;
        return {};
    }

    // A tag that names a class wins; a cleared one (Untriaged) leaves the
    // suggestion standing.
    static void applyTag(const TriageTag& tag, ClassifiedFailure& f)
    {
        if (!isTriagedClass(tag.cls))
            return;
        const FailureClass suggested = f.cls;
        f.cls = tag.cls;
        f.taggedBy = tag.author.empty() ? "a person" : tag.author;
        f.bugUrl = tag.bugUrl;
        f.why = tag.note.empty() ? "tagged by " + f.taggedBy : tag.note;
        if (suggested != tag.cls)
            f.why +=
                " (the engine suggested " + std::string(triage::failureClassName(suggested)) + ")";
    }

    const Database& m_cache;
    const RunVerdict& m_job;
    CheckRun m_attempt;
    CheckRunRow m_row;
};

} // namespace

const char* reportSectionName(ReportSection section)
{
    switch (section) {
    case ReportSection::Regression: return "this PR";
    case ReportSection::Broken: return "broken upstream";
    case ReportSection::Backend: return "backend bug";
    case ReportSection::Flaky: return "flaky";
    case ReportSection::Infra: return "infra";
    case ReportSection::Other: return "other";
    }
    return "?";
}

ReportSection sectionOf(const ClassifiedFailure& failure)
{
    return triage::failureClassInfo(failure.cls).section;
}

Result<std::vector<ClassifiedFailure>> failuresFromResults(const Database& cache,
                                                           const RunVerdict& job)
{
    std::vector<ClassifiedFailure> out;
    AttemptClassifier newest(cache, job, job.run, job.checkRunRow);
    if (Result<void> r = newest.classify(false, out); !r)
        return r.error();
    std::set<std::string> seen;
    for (const ClassifiedFailure& f : out)
        seen.insert(f.test);
    auto others = EvidenceStore(cache).otherAttemptRows(job.checkRunRow);
    if (!others)
        return others.error();
    // Oldest first, so the report reads in the order CI ran them.
    for (auto it = others->rbegin(); it != others->rend(); ++it) {
        auto attempt = RunStore(cache).checkRun(*it);
        if (!attempt)
            return attempt.error();
        if (attempt->runAttempt >= job.run.runAttempt)
            continue;
        std::vector<ClassifiedFailure> earlier;
        AttemptClassifier classifier(cache, job, std::move(*attempt), *it);
        if (Result<void> r = classifier.classify(true, earlier); !r)
            return r.error();
        for (ClassifiedFailure& f : earlier)
            if (seen.insert(f.test).second)
                out.push_back(std::move(f));
    }
    return out;
}

namespace {

// The branch the cache keeps for an upstream SHA (a PR row's base), "" when
// none: what "tested main@abc1234 after #1234 merged" names.
Result<std::string> branchOf(const Database& cache, const Sha& sha)
{
    auto commits = RunStore(cache).commits();
    if (!commits)
        return commits.error();
    for (const UpstreamCommit& c : *commits)
        if (c.sha == sha)
            return c.branch;
    return std::string();
}

} // namespace

Result<ReportInput> loadReportInput(const Database& cache, const Sha& sha,
                                    std::optional<CheckRunRow> checkRunRow,
                                    const VerdictSources& sources)
{
    ReportInput input;
    input.sha = sha;
    auto runs = RunStore(cache).checkRunsForSha(sha);
    if (!runs)
        return runs.error();
    if (runs->empty())
        return makeError("no check runs for upstream SHA " + sha.value + " in the cache");
    // Newest attempt first, so the first run of each job is the one to report.
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    std::vector<CheckRunRow> rows;
    for (const CheckRun& run : *runs) {
        if (!seen.insert({run.downstreamRepo, run.workflow, run.jobName}).second)
            continue;
        auto row = RunStore(cache).checkRunRowFor(run.checkRunId);
        if (!row)
            return row.error();
        if (!*row)
            continue; // no check run id: the cache cannot name the row
        if (!checkRunRow || **row == *checkRunRow)
            rows.push_back(**row);
    }
    if (checkRunRow && rows.empty())
        return makeError("check run row " + std::to_string(checkRunRow->value)
                         + " is not the newest attempt of a job on " + sha.value);
    std::optional<std::string> branch; // the SHA's branch (a PR's base), read once if needed
    for (const CheckRunRow row : rows) {
        auto v = verdictForRun(cache, row, sources);
        if (!v)
            return v.error();
        auto tested = CheckoutStore(cache).testedCommit(row);
        if (!tested)
            return tested.error();
        if (*tested && !branch) {
            auto known = branchOf(cache, sha);
            if (!known)
                return known.error();
            branch = std::move(*known);
        }
        if (*tested)
            input.tested.emplace(
                row, testedCommitText(**tested, sha, v->run.prNumber,
                                      v->run.prNumber.value > 0 ? *branch : std::string())
                         + " (from its " + testedCommitSourceName((*tested)->source) + ")");
        input.jobs.push_back(std::move(*v));
    }
    std::sort(input.jobs.begin(), input.jobs.end(), [](const RunVerdict& a, const RunVerdict& b) {
        return std::tie(a.run.downstreamRepo, a.run.workflow, a.run.jobName)
               < std::tie(b.run.downstreamRepo, b.run.workflow, b.run.jobName);
    });
    if (const PrNumber pr = runs->front().prNumber; pr) {
        auto facts = gatherMergeGating(cache, pr);
        if (!facts)
            return facts.error();
        input.gating = judgeMergeGating(*facts);
    }
    return input;
}

} // namespace relayhud::verdict
