#include "store/run_writer.h"

namespace relayhud::store {
namespace {

constexpr const char* kUpsertBackend =
    "INSERT INTO backend(repo, level, oncalls, listed) VALUES (?1, ?2, ?3, ?4)"
    " ON CONFLICT(repo) DO UPDATE SET"
    " level = CASE WHEN excluded.level != 0 THEN excluded.level ELSE level END,"
    " listed = excluded.listed,"
    " oncalls = CASE WHEN excluded.oncalls != '' THEN excluded.oncalls ELSE oncalls END";

constexpr const char* kUpsertCommit =
    "INSERT INTO upstream_commit(sha, pr_number, branch, event_type, time, title, author)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT(sha) DO UPDATE SET"
    " pr_number = CASE WHEN pr_number = 0 THEN excluded.pr_number ELSE pr_number END,"
    " branch = CASE WHEN excluded.branch != '' THEN excluded.branch ELSE branch END,"
    " time = CASE WHEN time = 0 OR (excluded.time != 0 AND excluded.time < time)"
    "        THEN excluded.time ELSE time END,"
    " title = CASE WHEN excluded.title != '' THEN excluded.title ELSE title END,"
    " author = CASE WHEN excluded.author != '' THEN excluded.author ELSE author END";

constexpr const char* kUpsertRun =
    "INSERT INTO check_run(commit_id, job_id, run_id, run_attempt, check_run_id, pr_number, "
    "event_type,"
    " upstream_repo, status, conclusion, started_at, completed_at, tests_total, tests_passed,"
    " tests_failed, tests_skipped, run_url, artifact_url, level, queue_time, execution_time,"
    " conclusion_text)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, "
    "?19, ?20, ?21, ?22)"
    " ON CONFLICT(commit_id, job_id, run_id, run_attempt, check_run_id) DO UPDATE SET"
    " pr_number = excluded.pr_number,"
    " status = excluded.status, conclusion = excluded.conclusion,"
    " conclusion_text = excluded.conclusion_text,"
    " started_at = coalesce(excluded.started_at, started_at),"
    " completed_at = coalesce(excluded.completed_at, completed_at),"
    " tests_total = coalesce(excluded.tests_total, tests_total),"
    " tests_passed = coalesce(excluded.tests_passed, tests_passed),"
    " tests_failed = coalesce(excluded.tests_failed, tests_failed),"
    " tests_skipped = coalesce(excluded.tests_skipped, tests_skipped),"
    " run_url = CASE WHEN excluded.run_url != '' THEN excluded.run_url ELSE run_url END,"
    " artifact_url = CASE WHEN excluded.artifact_url != '' THEN excluded.artifact_url ELSE "
    "artifact_url END,"
    " level = CASE WHEN excluded.level != 0 THEN excluded.level ELSE level END,"
    " queue_time = coalesce(excluded.queue_time, queue_time),"
    " execution_time = coalesce(excluded.execution_time, execution_time)"
    // The status values are RunStatus: 3 = Completed.
    " WHERE NOT (check_run.status = 3 AND excluded.status != 3)";

std::string joinOncalls(const std::vector<std::string>& oncalls)
{
    std::string out;
    for (const auto& o : oncalls)
        out += (out.empty() ? "" : ",") + o;
    return out;
}

template <class E>
std::int64_t code(E value)
{
    return static_cast<std::int64_t>(value);
}

} // namespace

RunWriter::RunWriter(sqlite3* db)
    : m_upsertBackend(db, kUpsertBackend),
      m_insertBackend(db, "INSERT OR IGNORE INTO backend(repo, level) VALUES (?, ?)"),
      m_selectBackend(db, "SELECT id FROM backend WHERE repo = ?"),
      m_insertJob(db, "INSERT OR IGNORE INTO job(backend_id, workflow, name) VALUES (?, ?, ?)"),
      m_selectJob(db, "SELECT id FROM job WHERE backend_id = ? AND workflow = ? AND name = ?"),
      m_upsertCommit(db, kUpsertCommit),
      m_selectCommit(db, "SELECT id FROM upstream_commit WHERE sha = ?"),
      m_upsertRun(db, kUpsertRun),
      m_setValidator(db,
                     "INSERT INTO http_validator(url, etag, items) VALUES (?, ?, ?)"
                     " ON CONFLICT(url) DO UPDATE SET etag = excluded.etag, items = excluded.items")
{
}

Result<std::int64_t> RunWriter::idOf(Statement& select)
{
    auto row = select.step();
    if (!row)
        return row.error();
    if (!*row)
        return makeError("cache error: a row just written could not be read back");
    return select.int64(0);
}

Result<void> RunWriter::upsertBackend(const Backend& backend)
{
    m_upsertBackend.reset()
        .bind(1, backend.repo)
        .bind(2, code(backend.level))
        .bind(3, joinOncalls(backend.oncalls))
        .bind(4, backend.allowlisted ? 1 : 0);
    return m_upsertBackend.run();
}

Result<std::int64_t> RunWriter::backendId(const std::string& repo, Level level)
{
    if (auto it = m_backendIds.find(repo); it != m_backendIds.end())
        return it->second;
    // A run names its backend; whether the allowlist lists it is the
    // allowlist's (or crcr_summary's) to say: insert, never update, here.
    if (auto r = m_insertBackend.reset().bind(1, repo).bind(2, code(level)).run(); !r)
        return r.error();
    auto id = idOf(m_selectBackend.reset().bind(1, repo));
    if (id)
        m_backendIds.emplace(repo, *id);
    return id;
}

Result<std::int64_t> RunWriter::jobId(std::int64_t backend, const std::string& workflow,
                                      const std::string& name)
{
    std::string key = std::to_string(backend) + '\x1f' + workflow + '\x1f' + name;
    if (auto it = m_jobIds.find(key); it != m_jobIds.end())
        return it->second;
    if (auto r = m_insertJob.reset().bind(1, backend).bind(2, workflow).bind(3, name).run(); !r)
        return r.error();
    auto id = idOf(m_selectJob.reset().bind(1, backend).bind(2, workflow).bind(3, name));
    if (id)
        m_jobIds.emplace(std::move(key), *id);
    return id;
}

Result<void> RunWriter::upsertCommit(const UpstreamCommit& commit)
{
    if (commit.sha.empty())
        return makeError("an upstream commit without a SHA cannot be cached");
    m_upsertCommit.reset()
        .bind(1, commit.sha.value)
        .bind(2, commit.prNumber)
        .bind(3, commit.branch)
        .bind(4, code(commit.eventType))
        .bind(5, commit.time)
        .bind(6, commit.title)
        .bind(7, commit.author);
    return m_upsertCommit.run();
}

Result<std::int64_t> RunWriter::commitId(const CheckRun& run)
{
    if (auto it = m_commitIds.find(run.upstreamSha.value); it != m_commitIds.end())
        return it->second;
    UpstreamCommit commit{run.upstreamSha,
                          run.prNumber,
                          {},
                          run.eventType,
                          run.reported.startedAt.value_or(0),
                          {},
                          {}};
    if (auto r = upsertCommit(commit); !r)
        return r.error();
    auto id = idOf(m_selectCommit.reset().bind(1, run.upstreamSha.value));
    if (id)
        m_commitIds.emplace(run.upstreamSha.value, *id);
    return id;
}

Result<void> RunWriter::upsertRun(const CheckRun& run)
{
    auto backend = backendId(run.downstreamRepo, run.trusted.level);
    if (!backend)
        return backend.error();
    auto job = jobId(*backend, run.workflow, run.jobName);
    if (!job)
        return job.error();
    auto commit = commitId(run);
    if (!commit)
        return commit.error();
    const auto& tests = run.reported.tests;
    auto count = [&](std::int64_t TestCounts::*field) -> std::optional<std::int64_t> {
        return tests ? std::optional<std::int64_t>((*tests).*field) : std::nullopt;
    };
    m_upsertRun.reset()
        .bind(1, *commit)
        .bind(2, *job)
        .bind(3, run.runId)
        .bind(4, run.runAttempt)
        .bind(5, run.checkRunId.value)
        .bind(6, run.prNumber)
        .bind(7, code(run.eventType))
        .bind(8, run.upstreamRepo)
        .bind(9, code(run.reported.status))
        .bind(10, code(run.reported.conclusion))
        .bind(11, run.reported.startedAt)
        .bind(12, run.reported.completedAt)
        .bind(13, count(&TestCounts::total))
        .bind(14, count(&TestCounts::passed))
        .bind(15, count(&TestCounts::failed))
        .bind(16, count(&TestCounts::skipped))
        .bind(17, run.reported.runUrl)
        .bind(18, run.reported.artifactUrl)
        .bind(19, code(run.trusted.level))
        .bind(20, run.trusted.queueTimeSeconds)
        .bind(21, run.trusted.executionTimeSeconds)
        .bind(22, run.reported.conclusionText);
    return m_upsertRun.run();
}

} // namespace relayhud::store

namespace relayhud::store {

Result<void> RunWriter::setValidator(const std::string& url, const HttpValidator& validator)
{
    return m_setValidator.reset()
        .bind(1, url)
        .bind(2, validator.etag)
        .bind(3, validator.items)
        .run();
}

} // namespace relayhud::store
