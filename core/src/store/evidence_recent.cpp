// EvidenceStore reads for config suggestions (config/config_suggest.h): the recent
// runs of every job with each test's outcome, and the known test names. Two
// queries whatever the number of tests: the runs (check_run_by_job), then
// every result of the picked test runs by primary key, with its test_case.
#include "relayhud/store/evidence_store.h"

#include "store/statement.h"
#include "store/store_access.h"

#include "relayhud/junit/test_identity.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <unordered_map>

namespace relayhud {

using store::Statement;

namespace {

// TestRunState::Stored = 0. Within a job newest SHA first and, on one SHA,
// the newest attempt that has results first: the first row per commit wins.
constexpr const char* kRecentRuns =
    "SELECT j.id, b.repo, j.workflow, j.name, c.id, c.sha, c.time, cr.id, cr.run_attempt, tr.id"
    " FROM check_run cr JOIN job j ON j.id = cr.job_id JOIN backend b ON b.id = j.backend_id"
    " JOIN upstream_commit c ON c.id = cr.commit_id"
    " JOIN test_run tr ON tr.check_run_row = cr.id"
    " WHERE tr.state = 0 AND tr.stored_results > 0 AND (?1 = '' OR b.repo = ?1)"
    " ORDER BY b.repo, j.workflow, j.name, j.id, c.time DESC, c.id DESC, cr.run_attempt DESC,"
    " cr.id DESC";

// Results of the picked test runs (a JSON array of ids) with their tests.
constexpr const char* kResultsOfRuns =
    "SELECT r.test_run_id, r.test_id, r.outcome, tc.identity, tc.file, tc.class_name, tc.name,"
    " tc.base_name, tc.marks"
    " FROM json_each(?1) AS picked JOIN test_result r ON r.test_run_id = picked.value"
    " JOIN test_case tc ON tc.id = r.test_id";

// Where a picked test run's results go: its job and its slot in the job's runs.
struct Slot {
    std::size_t job = 0;
    std::size_t run = 0;
};

struct PickedRuns {
    std::vector<RecentJob> jobs;
    std::unordered_map<std::int64_t, Slot> slotOf; // by test run id
};

Result<PickedRuns> pickRecentRuns(sqlite3* db, const RecentResultsQuery& query)
{
    Statement s(db, kRecentRuns);
    s.bind(1, std::string_view(query.repo));
    PickedRuns picked;
    std::int64_t jobId = -1;
    std::int64_t lastCommit = -1;
    auto r = s.forEachRow([&](const Statement& row) {
        if (row.int64(0) != jobId) {
            jobId = row.int64(0);
            lastCommit = -1;
            picked.jobs.push_back({row.text(1), row.text(2), row.text(3), {}, {}});
        }
        RecentJob& job = picked.jobs.back();
        if (row.int64(4) == lastCommit || static_cast<int>(job.runs.size()) >= query.runsPerJob)
            return; // an older attempt on the same SHA, or past the window
        lastCommit = row.int64(4);
        job.runs.push_back({Sha{row.text(5)}, row.int64(6), row.int64(7), row.integer(8)});
        picked.slotOf.emplace(row.int64(9), Slot{picked.jobs.size() - 1, job.runs.size() - 1});
    });
    if (!r)
        return r.error();
    // Runs were read newest first; the slots count from the oldest.
    for (auto& [testRunId, slot] : picked.slotOf)
        slot.run = picked.jobs[slot.job].runs.size() - 1 - slot.run;
    for (RecentJob& job : picked.jobs)
        std::reverse(job.runs.begin(), job.runs.end());
    return picked;
}

std::string idArray(const std::unordered_map<std::int64_t, Slot>& slotOf)
{
    nlohmann::json ids = nlohmann::json::array();
    for (const auto& entry : slotOf)
        ids.push_back(entry.first);
    return ids.dump();
}

RecentTest readTest(const Statement& row)
{
    RecentTest test;
    test.testId = row.id<TestId>(1);
    test.file = row.text(4);
    // NULL: the identity the JUnit reader derives (see schema.cpp).
    test.identity = row.isNull(3) ? testIdentity(test.file, row.text(5), row.text(6)) : row.text(3);
    test.baseName = row.text(7);
    test.marks = row.text(8);
    return test;
}

} // namespace

Result<RecentResults> EvidenceStore::recentResults(const RecentResultsQuery& query) const
{
    if (query.runsPerJob < 1)
        return makeError("the number of runs per job must be at least 1");
    auto picked = pickRecentRuns(m_db, query);
    if (!picked)
        return picked.error();
    RecentResults out;
    out.jobs = std::move(picked->jobs);
    std::unordered_map<std::int64_t, std::size_t> testIndex; // by test id
    // Per job, the position of each test in RecentJob::tests.
    std::vector<std::unordered_map<std::size_t, std::size_t>> rowOf(out.jobs.size());
    Statement s(m_db, kResultsOfRuns);
    s.bind(1, std::string_view(idArray(picked->slotOf)));
    auto r = s.forEachRow([&](const Statement& row) {
        const Slot slot = picked->slotOf.at(row.int64(0));
        auto [it, isNew] = testIndex.try_emplace(row.int64(1), out.tests.size());
        if (isNew)
            out.tests.push_back(readTest(row));
        RecentJob& job = out.jobs[slot.job];
        auto [at, firstInJob] = rowOf[slot.job].try_emplace(it->second, job.tests.size());
        if (firstInJob)
            job.tests.push_back(
                {it->second, std::vector<std::optional<TestOutcome>>(job.runs.size())});
        job.tests[at->second].outcomes[slot.run] = static_cast<TestOutcome>(row.integer(2));
    });
    if (!r)
        return r.error();
    return out;
}

Result<std::vector<KnownTest>> EvidenceStore::knownTests() const
{
    Statement s(m_db, "SELECT DISTINCT file, base_name FROM test_case ORDER BY file, base_name");
    return store::collectRows<KnownTest>(s, [](const Statement& row) {
        return KnownTest{row.text(0), row.text(1)};
    });
}

} // namespace relayhud
