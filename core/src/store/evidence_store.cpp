// EvidenceStore reads and writes for triage evidence (triage/suggest.h): job failure
// lines, the runs triage looks at, other attempts, a run's outcomes for a few
// tests, and the other infra failures nearby.
#include "relayhud/store/evidence_store.h"

#include "relayhud/util/json_guard.h"
#include "store/run_order.h"
#include "store/statement.h"
#include "store/store_access.h"

#include <nlohmann/json.hpp>

namespace relayhud {

using store::Statement;

namespace {

// Conclusion: Failure = 2, Cancelled = 3, TimedOut = 4 (model/types.h);
// RunStatus::Completed = 3; TestRunState::Stored = 0;
// JobLineState: Matched = 0, FetchFailed = 3.
constexpr const char* kFailedConclusion = "cr.conclusion IN (2, 3, 4)";
static_assert(static_cast<int>(Conclusion::Failure) == 2
              && static_cast<int>(Conclusion::TimedOut) == 4);
static_assert(static_cast<int>(JobLineState::FetchFailed) == 3);

std::string capturesJson(const std::vector<std::string>& captures)
{
    return nlohmann::json(captures).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

std::vector<std::string> parseCaptures(const std::string& text)
{
    const auto json = parseJsonOrDiscarded(text);
    std::vector<std::string> out;
    if (!json.is_array())
        return out;
    for (const auto& item : json)
        if (item.is_string())
            out.push_back(item.get<std::string>());
    return out;
}

Result<std::vector<CheckRunRow>> collectRunRows(Statement& s)
{
    return store::collectRows<CheckRunRow>(
        s, [](const Statement& row) { return row.id<CheckRunRow>(0); });
}

} // namespace

const char* jobLineStateName(JobLineState state)
{
    switch (state) {
    case JobLineState::Matched: return "matched";
    case JobLineState::NoMatch: return "no match";
    case JobLineState::NoLog: return "no log";
    case JobLineState::FetchFailed: return "fetch failed";
    }
    return "unknown";
}

EvidenceStore::EvidenceStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<void> EvidenceStore::putJobFailureLine(const JobFailureLine& line)
{
    Statement s(m_db, "INSERT OR REPLACE INTO job_failure_line (check_run_row, rules_hash, state,"
                      " rule, class, line, text, captures, log_hash, message, picked_at, named)"
                      " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    // The hash is stored as its 64-bit pattern: SQLite integers are signed.
    s.bind(1, line.checkRunRow)
        .bind(2, static_cast<std::int64_t>(line.rulesHash))
        .bind(3, static_cast<int>(line.state))
        .bind(4, line.rule)
        .bind(5, triage::storedClass(line.cls))
        .bind(6, static_cast<std::int64_t>(line.line))
        .bind(7, line.text)
        .bind(8, capturesJson(line.captures))
        .bind(9, line.logHash)
        .bind(10, line.message)
        .bind(11, line.pickedAt)
        .bind(12, capturesJson(line.named));
    if (auto r = s.run(); !r)
        return makeError("could not store the failure line of check run "
                         + std::to_string(line.checkRunRow.value) + ": " + r.message());
    return {};
}

Result<std::optional<JobFailureLine>> EvidenceStore::jobFailureLine(CheckRunRow checkRunRow) const
{
    Statement s(m_db, "SELECT rules_hash, state, rule, class, line, text, captures, log_hash,"
                      " message, picked_at, named FROM job_failure_line WHERE check_run_row = ?");
    auto row = s.bind(1, checkRunRow).step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<JobFailureLine>{};
    JobFailureLine line;
    line.checkRunRow = checkRunRow;
    line.rulesHash = static_cast<std::uint64_t>(s.int64(0));
    line.state = static_cast<JobLineState>(s.integer(1));
    line.rule = s.text(2);
    line.cls = triage::classFromStored(s.int64(3));
    line.line = static_cast<std::uint64_t>(s.int64(4));
    line.text = s.text(5);
    line.captures = parseCaptures(s.text(6));
    line.logHash = s.text(7);
    line.message = s.text(8);
    line.pickedAt = s.int64(9);
    line.named = parseCaptures(s.text(10));
    return std::optional<JobFailureLine>{std::move(line)};
}

namespace {

std::string jobLineQueueSql()
{
    return std::string("SELECT cr.id, b.repo, cr.check_run_id, cr.conclusion,"
                       " l.message LIKE ?5"
                       " FROM check_run cr JOIN job j ON j.id = cr.job_id"
                       " JOIN backend b ON b.id = j.backend_id"
                       " JOIN upstream_commit c ON c.id = cr.commit_id"
                       " LEFT JOIN job_failure_line l ON l.check_run_row = cr.id"
                       " WHERE cr.status = 3 AND ")
           + kFailedConclusion
           + " AND cr.check_run_id != '' AND c.time >= ?1"
             " AND (l.check_run_row IS NULL OR l.rules_hash != ?2"
             "      OR ((l.state = 3 OR l.message LIKE ?5) AND l.picked_at < ?3))"
             " ORDER BY c.time DESC, cr.id DESC LIMIT ?4";
}

void bindJobLineQueue(Statement& s, const JobLineQueueQuery& query, std::int64_t limit)
{
    s.bind(1, query.since)
        .bind(2, static_cast<std::int64_t>(query.rulesHash))
        .bind(3, query.retryFailedBefore)
        .bind(4, limit > 0 ? limit : -1)
        .bind(5, std::string(kLogBrokeOffMessage) + "%");
}

} // namespace

Result<std::vector<JobLineCandidate>>
EvidenceStore::jobLineQueue(const JobLineQueueQuery& query) const
{
    Statement s(m_db, jobLineQueueSql());
    bindJobLineQueue(s, query, query.limit);
    return store::collectRows<JobLineCandidate>(s, [](const Statement& row) {
        return JobLineCandidate{row.int64(0), row.text(1), CheckRunId{row.text(2)},
                                static_cast<Conclusion>(row.integer(3)), row.integer(4) == 1};
    });
}

Result<std::int64_t> EvidenceStore::jobLineQueueSize(const JobLineQueueQuery& query) const
{
    Statement s(m_db, "SELECT count(*) FROM (" + jobLineQueueSql() + ")");
    bindJobLineQueue(s, query, 0);
    auto row = s.step();
    if (!row)
        return row.error();
    return *row ? s.int64(0) : 0;
}

Result<std::vector<CheckRunRow>> EvidenceStore::triageRunRows(const TriageRunQuery& query) const
{
    Statement s(m_db, std::string("SELECT cr.id FROM check_run cr"
                                  " JOIN upstream_commit c ON c.id = cr.commit_id"
                                  " LEFT JOIN test_run tr ON tr.check_run_row = cr.id"
                                  " WHERE (?1 = '' OR c.sha = ?1) AND c.time >= ?2 AND (")
                          + kFailedConclusion
                          + " OR (tr.state = 0 AND tr.failed + tr.errors + tr.xpass_strict > 0))"
                            " ORDER BY c.time DESC, cr.id DESC LIMIT ?3");
    s.bind(1, query.sha.value).bind(2, query.since).bind(3, query.limit > 0 ? query.limit : -1);
    return collectRunRows(s);
}

Result<std::vector<CheckRunRow>> EvidenceStore::otherAttemptRows(CheckRunRow checkRunRow) const
{
    Statement s(m_db, "SELECT o.id FROM check_run cr"
                      " JOIN check_run o ON o.job_id = cr.job_id AND o.commit_id = cr.commit_id"
                      " JOIN test_run tr ON tr.check_run_row = o.id"
                      " WHERE cr.id = ?1 AND o.id != cr.id AND tr.state = 0"
                      " ORDER BY "
                          + store::newestRunFirstSql("o"));
    s.bind(1, checkRunRow);
    return collectRunRows(s);
}

Result<std::vector<std::optional<TestOutcome>>>
EvidenceStore::testOutcomesIn(CheckRunRow checkRunRow, const std::vector<TestId>& testIds) const
{
    std::vector<std::optional<TestOutcome>> out(testIds.size());
    Statement run(m_db, "SELECT id FROM test_run WHERE check_run_row = ? AND state = 0");
    auto found = run.bind(1, checkRunRow).step();
    if (!found)
        return found.error();
    if (!*found)
        return out;
    const std::int64_t testRunId = run.int64(0);
    Statement s(m_db, "SELECT outcome FROM test_result WHERE test_run_id = ? AND test_id = ?");
    for (std::size_t i = 0; i < testIds.size(); ++i) {
        auto row = s.reset().bind(1, testRunId).bind(2, testIds[i]).step();
        if (!row)
            return row.error();
        if (*row)
            out[i] = static_cast<TestOutcome>(s.integer(0));
    }
    return out;
}

Result<std::vector<CheckRunRow>> EvidenceStore::infraPeerRows(CheckRunRow checkRunRow,
                                                              EpochSeconds windowSeconds) const
{
    // A run without a start time groups by SHA only.
    Statement s(m_db, "SELECT o.id FROM check_run cr"
                      " JOIN job_failure_line l ON l.state = 0 AND l.class = ?3"
                      " JOIN check_run o ON o.id = l.check_run_row"
                      " WHERE cr.id = ?1 AND o.id != cr.id AND o.conclusion IN (2, 3, 4)"
                      " AND (o.commit_id = cr.commit_id OR abs(o.started_at - cr.started_at) <= ?2)"
                      " AND NOT EXISTS (SELECT 1 FROM test_run t WHERE t.check_run_row = o.id"
                      "                 AND t.state = 0 AND t.failed + t.errors > 0)"
                      " ORDER BY o.started_at, o.id");
    s.bind(1, checkRunRow)
        .bind(2, windowSeconds)
        .bind(3, triage::storedClass(triage::FailureClass::Infra));
    return collectRunRows(s);
}

} // namespace relayhud
