// EvidenceStore reads for attribution (store/job_timeline.h): every run of one job,
// then the failing results of all of them through the partial index
// test_result_triage (schema.cpp, version 4).
#include "relayhud/model/test_results.h"
#include "relayhud/store/evidence_store.h"

#include "relayhud/junit/test_identity.h"
#include "relayhud/util/hash.h"
#include "relayhud/util/json_guard.h"
#include "store/run_order.h"
#include "store/schema.h"
#include "store/statement.h"
#include "store/store_access.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace relayhud {

using store::Statement;

namespace {

// TestOutcome::Failed = 1, Error = 2, XFailed = 4, XPassStrict = 5 (the
// triage index's term, schema.h); TestRunState::Stored = 0.
constexpr const char* kFailingOutcome = "r.outcome IN (1, 2)";
static_assert(static_cast<int>(TestOutcome::Failed) == 1
              && static_cast<int>(TestOutcome::Error) == 2
              && static_cast<int>(TestOutcome::XFailed) == 4
              && static_cast<int>(TestOutcome::XPassStrict) == 5);
static_assert(static_cast<int>(TestRunState::Stored) == 0);
// A run awaiting results (TimelineRun::awaitingResults): RunStatus::Completed
// = 3, Conclusion::Success = 1; TestRunState::Unauthorized = 3, Failed = 4
// are fetched again later.
static_assert(static_cast<int>(RunStatus::Completed) == 3
              && static_cast<int>(Conclusion::Success) == 1
              && static_cast<int>(TestRunState::Unauthorized) == 3
              && static_cast<int>(TestRunState::Failed) == 4);

} // namespace

Result<std::optional<TestId>> EvidenceStore::testIdOf(const std::string& identity) const
{
    // test_case.key is the identity's hash (schema.cpp, version 2); the
    // identity column is NULL where it is testIdentity(file, class, name).
    Statement s(m_db, "SELECT id, identity, file, class_name, name FROM test_case WHERE key = ?");
    s.bind(1, static_cast<std::int64_t>(fnv1a(identity)));
    std::optional<TestId> found;
    auto read = s.forEachRow([&](const Statement& row) {
        const std::string stored =
            row.isNull(1) ? testIdentity(row.text(2), row.text(3), row.text(4)) : row.text(1);
        if (!found && stored == identity)
            found = row.id<TestId>(0);
    });
    if (!read)
        return read.error();
    return found;
}

Result<JobRow> EvidenceStore::jobOfRun(CheckRunRow checkRunRow) const
{
    Statement s(m_db, "SELECT job_id FROM check_run WHERE id = ?");
    auto row = s.bind(1, checkRunRow).step();
    if (!row)
        return row.error();
    return *row ? s.id<JobRow>(0) : JobRow{};
}

namespace {

// check_run.id -> the run's index in JobTimeline::runs.
using RowIndex = std::unordered_map<CheckRunRow, std::size_t, IdHash>;

// The job's runs, oldest commit first, attempts of one SHA together.
Result<void> readRuns(sqlite3* db, JobRow jobId, JobTimeline& out, RowIndex& byRow)
{
    Statement runs(db, "SELECT cr.id, c.sha, cr.pr_number, cr.event_type, c.author, c.title,"
                       " c.time, cr.run_attempt, cr.conclusion, cr.started_at,"
                       " tr.state IS NOT NULL AND tr.state = 0, cr.upstream_repo,"
                       " coalesce(t.sha, ''),"
                       " cr.status = 3 AND cr.conclusion != 1 AND (cr.artifact_url != ''"
                       "  OR cr.run_url LIKE '%/actions/runs/%')"
                       "  AND (tr.id IS NULL OR tr.state IN (3, 4)),"
                       " coalesce(t.source, 1)"
                       " FROM check_run cr JOIN upstream_commit c ON c.id = cr.commit_id"
                       " LEFT JOIN test_run tr ON tr.check_run_row = cr.id"
                       " LEFT JOIN tested_commit t ON t.check_run_row = cr.id"
                       " WHERE cr.job_id = ?"
                       " ORDER BY c.time, c.sha, "
                           + store::oldestRunFirstSql("cr"));
    runs.bind(1, jobId);
    return runs.forEachRow([&](const Statement& row) {
        TimelineRun r;
        r.row = row.id<CheckRunRow>(0);
        r.sha = Sha{row.text(1)};
        r.prNumber = row.id<PrNumber>(2);
        r.eventType = static_cast<EventType>(row.integer(3));
        r.author = row.text(4);
        r.title = row.text(5);
        r.time = row.int64(6);
        r.attempt = row.integer(7);
        r.conclusion = static_cast<Conclusion>(row.integer(8));
        r.startedAt = row.isNull(9) ? 0 : row.int64(9);
        r.hasResults = row.integer(10) != 0;
        r.testedSha = row.text(12);
        r.awaitingResults = row.integer(13) != 0;
        r.testedSource = static_cast<TestedCommitSource>(row.integer(14));
        if (out.runs.empty())
            out.upstreamRepo = row.text(11);
        byRow.emplace(r.row, out.runs.size());
        out.runs.push_back(std::move(r));
    });
}

// The tests each run with stored results failed.
Result<void> readFailing(sqlite3* db, JobRow jobId, JobTimeline& out, const RowIndex& byRow)
{
    Statement failing(db, std::string("SELECT tr.check_run_row, r.test_id"
                                      " FROM check_run cr"
                                      " JOIN test_run tr ON tr.check_run_row = cr.id JOIN ")
                              + store::kTriageResults
                              + " ON r.test_run_id = tr.id"
                                " WHERE cr.job_id = ? AND tr.state = 0 AND "
                              + kFailingOutcome + " AND " + store::kTriageOutcomesTerm);
    failing.bind(1, jobId);
    return failing.forEachRow([&](const Statement& row) {
        if (auto it = byRow.find(row.id<CheckRunRow>(0)); it != byRow.end())
            out.runs[it->second].failing.push_back(row.id<TestId>(1));
    });
}

// Runs without results: the tests their failure line's rule names (a
// pytest summary's every FAILED line), or the line's own test when it was
// picked before schema 10 (JobLineState::Matched = 0); (run index, test
// identity) pairs.
Result<std::vector<std::pair<std::size_t, std::string>>>
readNamed(sqlite3* db, JobRow jobId, const JobTimeline& timeline, const RowIndex& byRow)
{
    Statement lines(db, "SELECT l.check_run_row, l.captures, l.named FROM job_failure_line l"
                        " JOIN check_run cr ON cr.id = l.check_run_row"
                        " WHERE cr.job_id = ? AND l.state = 0");
    lines.bind(1, jobId);
    std::vector<std::pair<std::size_t, std::string>> named;
    auto read = lines.forEachRow([&](const Statement& row) {
        const auto it = byRow.find(row.id<CheckRunRow>(0));
        if (it == byRow.end() || timeline.runs[it->second].hasResults)
            return;
        const auto list = parseJsonOrDiscarded(row.text(2));
        const bool every = list.is_array() && !list.empty();
        const auto tests = every ? list : parseJsonOrDiscarded(row.text(1));
        if (!tests.is_array())
            return;
        for (const auto& test : tests) {
            if (test.is_string()
                && test.get_ref<const std::string&>().find("::") != std::string::npos)
                named.emplace_back(it->second, test.get<std::string>());
            if (!every)
                break; // of an older line's captures, only the first is its test
        }
    });
    if (!read)
        return read.error();
    return named;
}

} // namespace

Result<JobTimeline> EvidenceStore::jobTimeline(JobRow jobId) const
{
    JobTimeline out;
    out.jobId = jobId;
    Statement job(m_db, "SELECT b.repo, j.workflow, j.name FROM job j"
                        " JOIN backend b ON b.id = j.backend_id WHERE j.id = ?");
    auto found = job.bind(1, jobId).step();
    if (!found)
        return found.error();
    if (!*found)
        return makeError("no job " + std::to_string(jobId.value) + " in the cache");
    out.downstreamRepo = job.text(0);
    out.workflow = job.text(1);
    out.jobName = job.text(2);

    RowIndex byRow;
    if (auto read = readRuns(m_db, jobId, out, byRow); !read)
        return read.error();
    if (auto read = readFailing(m_db, jobId, out, byRow); !read)
        return read.error();
    auto named = readNamed(m_db, jobId, out, byRow);
    if (!named)
        return named.error();
    for (const auto& [index, identity] : *named) {
        auto known = out.namedIds.find(identity);
        if (known == out.namedIds.end()) {
            auto id = testIdOf(identity);
            if (!id)
                return id.error();
            const TestId own{-static_cast<std::int64_t>(out.namedIds.size()) - 1};
            known = out.namedIds.emplace(identity, id->value_or(own)).first;
        }
        out.runs[index].named.push_back(known->second);
    }
    for (TimelineRun& r : out.runs) {
        std::sort(r.failing.begin(), r.failing.end());
        std::sort(r.named.begin(), r.named.end());
    }
    return out;
}

} // namespace relayhud
