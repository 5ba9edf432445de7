// What a report is made of, read from the cache: the verdict of each job's
// newest attempt on one upstream SHA, and (until the triage engine takes
// over) failures classified from the stored test results alone.
#include "relayhud/store/cache.h"
#include "relayhud/verdict/report.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace relayhud::verdict {
namespace {

std::string firstLine(const std::string& text)
{
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    if (start == std::string::npos)
        return {};
    return text.substr(start, text.find_first_of("\r\n", start) - start);
}

void classify(const StoredTestResult& r, ClassifiedFailure& f)
{
    switch (r.outcome) {
    case TestOutcome::XPassStrict:
        f.className = "unexpected pass";
        f.why = "a strict xfail passed: promote it to mandatory_success";
        break;
    case TestOutcome::XFailed:
        f.className = "expected failure";
        f.why = "failed as the test's xfail mark expects";
        break;
    default:
        f.className = "untriaged";
        f.why = r.outcome == TestOutcome::Error ? "errored in setup or teardown; not classified yet"
                                                : "failed; not classified yet";
    }
}

// New or pre-existing, from the previous point of each failing test's
// history; an expected failure needs none. `out` parallels `results`.
Result<void> markNovelty(const Cache& cache, std::int64_t row,
                         const std::vector<StoredTestResult>& results,
                         std::vector<ClassifiedFailure>& out)
{
    std::vector<std::size_t> picked;
    std::vector<std::int64_t> ids;
    for (std::size_t i = 0; i < results.size(); ++i)
        if (isFailingOutcome(results[i].outcome)) {
            picked.push_back(i);
            ids.push_back(results[i].testId);
        }
    if (ids.empty())
        return {};
    auto histories = cache.testHistory(row, ids, 2);
    if (!histories)
        return histories.error();
    for (std::size_t k = 0; k < picked.size(); ++k) {
        const std::vector<TestHistoryPoint>& points = (*histories)[k].points;
        ClassifiedFailure& f = out[picked[k]];
        if (points.size() < 2 || points.back().checkRunRow != row) {
            f.why += " (no earlier run of this job to compare with)";
            continue;
        }
        const TestHistoryPoint& previous = points[points.size() - 2];
        f.baseSha = previous.sha;
        if (!previous.outcome)
            f.why += " (the previous run at " + previous.sha.shortSha() + " did not have it)";
        else
            f.novelty = isFailingOutcome(*previous.outcome) ? Novelty::PreExisting : Novelty::New;
    }
    return {};
}

} // namespace

Result<std::vector<ClassifiedFailure>> failuresFromResults(const Cache& cache,
                                                           const RunVerdict& job)
{
    std::vector<ClassifiedFailure> out;
    const bool stored = job.testRun && job.testRun->state == TestRunState::Stored;
    std::vector<StoredTestResult> failing;
    if (stored) {
        TestResultFilter filter;
        filter.outcomes = {TestOutcome::Failed, TestOutcome::Error, TestOutcome::XPassStrict,
                           TestOutcome::XFailed};
        auto results = cache.testResults(job.testRun->id, filter);
        if (!results)
            return results.error();
        failing = std::move(*results);
    }
    for (const StoredTestResult& r : failing) {
        ClassifiedFailure f;
        f.checkRunRow = job.checkRunRow;
        f.test = r.identity;
        f.line = firstLine(r.message);
        classify(r, f);
        out.push_back(std::move(f));
    }
    if (Result<void> marked = markNovelty(cache, job.checkRunRow, failing, out); !marked)
        return marked.error();
    const bool anyFailingCase = std::any_of(
        failing.begin(), failing.end(), [](const auto& r) { return isFailingOutcome(r.outcome); });
    if (job.verdict == Verdict::Red && !anyFailingCase)
        out.push_back({job.checkRunRow,
                       "",
                       "untriaged",
                       stored ? "the job failed, but no test case did: a build or infrastructure "
                                "failure (read the log)"
                              : "the job failed; there are no test results to say where",
                       "",
                       Novelty::Unknown,
                       {}});
    return out;
}

Result<ReportInput> loadReportInput(const Cache& cache, const Sha& sha,
                                    std::optional<std::int64_t> checkRunRow,
                                    const VerdictSources& sources)
{
    ReportInput input;
    input.sha = sha;
    auto runs = cache.checkRunsForSha(sha);
    if (!runs)
        return runs.error();
    if (runs->empty())
        return makeError("no check runs for upstream SHA " + sha.value + " in the cache");
    // Newest attempt first, so the first run of each job is the one to report.
    std::set<std::tuple<std::string, std::string, std::string>> seen;
    std::vector<std::int64_t> rows;
    for (const CheckRun& run : *runs) {
        if (!seen.insert({run.downstreamRepo, run.workflow, run.jobName}).second)
            continue;
        auto row = cache.checkRunRowFor(run.checkRunId);
        if (!row)
            return row.error();
        if (!*row)
            continue; // no check run id: the cache cannot name the row
        if (!checkRunRow || **row == *checkRunRow)
            rows.push_back(**row);
    }
    if (checkRunRow && rows.empty())
        return makeError("check run row " + std::to_string(*checkRunRow)
                         + " is not the newest attempt of a job on " + sha.value);
    for (std::int64_t row : rows) {
        auto v = verdictForRun(cache, row, sources);
        if (!v)
            return v.error();
        input.jobs.push_back(std::move(*v));
    }
    std::sort(input.jobs.begin(), input.jobs.end(), [](const RunVerdict& a, const RunVerdict& b) {
        return std::tie(a.run.downstreamRepo, a.run.workflow, a.run.jobName)
               < std::tie(b.run.downstreamRepo, b.run.workflow, b.run.jobName);
    });
    return input;
}

} // namespace relayhud::verdict
