// HealthStore: the runs the integration doctor's runtime health reads
// (store/health_runs.h): every attempt of one backend's check runs in a window.
#include "relayhud/store/health_store.h"

#include "store/statement.h"
#include "store/store_access.h"

#include <unordered_map>

namespace relayhud {

using store::Statement;

namespace {

// A run belongs to the window by its start, or, when no in_progress callback
// ever gave one, by its upstream commit's time.
const char* const kHealthRunsSql =
    "SELECT cr.id, j.workflow, j.name, c.sha, cr.pr_number, cr.event_type, cr.run_id,"
    " cr.run_attempt, cr.check_run_id, cr.status, cr.conclusion, cr.started_at, cr.completed_at,"
    " cr.queue_time, cr.execution_time, cr.tests_total IS NOT NULL, cr.artifact_url <> '',"
    " cr.upstream_repo"
    " FROM check_run cr"
    " JOIN upstream_commit c ON c.id = cr.commit_id"
    " JOIN job j ON j.id = cr.job_id"
    " JOIN backend b ON b.id = j.backend_id"
    " WHERE b.repo = ?1 AND COALESCE(cr.started_at, c.time) >= ?2"
    " ORDER BY COALESCE(cr.started_at, c.time), cr.id";

// The read logs of the same runs and their checkouts (none: a NULL row).
const char* const kHealthCheckoutsSql =
    "SELECT s.check_run_row, lc.repository, lc.sha, lc.line, lc.fetch_ref"
    " FROM log_checkout_scan s"
    " JOIN check_run cr ON cr.id = s.check_run_row"
    " JOIN upstream_commit c ON c.id = cr.commit_id"
    " JOIN job j ON j.id = cr.job_id"
    " JOIN backend b ON b.id = j.backend_id"
    " LEFT JOIN log_checkout lc ON lc.check_run_row = s.check_run_row"
    " WHERE s.read = 1 AND b.repo = ?1 AND COALESCE(cr.started_at, c.time) >= ?2"
    " ORDER BY s.check_run_row, lc.ordinal";

HealthRun readHealthRun(const Statement& s)
{
    HealthRun r;
    r.checkRunRow = s.id<CheckRunRow>(0);
    r.workflow = s.text(1);
    r.job = s.text(2);
    r.sha = Sha{s.text(3)};
    r.prNumber = s.id<PrNumber>(4);
    r.eventType = static_cast<EventType>(s.integer(5));
    r.runId = s.text(6);
    r.attempt = s.integer(7);
    r.checkRunId = s.text(8);
    r.status = static_cast<RunStatus>(s.integer(9));
    r.conclusion = static_cast<Conclusion>(s.integer(10));
    r.startedAt = s.optInt64(11);
    r.completedAt = s.optInt64(12);
    r.queueSeconds = s.optReal(13);
    r.executionSeconds = s.optReal(14);
    r.reportsTests = s.integer(15) != 0;
    r.hasArtifactUrl = s.integer(16) != 0;
    r.upstreamRepo = s.text(17);
    return r;
}

} // namespace

HealthStore::HealthStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<std::vector<HealthRun>> HealthStore::healthRuns(const HealthRunQuery& query) const
{
    Statement s(m_db, kHealthRunsSql);
    s.bind(1, query.repo).bind(2, query.since);
    auto runs = store::collectRows<HealthRun>(s, readHealthRun);
    if (!runs)
        return runs.error();
    std::unordered_map<CheckRunRow, HealthRun*, IdHash> byRow;
    for (HealthRun& run : *runs)
        byRow.emplace(run.checkRunRow, &run);
    Statement checkouts(m_db, kHealthCheckoutsSql);
    checkouts.bind(1, query.repo).bind(2, query.since);
    auto read = checkouts.forEachRow([&](const Statement& row) {
        const auto found = byRow.find(row.id<CheckRunRow>(0));
        if (found == byRow.end())
            return;
        auto& list = found->second->checkouts;
        if (!list)
            list.emplace();
        if (!row.isNull(1))
            list->push_back(
                {row.text(1), row.text(2), static_cast<std::uint64_t>(row.int64(3)), row.text(4)});
    });
    if (!read)
        return read.error();
    return runs;
}

} // namespace relayhud
