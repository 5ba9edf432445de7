// Builds the SHA x job matrix snapshot in two sequential scans: the newest
// commits, then their check runs, folded into cells in memory.
#include "relayhud/store/matrix_store.h"
#include "relayhud/util/natural_compare.h"
#include "relayhud/util/time.h"

#include "store/statement.h"
#include "store/store_access.h"

#include <algorithm>
#include <optional>
#include <unordered_set>

namespace relayhud {

using store::Statement;

namespace {

struct RunRow {
    CheckRunRow id;
    std::int64_t commitId, jobId;
    int attempt;
    RunStatus status;
    Conclusion conclusion;
    std::optional<EpochSeconds> started, completed;
    bool hasArtifacts;
};

void foldInto(MatrixCell& cell, const RunRow& r, const MatrixQuery& q)
{
    // Latest mode: the shown run always holds the highest attempt seen.
    const RunRank here{r.attempt, r.started, r.id};
    const RunRank shown{cell.attempts, cell.startedAt, cell.runRowId};
    const bool replace =
        cell.empty() || (q.latestAttemptOnly ? isNewerRun(here, shown) : r.attempt < cell.attempts);
    const int attempts = std::max<int>(cell.attempts, r.attempt);
    if (replace) {
        cell.runRowId = r.id;
        cell.status = r.status;
        cell.conclusion = r.conclusion;
        cell.durationSeconds =
            static_cast<float>(callbackDuration(r.started, r.completed).value_or(0));
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

// Runs that said success (Conclusion::Success = 1) while their stored
// results (TestRunState::Stored = 0) hold failing cases: few, so one small
// query beside the scan rather than a join inside it.
Result<void> markReportedGreensThatFailed(sqlite3* db, std::vector<MatrixCell>& cells)
{
    Statement s(db, "SELECT cr.id FROM check_run cr JOIN test_run tr ON tr.check_run_row = cr.id"
                    " WHERE cr.conclusion = 1 AND tr.state = 0"
                    " AND tr.failed + tr.errors + tr.xpass_strict > 0");
    std::unordered_set<CheckRunRow, IdHash> failing;
    if (auto r =
            s.forEachRow([&](const Statement& row) { failing.insert(row.id<CheckRunRow>(0)); });
        !r)
        return r.error();
    if (failing.empty())
        return {};
    for (MatrixCell& cell : cells)
        if (!cell.empty() && failing.contains(cell.runRowId))
            cell.flags |= MatrixCell::ReportedGreenTestsFailed;
    return {};
}

Result<std::vector<MatrixColumn>> loadColumns(sqlite3* db)
{
    Statement s(db, "SELECT j.id, b.repo, b.level, j.workflow, j.name, b.listed FROM job j"
                    " JOIN backend b ON b.id = j.backend_id");
    auto loaded = store::collectRows<MatrixColumn>(s, [](const Statement& row) {
        return MatrixColumn{row.text(1),       static_cast<Level>(row.integer(2)),
                            row.text(3),       row.text(4),
                            row.id<JobRow>(0), row.integer(5) != 0};
    });
    if (!loaded)
        return loaded;
    std::vector<MatrixColumn> columns = std::move(loaded.value());
    std::sort(columns.begin(), columns.end(), [](const MatrixColumn& a, const MatrixColumn& b) {
        if (a.backend != b.backend)
            return a.backend < b.backend;
        if (a.workflow != b.workflow)
            return naturalLess(a.workflow, b.workflow);
        return naturalLess(a.job, b.job);
    });
    return columns;
}

// SQLite row ids are small dense integers: a vector beats a hash map on the
// 300,000-row hot path.
class DenseIndex {
public:
    void set(std::int64_t id, std::size_t index)
    {
        const auto at = static_cast<std::size_t>(id);
        if (id < 0)
            return;
        if (at >= m_slots.size())
            m_slots.resize(at + 1, kNone);
        m_slots[at] = index;
    }
    std::optional<std::size_t> find(std::int64_t id) const
    {
        const auto at = static_cast<std::size_t>(id);
        if (id < 0 || at >= m_slots.size() || m_slots[at] == kNone)
            return std::nullopt;
        return m_slots[at];
    }

private:
    static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
    std::vector<std::size_t> m_slots;
};

// Keeps only the columns that have a run among the loaded commits.
void compactColumns(MatrixSnapshot& snap, std::vector<MatrixColumn> columns,
                    std::vector<MatrixCell> cells, const std::vector<bool>& used)
{
    const auto keep = static_cast<std::size_t>(std::count(used.begin(), used.end(), true));
    if (keep == columns.size()) {
        snap.columns = std::move(columns);
        snap.cells = std::move(cells);
        return;
    }
    snap.cells.resize(snap.rows.size() * keep);
    for (std::size_t c = 0, out = 0; c < columns.size(); ++c) {
        if (!used[c])
            continue;
        for (std::size_t r = 0; r < snap.rows.size(); ++r)
            snap.cells[r * keep + out] = cells[r * columns.size() + c];
        snap.columns.push_back(std::move(columns[c]));
        ++out;
    }
}

} // namespace

MatrixStore::MatrixStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<MatrixSnapshot> MatrixStore::loadMatrix(const MatrixQuery& query) const
{
    MatrixQuery q = query;
    if (q.now == 0)
        q.now = nowSeconds();
    MatrixSnapshot snap;
    DenseIndex rowOf;
    {
        Statement s(m_db, "SELECT id, sha, pr_number, branch, event_type, time, title, author FROM "
                          "upstream_commit"
                          " ORDER BY time DESC, sha LIMIT ?");
        s.bind(1, q.maxCommits);
        auto r = s.forEachRow([&](const Statement& row) {
            rowOf.set(row.int64(0), snap.rows.size());
            snap.rows.push_back(UpstreamCommit{Sha{row.text(1)}, row.int64(2), row.text(3),
                                               static_cast<EventType>(row.integer(4)), row.int64(5),
                                               row.text(6), row.text(7)});
        });
        if (!r)
            return r.error();
    }
    auto allColumns = loadColumns(m_db);
    if (!allColumns)
        return allColumns.error();
    DenseIndex columnOf;
    for (std::size_t c = 0; c < allColumns->size(); ++c)
        columnOf.set((*allColumns)[c].jobId.value, c);

    // Fold runs straight into cells over all jobs: one sequential scan (it
    // beats an index probe per commit), no intermediate copy of the rows.
    const std::size_t width = allColumns->size();
    std::vector<MatrixCell> cells(snap.rows.size() * width);
    std::vector<bool> used(width, false);
    Statement s(m_db, "SELECT id, commit_id, job_id, run_attempt, status, conclusion,"
                      " started_at, completed_at, artifact_url != '' FROM check_run");
    auto scanned = s.forEachRow([&](const Statement& st) {
        const auto row = rowOf.find(st.int64(1));
        const auto col = columnOf.find(st.int64(2));
        if (!row || !col)
            return;
        const RunRow r{st.id<CheckRunRow>(0),
                       st.int64(1),
                       st.int64(2),
                       st.integer(3),
                       static_cast<RunStatus>(st.integer(4)),
                       static_cast<Conclusion>(st.integer(5)),
                       st.optInt64(6),
                       st.optInt64(7),
                       st.integer(8) != 0};
        foldInto(cells[*row * width + *col], r, q);
        used[*col] = true;
    });
    if (!scanned)
        return scanned.error();
    if (auto marked = markReportedGreensThatFailed(m_db, cells); !marked)
        return marked.error();
    compactColumns(snap, std::move(*allColumns), std::move(cells), used);
    return snap;
}

} // namespace relayhud
