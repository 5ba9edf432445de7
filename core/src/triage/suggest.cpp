// Automatic failure classes with their evidence (triage/suggest.h). Per run:
// one read of its failing results, one testHistory for all of them (which
// also yields the baseline: the point before this run), the other attempts'
// outcomes, and the job's failure line.
#include "relayhud/triage/suggest.h"

#include "relayhud/store/cache.h"
#include "relayhud/util/time.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace relayhud::triage {
namespace {

bool isTestFailure(TestOutcome o) { return o == TestOutcome::Failed || o == TestOutcome::Error; }

bool isJobFailure(Conclusion c)
{
    return c == Conclusion::Failure || c == Conclusion::Cancelled || c == Conclusion::TimedOut;
}

std::string percent(double share)
{
    return std::to_string(static_cast<int>(std::lround(share * 100.0))) + "%";
}

// Runs looked up once per batch: the baseline and the other attempts are
// shared by every test of a run, and often by several runs.
class RunLookup {
public:
    struct Entry {
        EvidenceRun run;
        std::string upstreamRepo;
    };

    explicit RunLookup(const Cache& cache) : m_cache(cache) {}

    Result<Entry> get(std::int64_t row)
    {
        if (auto it = m_entries.find(row); it != m_entries.end())
            return it->second;
        auto run = m_cache.checkRun(row);
        if (!run)
            return run.error();
        Entry entry;
        entry.run.checkRunRow = row;
        entry.run.downstreamRepo = run->downstreamRepo;
        entry.run.workflow = run->workflow;
        entry.run.jobName = run->jobName;
        entry.run.sha = run->upstreamSha;
        entry.run.runAttempt = run->runAttempt;
        entry.run.conclusion = run->reported.conclusion;
        entry.run.startedAt = run->reported.startedAt.value_or(0);
        entry.upstreamRepo = run->upstreamRepo;
        m_entries.emplace(row, entry);
        return entry;
    }

    Result<EvidenceRun> run(std::int64_t row)
    {
        auto entry = get(row);
        if (!entry)
            return entry.error();
        return std::move(entry->run);
    }

private:
    const Cache& m_cache;
    std::map<std::int64_t, Entry> m_entries;
};

Evidence lineEvidence(const JobFailureLine& line)
{
    Evidence e;
    if (line.state != JobLineState::Matched) {
        e.kind = EvidenceKind::NoLine;
        e.message = line.message.empty() ? std::string(jobLineStateName(line.state)) : line.message;
        e.logHash = line.logHash;
        return e;
    }
    e.kind = EvidenceKind::FailureLine;
    e.rule = line.rule;
    e.line = line.line;
    e.text = line.text;
    e.captures = line.captures;
    e.ruleClass = line.cls;
    e.logHash = line.logHash;
    return e;
}

std::string lineWords(const JobFailureLine& line)
{
    return "line " + std::to_string(line.line) + " matches rule '" + line.rule + "' ("
           + std::string(failureClassName(line.cls)) + ")";
}

// What one run gives every target in it.
struct RunFacts {
    EvidenceRun here;
    std::string upstreamRepo;
    std::optional<JobFailureLine> line;
    std::optional<EvidenceRun> baseline; // from the history, when there is one
    std::size_t baselineSlot = 0;        // its index in each test's history points
    bool hasResults = false;             // stored test results (Cache::testRunForCheckRun)
};

class RunSuggester {
public:
    RunSuggester(const Cache& cache, const SuggestOptions& options, RunLookup& runs)
        : m_cache(cache), m_options(options), m_runs(runs)
    {
    }

    Result<void> suggest(std::int64_t row, std::vector<Suggestion>& out)
    {
        auto here = m_runs.get(row);
        if (!here)
            return here.error();
        RunFacts facts;
        facts.here = std::move(here->run);
        facts.upstreamRepo = std::move(here->upstreamRepo);
        auto line = m_cache.jobFailureLine(row);
        if (!line)
            return line.error();
        facts.line = std::move(*line);

        auto results = failingResults(row, facts.hasResults);
        if (!results)
            return results.error();
        const bool anyFailing = std::any_of(results->begin(), results->end(), [](const auto& r) {
            return isFailingOutcome(r.outcome);
        });
        if (auto tests = suggestTests(*results, facts, out); !tests)
            return tests;
        if (isJobFailure(facts.here.conclusion) && !anyFailing)
            return suggestJob(facts, out);
        return {};
    }

private:
    Result<std::vector<StoredTestResult>> failingResults(std::int64_t row, bool& hasResults)
    {
        auto testRun = m_cache.testRunForCheckRun(row);
        if (!testRun)
            return testRun.error();
        hasResults = *testRun && (*testRun)->state == TestRunState::Stored;
        if (!hasResults)
            return std::vector<StoredTestResult>{};
        TestResultFilter filter;
        filter.outcomes = {TestOutcome::Failed, TestOutcome::Error, TestOutcome::XPassStrict};
        if (m_options.includeExpected)
            filter.outcomes.push_back(TestOutcome::XFailed);
        auto results = m_cache.testResults((*testRun)->id, filter);
        if (!results)
            return results.error();
        std::sort(results->begin(), results->end(),
                  [](const auto& a, const auto& b) { return a.identity < b.identity; });
        return results;
    }

    Result<void> suggestTests(const std::vector<StoredTestResult>& results, RunFacts& facts,
                              std::vector<Suggestion>& out)
    {
        std::vector<std::int64_t> failingIds;
        for (const auto& r : results)
            if (isTestFailure(r.outcome))
                failingIds.push_back(r.testId);
        std::vector<std::optional<Evidence>> reruns(failingIds.size());
        std::vector<TestHistory> histories;
        if (!failingIds.empty()) {
            if (auto r = findReruns(facts, failingIds, reruns); !r)
                return r;
            auto h = m_cache.testHistory(facts.here.checkRunRow, failingIds, m_options.historyShas);
            if (!h)
                return h.error();
            histories = std::move(*h);
            if (auto b = findBaseline(histories.front(), facts); !b)
                return b;
        }
        std::size_t failing = 0;
        for (const auto& r : results) {
            Suggestion s;
            s.target = {facts.here.checkRunRow, r.testId, r.identity, r.outcome};
            if (isTestFailure(r.outcome)) {
                decideFailing(s, facts, reruns[failing], histories[failing]);
                ++failing;
            } else {
                decideMarked(s);
            }
            out.push_back(std::move(s));
        }
        return {};
    }

    // Rule 1: the outcome alone decides.
    static void decideMarked(Suggestion& s)
    {
        Evidence e;
        e.kind = EvidenceKind::Outcome;
        e.outcome = s.target.outcome;
        s.evidence.push_back(e);
        if (s.target.outcome == TestOutcome::XPassStrict) {
            s.cls = FailureClass::UnexpectedPass;
            s.why = "passes although marked xfail(strict=True): a candidate to promote";
        } else {
            s.cls = FailureClass::Expected;
            s.why = "fails as its xfail mark expects";
        }
    }

    Result<void> findReruns(const RunFacts& facts, const std::vector<std::int64_t>& ids,
                            std::vector<std::optional<Evidence>>& reruns)
    {
        auto others = m_cache.otherAttemptRows(facts.here.checkRunRow);
        if (!others)
            return others.error();
        for (const std::int64_t other : *others) {
            auto outcomes = m_cache.testOutcomesIn(other, ids);
            if (!outcomes)
                return outcomes.error();
            for (std::size_t i = 0; i < ids.size(); ++i) {
                if (reruns[i] || (*outcomes)[i] != TestOutcome::Passed)
                    continue;
                auto run = m_runs.run(other);
                if (!run)
                    return run.error();
                Evidence e;
                e.kind = EvidenceKind::Rerun;
                e.run = *run;
                e.outcome = TestOutcome::Passed;
                reruns[i] = std::move(e);
            }
        }
        return {};
    }

    // The baseline is the history point before this run: the same job on the
    // nearest earlier SHA with stored results (Cache::testHistory picks one
    // run per SHA, this run on its own SHA).
    Result<void> findBaseline(const TestHistory& history, RunFacts& facts)
    {
        const auto& points = history.points;
        for (std::size_t i = 1; i < points.size(); ++i) {
            if (points[i].checkRunRow != facts.here.checkRunRow)
                continue;
            auto run = m_runs.run(points[i - 1].checkRunRow);
            if (!run)
                return run.error();
            facts.baseline = std::move(*run);
            facts.baselineSlot = i - 1;
            return {};
        }
        return {};
    }

    void decideFailing(Suggestion& s, const RunFacts& facts, const std::optional<Evidence>& rerun,
                       const TestHistory& history)
    {
        const auto& here = facts.here;
        // Looked at for every failing test, so "why?" can show all of it.
        Evidence historyEv;
        const TestHistorySummary summary = summarizeHistory(history);
        historyEv.kind = EvidenceKind::History;
        historyEv.flipRate = summary.flipRate;
        historyEv.historyRuns = summary.runs;
        historyEv.historyWindow = m_options.historyShas;
        Evidence baselineEv;
        if (facts.baseline) {
            baselineEv.kind = EvidenceKind::Baseline;
            baselineEv.run = facts.baseline;
            baselineEv.outcome = history.points[facts.baselineSlot].outcome;
            baselineEv.compareUrl = compareUrl(facts.upstreamRepo, facts.baseline->sha, here.sha);
        } else {
            baselineEv.kind = EvidenceKind::NoBaseline;
        }
        std::optional<Evidence> lineEv;
        if (facts.line)
            lineEv = lineEvidence(*facts.line);
        auto finish = [&](FailureClass cls, Evidence deciding, std::string why) {
            s.cls = cls;
            s.why = std::move(why);
            const EvidenceKind first = deciding.kind;
            s.evidence.push_back(std::move(deciding));
            for (Evidence* e : {&historyEv, &baselineEv})
                if (e->kind != first)
                    s.evidence.push_back(*e);
            if (lineEv && lineEv->kind != first)
                s.evidence.push_back(*lineEv);
        };

        // Rule 2: flaky.
        if (rerun) {
            const EvidenceRun& passed = *rerun->run;
            finish(FailureClass::Flaky, *rerun,
                   "fails on attempt " + std::to_string(here.runAttempt) + ", passed on attempt "
                       + std::to_string(passed.runAttempt) + " of the same SHA ("
                       + here.sha.shortSha() + "): flaky");
            return;
        }
        if (summary.runs >= m_options.minHistoryRuns
            && summary.flipRate > m_options.flipThreshold) {
            finish(FailureClass::Flaky, historyEv,
                   "flips " + percent(summary.flipRate) + " of the time over its last "
                       + std::to_string(summary.runs) + " runs (threshold "
                       + percent(m_options.flipThreshold) + "): flaky");
            return;
        }
        // Rule 3: the baseline.
        if (facts.baseline && baselineEv.outcome) {
            const EvidenceRun& base = *facts.baseline;
            const std::string where =
                base.sha.shortSha() + " (attempt " + std::to_string(base.runAttempt) + ")";
            if (*baselineEv.outcome == TestOutcome::Passed) {
                finish(FailureClass::Regression, baselineEv,
                       "passed on " + where + ", fails here: regression in " + base.sha.shortSha()
                           + "..." + here.sha.shortSha());
                return;
            }
            if (isFailingOutcome(*baselineEv.outcome)) {
                finish(FailureClass::PreExisting, baselineEv,
                       "failed on " + where + " too: pre-existing");
                return;
            }
        }
        // Rule 5 (rule 4 is the job's own).
        const std::string noBaseline =
            !facts.baseline       ? "no earlier run of this job to compare"
            : !baselineEv.outcome ? "not run on " + facts.baseline->sha.shortSha() + " (new test?)"
                                  : "was " + std::string(outcomeName(*baselineEv.outcome)) + " on "
                                        + facts.baseline->sha.shortSha();
        if (lineEv && lineEv->kind == EvidenceKind::FailureLine
            && facts.line->cls != FailureClass::Unset && facts.line->cls != FailureClass::Infra) {
            finish(facts.line->cls, *lineEv, noBaseline + "; the job's " + lineWords(*facts.line));
            return;
        }
        finish(FailureClass::Untriaged, baselineEv,
               noBaseline + ", not flaky, and no rule names a class");
    }

    // Rules 4 and 5 for a job that failed without failing tests.
    Result<void> suggestJob(const RunFacts& facts, std::vector<Suggestion>& out)
    {
        Suggestion s;
        s.target.checkRunRow = facts.here.checkRunRow;
        const std::string ended = facts.here.conclusion == Conclusion::Cancelled  ? "was cancelled"
                                  : facts.here.conclusion == Conclusion::TimedOut ? "timed out"
                                                                                  : "failed";
        const std::string how =
            "job " + ended + (facts.hasResults ? " with no failing test" : " without test results");
        if (!facts.line) {
            s.why = how + "; its log was not read (sync artifacts to read it)";
            out.push_back(std::move(s));
            return {};
        }
        const JobFailureLine& line = *facts.line;
        s.evidence.push_back(lineEvidence(line));
        if (line.state != JobLineState::Matched || line.cls == FailureClass::Unset) {
            s.why = how + "; "
                    + (line.state == JobLineState::Matched
                           ? lineWords(line) + ", which names no class"
                           : "no failure line: " + s.evidence.back().message);
            out.push_back(std::move(s));
            return {};
        }
        s.cls = line.cls;
        s.why = how + "; " + lineWords(line);
        if (line.cls == FailureClass::Infra)
            if (auto r = addOutage(s, facts); !r)
                return r;
        out.push_back(std::move(s));
        return {};
    }

    Result<void> addOutage(Suggestion& s, const RunFacts& facts)
    {
        auto peers = m_cache.infraPeerRows(facts.here.checkRunRow, m_options.outageWindowSeconds);
        if (!peers)
            return peers.error();
        Evidence e;
        e.kind = EvidenceKind::Outage;
        std::set<std::string> backends{facts.here.downstreamRepo};
        // Named by its first failure (of any backend, this one's other jobs
        // too), so every member gives the same group when they see the same
        // peers.
        EpochSeconds first = facts.here.startedAt;
        for (const std::int64_t row : *peers) {
            auto run = m_runs.run(row);
            if (!run)
                return run.error();
            if (run->startedAt != 0 && (first == 0 || run->startedAt < first))
                first = run->startedAt;
            // One run per other backend: the first (oldest) stands for it.
            if (backends.insert(run->downstreamRepo).second)
                e.others.push_back(std::move(*run));
        }
        if (e.others.empty())
            return {}; // one backend alone is no outage
        std::string names;
        for (const std::string& backend : backends)
            names += (names.empty() ? "" : ", ") + backend;
        s.group =
            "outage from " + (first ? formatIso(first) : facts.here.sha.shortSha()) + ": " + names;
        s.why +=
            "; one outage across " + std::to_string(backends.size()) + " backends (" + names + ")";
        s.evidence.insert(s.evidence.begin(), std::move(e));
        return {};
    }

    const Cache& m_cache;
    const SuggestOptions& m_options;
    RunLookup& m_runs;
};

} // namespace

std::string_view evidenceKindName(EvidenceKind kind)
{
    switch (kind) {
    case EvidenceKind::Outcome: return "outcome";
    case EvidenceKind::Rerun: return "rerun";
    case EvidenceKind::History: return "history";
    case EvidenceKind::Baseline: return "baseline";
    case EvidenceKind::NoBaseline: return "no baseline";
    case EvidenceKind::FailureLine: return "failure line";
    case EvidenceKind::NoLine: return "no failure line";
    case EvidenceKind::Outage: return "outage";
    }
    return "";
}

std::string compareUrl(std::string_view upstreamRepo, const Sha& base, const Sha& head)
{
    if (upstreamRepo.empty() || base.empty() || head.empty())
        return {};
    return "https://github.com/" + std::string(upstreamRepo) + "/compare/" + base.value + "..."
           + head.value;
}

Result<std::vector<Suggestion>> suggestForRun(const Cache& cache, std::int64_t checkRunRow,
                                              const SuggestOptions& options)
{
    return suggestForRuns(cache, {checkRunRow}, options);
}

Result<std::vector<Suggestion>> suggestForRuns(const Cache& cache,
                                               const std::vector<std::int64_t>& checkRunRows,
                                               const SuggestOptions& options)
{
    RunLookup runs(cache);
    std::vector<Suggestion> out;
    for (const std::int64_t row : checkRunRows) {
        RunSuggester suggester(cache, options, runs);
        if (auto r = suggester.suggest(row, out); !r)
            return makeError("suggestions for check run " + std::to_string(row) + ": "
                             + r.message());
    }
    return out;
}

} // namespace relayhud::triage
