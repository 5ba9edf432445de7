// TestResultStore::testHistory: the same tests across the recent upstream SHAs of one
// job. Two steps, each on an index: pick the runs (check_run_by_job, one run
// per SHA), then read each test's results in those runs from
// test_result_by_test, bounded by the picked test-run ids. For one test over
// 1,000 runs in a 30-million-result cache that is a few thousand b-tree
// entries, not a scan (relayhud-bench "history").
#include "relayhud/store/test_result_store.h"

#include "store/statement.h"
#include "store/store_access.h"

#include <algorithm>
#include <unordered_map>

namespace relayhud {

using store::Statement;

namespace {

// TestRunState::Stored = 0. The asked commit leads its ties in commit time,
// and the asked run leads its SHA's attempts, so the strip ends on the run
// the user opened whenever it has results.
constexpr const char* kRunsOfJob =
    "SELECT c.id, c.sha, c.time, cr.id, cr.run_attempt, tr.id"
    " FROM check_run cr JOIN upstream_commit c ON c.id = cr.commit_id"
    " JOIN test_run tr ON tr.check_run_row = cr.id"
    " WHERE cr.job_id = ?1 AND c.time <= ?2 AND tr.state = 0 AND tr.stored_results > 0"
    " ORDER BY c.time DESC, c.id = ?3 DESC, c.id DESC, cr.id = ?4 DESC, cr.run_attempt DESC,"
    " cr.id DESC";

struct AskedRun {
    std::int64_t jobId = 0;
    std::int64_t commitId = 0;
    EpochSeconds commitTime = 0;
};

struct PickedRun {
    TestHistoryPoint point; // without an outcome
    std::int64_t testRunId = 0;
};

Result<AskedRun> askedRun(sqlite3* db, CheckRunRow checkRunRow)
{
    Statement s(db, "SELECT cr.job_id, cr.commit_id, c.time FROM check_run cr"
                    " JOIN upstream_commit c ON c.id = cr.commit_id WHERE cr.id = ?");
    auto row = s.bind(1, checkRunRow).step();
    if (!row)
        return row.error();
    if (!*row)
        return makeError("check run " + std::to_string(checkRunRow.value)
                         + " is no longer in the cache");
    return AskedRun{s.int64(0), s.int64(1), s.int64(2)};
}

// Newest first: one run per SHA, at most maxShas.
Result<std::vector<PickedRun>> pickRuns(sqlite3* db, CheckRunRow checkRunRow, const AskedRun& a,
                                        int maxShas)
{
    Statement s(db, kRunsOfJob);
    s.bind(1, a.jobId).bind(2, a.commitTime).bind(3, a.commitId).bind(4, checkRunRow);
    std::vector<PickedRun> runs;
    std::int64_t lastCommit = -1;
    while (static_cast<int>(runs.size()) < maxShas) {
        auto more = s.step();
        if (!more)
            return more.error();
        if (!*more)
            break;
        if (s.int64(0) == lastCommit)
            continue; // an older attempt on the same SHA
        lastCommit = s.int64(0);
        PickedRun run;
        run.point.sha = Sha{s.text(1)};
        run.point.commitTime = s.int64(2);
        run.point.checkRunRow = s.id<CheckRunRow>(3);
        run.point.runAttempt = s.integer(4);
        run.testRunId = s.int64(5);
        runs.push_back(std::move(run));
    }
    std::reverse(runs.begin(), runs.end());
    return runs;
}

Result<TestHistory> historyOf(Statement& s, TestId testId, const std::vector<PickedRun>& runs,
                              const std::unordered_map<std::int64_t, std::size_t>& slotOf,
                              std::pair<std::int64_t, std::int64_t> idRange)
{
    TestHistory history{testId, {}};
    history.points.reserve(runs.size());
    for (const PickedRun& run : runs)
        history.points.push_back(run.point);
    s.reset().bind(1, testId).bind(2, idRange.first).bind(3, idRange.second);
    auto r = s.forEachRow([&](const Statement& row) {
        if (auto it = slotOf.find(row.int64(0)); it != slotOf.end())
            history.points[it->second].outcome = static_cast<TestOutcome>(row.integer(1));
    });
    if (!r)
        return r.error();
    return history;
}

} // namespace

Result<std::vector<TestHistory>> TestResultStore::testHistory(CheckRunRow checkRunRow,
                                                              const std::vector<TestId>& testIds,
                                                              int maxShas) const
{
    auto asked = askedRun(m_db, checkRunRow);
    if (!asked)
        return asked.error();
    auto runs = pickRuns(m_db, checkRunRow, *asked, std::max(maxShas, 0));
    if (!runs)
        return runs.error();
    std::unordered_map<std::int64_t, std::size_t> slotOf;
    std::pair<std::int64_t, std::int64_t> idRange{0, -1};
    for (std::size_t i = 0; i < runs->size(); ++i) {
        const std::int64_t id = (*runs)[i].testRunId;
        slotOf.emplace(id, i);
        idRange = i == 0 ? std::pair{id, id}
                         : std::pair{std::min(idRange.first, id), std::max(idRange.second, id)};
    }
    Statement s(m_db, "SELECT test_run_id, outcome FROM test_result"
                      " WHERE test_id = ?1 AND test_run_id BETWEEN ?2 AND ?3");
    std::vector<TestHistory> out;
    out.reserve(testIds.size());
    for (const TestId testId : testIds) {
        auto history = historyOf(s, testId, *runs, slotOf, idRange);
        if (!history)
            return history.error();
        out.push_back(std::move(*history));
    }
    return out;
}

} // namespace relayhud
