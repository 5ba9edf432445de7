// Builds the SHA x job matrix snapshot in two sequential scans: the newest
// commits, then their check runs, folded into cells in memory.
#include "relayhud/store/cache.h"
#include "relayhud/util/natural_compare.h"
#include "relayhud/util/time.h"

#include "store/statement.h"

#include <algorithm>
#include <unordered_map>

namespace relayhud {

using store::Statement;

namespace {

struct RunRow {
    std::int64_t id, commitId, jobId;
    int attempt;
    RunStatus status;
    Conclusion conclusion;
    std::optional<EpochSeconds> started, completed;
    bool hasArtifacts;
};

void foldInto(MatrixCell& cell, const RunRow& r, const MatrixQuery& q)
{
    const bool replace =
        cell.empty()
        || (q.latestAttemptOnly ? r.attempt > cell.attempts : r.attempt < cell.attempts);
    const int attempts = std::max<int>(cell.attempts, r.attempt);
    if (replace) {
        cell.runRowId = r.id;
        cell.status = r.status;
        cell.conclusion = r.conclusion;
        cell.durationSeconds =
            r.started && r.completed ? static_cast<float>(*r.completed - *r.started) : 0.0f;
        cell.startedAt = r.started.value_or(0);
        cell.flags = 0;
        if (r.status == RunStatus::InProgress && r.started
            && q.now - *r.started > kStaleAfterSeconds)
            cell.flags |= MatrixCell::Stale;
        if (r.hasArtifacts)
            cell.flags |= MatrixCell::HasArtifacts;
    }
    cell.attempts = static_cast<std::uint8_t>(std::min(attempts, 255));
    if (cell.attempts > 1)
        cell.flags |= MatrixCell::Retried;
}

Result<std::vector<MatrixColumn>> loadColumns(sqlite3* db)
{
    Statement s(db, "SELECT j.id, b.repo, b.level, j.workflow, j.name FROM job j JOIN backend b ON "
                    "b.id = j.backend_id");
    std::vector<MatrixColumn> columns;
    for (;;) {
        auto row = s.step();
        if (!row)
            return row.error();
        if (!*row)
            break;
        columns.push_back(MatrixColumn{s.text(1), static_cast<Level>(s.integer(2)), s.text(3),
                                       s.text(4), s.int64(0)});
    }
    std::sort(columns.begin(), columns.end(), [](const MatrixColumn& a, const MatrixColumn& b) {
        if (a.backend != b.backend)
            return a.backend < b.backend;
        if (a.workflow != b.workflow)
            return naturalLess(a.workflow, b.workflow);
        return naturalLess(a.job, b.job);
    });
    return columns;
}

} // namespace

Result<MatrixSnapshot> Cache::loadMatrix(const MatrixQuery& query) const
{
    MatrixQuery q = query;
    if (q.now == 0)
        q.now = nowSeconds();
    MatrixSnapshot snap;
    std::unordered_map<std::int64_t, std::size_t> rowOf;
    {
        Statement s(m_db, "SELECT id, sha, pr_number, branch, event_type, time, title, author FROM "
                          "upstream_commit"
                          " ORDER BY time DESC, sha LIMIT ?");
        s.bind(1, q.maxCommits);
        for (;;) {
            auto row = s.step();
            if (!row)
                return row.error();
            if (!*row)
                break;
            rowOf.emplace(s.int64(0), snap.rows.size());
            snap.rows.push_back(UpstreamCommit{Sha{s.text(1)}, s.int64(2), s.text(3),
                                               static_cast<EventType>(s.integer(4)), s.int64(5),
                                               s.text(6), s.text(7)});
        }
    }
    auto allColumns = loadColumns(m_db);
    if (!allColumns)
        return allColumns.error();

    std::vector<RunRow> runs;
    {
        Statement s(
            m_db, "SELECT cr.id, cr.commit_id, cr.job_id, cr.run_attempt, cr.status, cr.conclusion,"
                  " cr.started_at, cr.completed_at, cr.artifact_url != '' FROM check_run cr"
                  " JOIN (SELECT id FROM upstream_commit ORDER BY time DESC, sha LIMIT ?) c"
                  " ON c.id = cr.commit_id");
        s.bind(1, q.maxCommits);
        for (;;) {
            auto row = s.step();
            if (!row)
                return row.error();
            if (!*row)
                break;
            runs.push_back(RunRow{s.int64(0), s.int64(1), s.int64(2), s.integer(3),
                                  static_cast<RunStatus>(s.integer(4)),
                                  static_cast<Conclusion>(s.integer(5)), s.optInt64(6),
                                  s.optInt64(7), s.integer(8) != 0});
        }
    }

    // Keep only the columns that have a run among the loaded commits.
    std::unordered_map<std::int64_t, bool> used;
    for (const auto& r : runs)
        used[r.jobId] = true;
    std::unordered_map<std::int64_t, std::size_t> columnOf;
    for (auto& c : *allColumns) {
        if (!used.count(c.jobId))
            continue;
        columnOf.emplace(c.jobId, snap.columns.size());
        snap.columns.push_back(std::move(c));
    }

    snap.cells.resize(snap.rows.size() * snap.columns.size());
    for (const auto& r : runs) {
        const auto row = rowOf.find(r.commitId);
        const auto col = columnOf.find(r.jobId);
        if (row != rowOf.end() && col != columnOf.end())
            foldInto(snap.cells[row->second * snap.columns.size() + col->second], r, q);
    }
    return snap;
}

} // namespace relayhud
