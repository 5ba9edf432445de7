// TrendStore: the runs the trend charts read (store/trend_runs.h), in one scan of
// the window's check runs joined with their job, backend, commit and test run.
#include "relayhud/store/trend_store.h"

#include "store/run_order.h"
#include "store/statement.h"
#include "store/store_access.h"

namespace relayhud {

using store::Statement;

namespace {

// Newest attempt per (commit, job); a test run's executed count is every
// stored outcome but skipped (xfailed tests ran, they failed as expected).
const std::string kTrendRunsSql =
    "SELECT cr.id, b.repo, j.workflow, j.name, c.sha, c.time, cr.run_attempt, cr.status,"
    " cr.conclusion, cr.started_at, cr.completed_at, cr.queue_time, cr.execution_time,"
    " cr.tests_total, cr.tests_passed, cr.tests_failed, cr.tests_skipped,"
    " tr.state, tr.passed + tr.failed + tr.errors + tr.xfailed + tr.xpass_strict"
    " FROM check_run cr"
    " JOIN upstream_commit c ON c.id = cr.commit_id"
    " JOIN job j ON j.id = cr.job_id"
    " JOIN backend b ON b.id = j.backend_id"
    " LEFT JOIN test_run tr ON tr.check_run_row = cr.id"
    " WHERE c.time >= ?1 AND (?2 = 0 OR c.time < ?2) AND (?3 = '' OR b.repo = ?3)"
    " AND NOT EXISTS (SELECT 1 FROM check_run n WHERE n.commit_id = cr.commit_id"
    "  AND n.job_id = cr.job_id AND "
    + store::newerRunSql("n", "cr") + ") ORDER BY c.time, c.sha, b.repo, j.workflow, j.name";

std::optional<TestCounts> readCounts(const Statement& s)
{
    if (s.isNull(13))
        return std::nullopt;
    return TestCounts{s.int64(13), s.optInt64(14).value_or(0), s.optInt64(15).value_or(0),
                      s.optInt64(16).value_or(0)};
}

TrendRun readTrendRun(const Statement& s)
{
    TrendRun r;
    r.checkRunRow = s.id<CheckRunRow>(0);
    r.repo = s.text(1);
    r.workflow = s.text(2);
    r.job = s.text(3);
    r.sha = Sha{s.text(4)};
    r.commitTime = s.int64(5);
    r.attempt = s.integer(6);
    r.status = static_cast<RunStatus>(s.integer(7));
    r.conclusion = static_cast<Conclusion>(s.integer(8));
    r.startedAt = s.optInt64(9);
    r.completedAt = s.optInt64(10);
    r.queueSeconds = s.optReal(11);
    r.executionSeconds = s.optReal(12);
    r.reportedTests = readCounts(s);
    if (!s.isNull(17) && static_cast<TestRunState>(s.integer(17)) == TestRunState::Stored)
        r.storedExecuted = s.int64(18);
    return r;
}

} // namespace

TrendStore::TrendStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<std::vector<TrendRun>> TrendStore::trendRuns(const TrendRunQuery& query) const
{
    if (query.until != 0 && query.until <= query.since)
        return makeError("the trend window ends (" + std::to_string(query.until)
                         + ") before it starts (" + std::to_string(query.since) + ")");
    Statement s(m_db, kTrendRunsSql);
    s.bind(1, query.since).bind(2, query.until).bind(3, query.repo);
    return store::collectRows<TrendRun>(s, readTrendRun);
}

} // namespace relayhud
