// RunStore queries that read: lists, single runs, and the run history of a cell.
#include "relayhud/store/run_store.h"

#include "store/run_order.h"
#include "store/statement.h"
#include "store/store_access.h"

#include <sqlite3.h>

namespace relayhud {

using store::Statement;

namespace {

constexpr const char* kRunSelect =
    "SELECT b.repo, c.sha, cr.pr_number, cr.event_type, cr.upstream_repo, j.workflow, j.name,"
    " cr.check_run_id, cr.run_id, cr.run_attempt, cr.status, cr.conclusion, cr.started_at,"
    " cr.completed_at, cr.tests_total, cr.tests_passed, cr.tests_failed, cr.tests_skipped,"
    " cr.run_url, cr.artifact_url, CASE WHEN cr.level != 0 THEN cr.level ELSE b.level END,"
    " cr.queue_time, cr.execution_time, cr.level != 0, cr.conclusion_text"
    " FROM check_run cr JOIN job j ON j.id = cr.job_id JOIN backend b ON b.id = j.backend_id"
    " JOIN upstream_commit c ON c.id = cr.commit_id ";

constexpr const char* kCommitSelect =
    "SELECT sha, pr_number, branch, event_type, time, title, author FROM upstream_commit ";

template <class E>
E enumAt(const Statement& s, int column)
{
    return static_cast<E>(s.integer(column));
}

CheckRun readRun(const Statement& s)
{
    CheckRun run;
    run.downstreamRepo = s.text(0);
    run.upstreamSha = Sha{s.text(1)};
    run.prNumber = s.id<PrNumber>(2);
    run.eventType = enumAt<EventType>(s, 3);
    run.upstreamRepo = s.text(4);
    run.workflow = s.text(5);
    run.jobName = s.text(6);
    run.checkRunId = CheckRunId{s.text(7)};
    run.runId = s.text(8);
    run.runAttempt = s.integer(9);
    run.reported.status = enumAt<RunStatus>(s, 10);
    run.reported.conclusion = enumAt<Conclusion>(s, 11);
    run.reported.startedAt = s.optInt64(12);
    run.reported.completedAt = s.optInt64(13);
    if (!s.isNull(14))
        run.reported.tests = TestCounts{s.int64(14), s.int64(15), s.int64(16), s.int64(17)};
    run.reported.runUrl = s.text(18);
    run.reported.artifactUrl = s.text(19);
    run.trusted.level = enumAt<Level>(s, 20);
    run.trusted.queueTimeSeconds = s.optReal(21);
    run.trusted.executionTimeSeconds = s.optReal(22);
    run.trusted.levelAtDispatch = s.integer(23) != 0;
    run.reported.conclusionText = s.text(24);
    return run;
}

UpstreamCommit readCommit(const Statement& s)
{
    return UpstreamCommit{Sha{s.text(0)}, s.int64(1), s.text(2), enumAt<EventType>(s, 3),
                          s.int64(4),     s.text(5),  s.text(6)};
}

std::vector<std::string> splitOncalls(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < text.size()) {
        const auto end = std::min(text.find(',', start), text.size());
        if (end > start)
            out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

} // namespace

Result<std::vector<Backend>> RunStore::backends() const
{
    Statement s(m_db, "SELECT repo, level, oncalls, listed FROM backend ORDER BY repo");
    return store::collectRows<Backend>(s, [](const Statement& st) {
        return Backend{st.text(0), enumAt<Level>(st, 1), splitOncalls(st.text(2)),
                       st.integer(3) != 0};
    });
}

Result<std::vector<UpstreamCommit>> RunStore::commits() const
{
    Statement s(m_db, std::string(kCommitSelect) + "ORDER BY time DESC, sha");
    return store::collectRows<UpstreamCommit>(s, readCommit);
}

Result<std::vector<CheckRun>> RunStore::checkRunsForSha(const Sha& sha) const
{
    Statement s(m_db,
                std::string(kRunSelect)
                    + "WHERE c.sha = ? ORDER BY b.repo, j.workflow, j.name, cr.run_attempt DESC");
    s.bind(1, sha.value);
    return store::collectRows<CheckRun>(s, readRun);
}

Result<std::vector<CheckRun>> RunStore::checkRunsForPr(PrNumber prNumber) const
{
    Statement s(m_db, std::string(kRunSelect)
                          + "WHERE c.pr_number = ?1 AND cr.pr_number = ?1 ORDER BY c.time DESC, "
                            "c.sha, b.repo, j.workflow,"
                            " j.name, cr.run_attempt DESC");
    s.bind(1, prNumber);
    return store::collectRows<CheckRun>(s, readRun);
}

Result<CheckRun> RunStore::checkRun(CheckRunRow rowId) const
{
    Statement s(m_db, std::string(kRunSelect) + "WHERE cr.id = ?");
    s.bind(1, rowId);
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return makeError("check run " + std::to_string(rowId.value) + " is no longer in the cache");
    return readRun(s);
}

Result<std::vector<CheckRun>> RunStore::attemptsOf(CheckRunRow rowId) const
{
    Statement s(m_db, std::string(kRunSelect)
                          + "WHERE cr.commit_id = (SELECT commit_id FROM check_run WHERE id = ?1)"
                            " AND cr.job_id = (SELECT job_id FROM check_run WHERE id = ?1)"
                            " ORDER BY "
                          + store::newestRunFirstSql("cr"));
    s.bind(1, rowId);
    return store::collectRows<CheckRun>(s, readRun);
}

Result<std::optional<UpstreamCommit>> RunStore::previousCommit(const Sha& sha) const
{
    // EventType::Nightly = 2 (model/types.h).
    static_assert(static_cast<int>(EventType::Nightly) == 2);
    Statement s(m_db, std::string(kCommitSelect)
                          + "WHERE EXISTS (SELECT 1 FROM upstream_commit h WHERE h.sha = ?1"
                            " AND upstream_commit.time < h.time"
                            " AND ((h.pr_number > 0 AND upstream_commit.pr_number = h.pr_number)"
                            "   OR (h.event_type = 2 AND upstream_commit.event_type = 2"
                            // a nightly's free-text id is no commit to compare with
                            "    AND length(upstream_commit.sha) IN (40, 64)"
                            "    AND upstream_commit.sha NOT GLOB '*[^0-9a-fA-F]*')))"
                            " ORDER BY time DESC LIMIT 1");
    s.bind(1, sha.value);
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<UpstreamCommit>{};
    return std::optional<UpstreamCommit>{readCommit(s)};
}

Result<std::optional<CheckRunRow>> RunStore::checkRunRowFor(const CheckRunId& id) const
{
    if (id.value.empty())
        return std::optional<CheckRunRow>{};
    Statement s(m_db, "SELECT id FROM check_run WHERE check_run_id = ? ORDER BY id DESC LIMIT 1");
    auto row = s.bind(1, id.value).step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<CheckRunRow>{};
    return std::optional<CheckRunRow>{s.id<CheckRunRow>(0)};
}

} // namespace relayhud
