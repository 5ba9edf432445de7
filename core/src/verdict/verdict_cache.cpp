// verdictForRun: gathers a run's evidence from the cache and the configured
// config files, then applies computeVerdict.
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/util/time.h"
#include "relayhud/verdict/verdict.h"

namespace relayhud::verdict {
namespace {

// The executed cases of the previous SHA's run of the same job, found through
// the history of one of this run's tests (testHistory picks one run per SHA
// among the job's runs that have results).
Result<std::optional<std::int64_t>> previousExecuted(const Database& cache, CheckRunRow checkRunRow,
                                                     const std::vector<StoredTestResult>& results)
{
    if (results.empty())
        return std::optional<std::int64_t>{};
    auto history = TestResultStore(cache).testHistory(checkRunRow, {results.front().testId}, 2);
    if (!history)
        return history.error();
    const std::vector<TestHistoryPoint>& points = history->front().points;
    if (points.size() < 2 || points.back().checkRunRow != checkRunRow)
        return std::optional<std::int64_t>{};
    auto previous =
        TestResultStore(cache).testRunForCheckRun(points[points.size() - 2].checkRunRow);
    if (!previous)
        return previous.error();
    if (!*previous || (*previous)->state != TestRunState::Stored)
        return std::optional<std::int64_t>{};
    const TestRunTotals& t = (*previous)->totals;
    return std::optional<std::int64_t>{t.cases() - t.count(TestOutcome::Skipped)};
}

} // namespace

Result<RunVerdict> verdictForRun(const Database& cache, CheckRunRow checkRunRow,
                                 const VerdictSources& sources)
{
    auto run = RunStore(cache).checkRun(checkRunRow);
    if (!run)
        return run.error();
    VerdictInput in;
    in.run = std::move(*run);
    in.now = sources.now != 0 ? sources.now : nowSeconds();
    in.shrinkThreshold = sources.shrinkThreshold;
    auto testRun = TestResultStore(cache).testRunForCheckRun(checkRunRow);
    if (!testRun)
        return testRun.error();
    in.testRun = std::move(*testRun);
    std::vector<StoredTestResult> results;
    if (in.testRun && in.testRun->state == TestRunState::Stored) {
        auto stored = TestResultStore(cache).testResults(in.testRun->id);
        if (!stored)
            return stored.error();
        results = std::move(*stored);
    }
    if (auto loaded = sources.loadedConfigs.find(in.run.downstreamRepo);
        loaded != sources.loadedConfigs.end())
        in.config = loaded->second;
    else if (auto path = sources.configByRepo.find(in.run.downstreamRepo);
             path != sources.configByRepo.end())
        in.config = loadRunConfig(path->second);
    if (sources.frameworkAsOf)
        in.config.context.frameworkAsOf = sources.frameworkAsOf;
    if (auto selection = sources.selectionByRepo.find(in.run.downstreamRepo);
        selection != sources.selectionByRepo.end())
        in.selection = selection->second;
    auto previous = previousExecuted(cache, checkRunRow, results);
    if (!previous)
        return previous.error();
    in.previousExecuted = *previous;
    RunVerdict v = computeVerdict(in, results);
    v.checkRunRow = checkRunRow;
    return v;
}

} // namespace relayhud::verdict
