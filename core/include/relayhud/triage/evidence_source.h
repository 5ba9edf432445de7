#pragma once
// What suggestForRuns (triage/suggest.h) reads, and nothing more: the facts of
// runs, their results and the job's evidence, by check-run row. The cache
// answers them (CacheEvidenceSource, one connection on its thread); a test
// answers them from facts it wrote down, with no SQLite, so every rule of
// suggest can be tried on hand-made runs. Each method means what the
// store method of the same name means (store/run_store.h, test_result_store.h,
// evidence_store.h).
#include "relayhud/model/test_result.h"
#include "relayhud/model/test_results.h"
#include "relayhud/model/types.h"
#include "relayhud/store/job_failure_line.h"
#include "relayhud/store/job_timeline.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::triage {

class EvidenceSource {
public:
    virtual ~EvidenceSource() = default;

    virtual Result<CheckRun> checkRun(CheckRunRow checkRunRow) const = 0;
    // The job (job.id) a run belongs to, and every run of that job with its
    // failing tests: what attribution reads.
    virtual Result<JobRow> jobOfRun(CheckRunRow checkRunRow) const = 0;
    virtual Result<JobTimeline> jobTimeline(JobRow jobId) const = 0;
    virtual Result<std::optional<JobFailureLine>> jobFailureLine(CheckRunRow checkRunRow) const = 0;
    virtual Result<std::optional<TestRunInfo>>
    testRunForCheckRun(CheckRunRow checkRunRow) const = 0;
    virtual Result<std::vector<StoredTestResult>>
    testResults(TestRunId testRunId, const TestResultFilter& filter) const = 0;
    // Other attempts of the same job on the same SHA with stored results,
    // newest first, and the outcome of each test (by id) in one of them.
    virtual Result<std::vector<CheckRunRow>> otherAttemptRows(CheckRunRow checkRunRow) const = 0;
    virtual Result<std::vector<std::optional<TestOutcome>>>
    testOutcomesIn(CheckRunRow checkRunRow, const std::vector<TestId>& testIds) const = 0;
    // Failed jobs of any backend whose line is Infra, on the same SHA or
    // within `windowSeconds`, oldest start first: one outage's members.
    virtual Result<std::vector<CheckRunRow>> infraPeerRows(CheckRunRow checkRunRow,
                                                           EpochSeconds windowSeconds) const = 0;
};

// The cache's answers.
class CacheEvidenceSource final : public EvidenceSource {
public:
    explicit CacheEvidenceSource(const Database& cache) : m_cache(cache) {}

    Result<CheckRun> checkRun(CheckRunRow checkRunRow) const override;
    Result<JobRow> jobOfRun(CheckRunRow checkRunRow) const override;
    Result<JobTimeline> jobTimeline(JobRow jobId) const override;
    Result<std::optional<JobFailureLine>> jobFailureLine(CheckRunRow checkRunRow) const override;
    Result<std::optional<TestRunInfo>> testRunForCheckRun(CheckRunRow checkRunRow) const override;
    Result<std::vector<StoredTestResult>>
    testResults(TestRunId testRunId, const TestResultFilter& filter) const override;
    Result<std::vector<CheckRunRow>> otherAttemptRows(CheckRunRow checkRunRow) const override;
    Result<std::vector<std::optional<TestOutcome>>>
    testOutcomesIn(CheckRunRow checkRunRow, const std::vector<TestId>& testIds) const override;
    Result<std::vector<CheckRunRow>> infraPeerRows(CheckRunRow checkRunRow,
                                                   EpochSeconds windowSeconds) const override;

private:
    const Database& m_cache;
};

} // namespace relayhud::triage
