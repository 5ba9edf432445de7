#pragma once
// Triage evidence: each failed run's failure line (store/job_failure_line.h),
// the runs triage reads, their other attempts and peers, a job's timeline
// (store/job_timeline.h), and the recent results config suggestions read
// (store/recent_results.h). Table: job_failure_line; the rest are reads of
// runs and results.
#include "relayhud/model/test_result.h"
#include "relayhud/model/types.h"
#include "relayhud/store/job_failure_line.h"
#include "relayhud/store/job_timeline.h"
#include "relayhud/store/recent_results.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

class EvidenceStore {
public:
    explicit EvidenceStore(const Database& db);

    // --- Triage evidence (triage/suggest.h) ---
    // Replaces the failure line of one check run (store/job_failure_line.h).
    Result<void> putJobFailureLine(const JobFailureLine& line);

    Result<std::optional<JobFailureLine>> jobFailureLine(CheckRunRow checkRunRow) const;

    // Finished runs that failed (failure, cancelled, timed out) and have a
    // check_run_id, whose line is missing, was picked by another rule set, or
    // whose fetch failed (or whose log broke off, JobLineCandidate) before
    // retryFailedBefore; newest commit first.
    Result<std::vector<JobLineCandidate>> jobLineQueue(const JobLineQueueQuery& query) const;

    // How many runs that queue holds (query.limit aside).
    Result<std::int64_t> jobLineQueueSize(const JobLineQueueQuery& query) const;

    // Runs triage looks at: failed, cancelled or timed out, or whose stored
    // results hold a failed, error or xpass-strict test; newest commit first.
    Result<std::vector<CheckRunRow>> triageRunRows(const TriageRunQuery& query) const;

    // The other attempts of the same job on the same SHA that have stored
    // results, newest attempt first.
    Result<std::vector<CheckRunRow>> otherAttemptRows(CheckRunRow checkRunRow) const;

    // The outcome of each test (by id) in the stored results of one run, in
    // order; nullopt where the run has no result for it.
    Result<std::vector<std::optional<TestOutcome>>>
    testOutcomesIn(CheckRunRow checkRunRow, const std::vector<TestId>& testIds) const;

    // Other failed jobs (any backend) whose failure line is Infra and that
    // have no failed or error test: on the same SHA, or started within
    // `windowSeconds` of this run. Oldest start first.
    Result<std::vector<CheckRunRow>> infraPeerRows(CheckRunRow checkRunRow,
                                                   EpochSeconds windowSeconds) const;

    // The test_case id of a test identity (file::Class::name); none when no
    // stored result ever named it.
    Result<std::optional<TestId>> testIdOf(const std::string& identity) const;

    // The job (job.id) a check run belongs to; 0 for an unknown row.
    Result<JobRow> jobOfRun(CheckRunRow checkRunRow) const;

    // Every run of one job with its failing tests (store/job_timeline.h): two
    // reads, the second over the failing results only.
    Result<JobTimeline> jobTimeline(JobRow jobId) const;

    // --- Config suggestions (config/config_suggest.h) ---
    // The last query.runsPerJob runs with results of every job (one per
    // upstream SHA, its newest attempt with results), and the outcome of
    // every test in them; see store/recent_results.h.
    Result<RecentResults> recentResults(const RecentResultsQuery& query) const;

    // Every (file, base name) the cache has a result for: what config name
    // patterns are checked against.
    Result<std::vector<KnownTest>> knownTests() const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
