#include "relayhud/triage/evidence_source.h"

#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"

namespace relayhud::triage {

Result<CheckRun> CacheEvidenceSource::checkRun(CheckRunRow checkRunRow) const
{
    return RunStore(m_cache).checkRun(checkRunRow);
}

Result<JobRow> CacheEvidenceSource::jobOfRun(CheckRunRow checkRunRow) const
{
    return EvidenceStore(m_cache).jobOfRun(checkRunRow);
}

Result<JobTimeline> CacheEvidenceSource::jobTimeline(JobRow jobId) const
{
    return EvidenceStore(m_cache).jobTimeline(jobId);
}

Result<std::optional<JobFailureLine>>
CacheEvidenceSource::jobFailureLine(CheckRunRow checkRunRow) const
{
    return EvidenceStore(m_cache).jobFailureLine(checkRunRow);
}

Result<std::optional<TestRunInfo>>
CacheEvidenceSource::testRunForCheckRun(CheckRunRow checkRunRow) const
{
    return TestResultStore(m_cache).testRunForCheckRun(checkRunRow);
}

Result<std::vector<StoredTestResult>>
CacheEvidenceSource::testResults(TestRunId testRunId, const TestResultFilter& filter) const
{
    return TestResultStore(m_cache).testResults(testRunId, filter);
}

Result<std::vector<CheckRunRow>>
CacheEvidenceSource::otherAttemptRows(CheckRunRow checkRunRow) const
{
    return EvidenceStore(m_cache).otherAttemptRows(checkRunRow);
}

Result<std::vector<std::optional<TestOutcome>>>
CacheEvidenceSource::testOutcomesIn(CheckRunRow checkRunRow,
                                    const std::vector<TestId>& testIds) const
{
    return EvidenceStore(m_cache).testOutcomesIn(checkRunRow, testIds);
}

Result<std::vector<CheckRunRow>>
CacheEvidenceSource::infraPeerRows(CheckRunRow checkRunRow, EpochSeconds windowSeconds) const
{
    return EvidenceStore(m_cache).infraPeerRows(checkRunRow, windowSeconds);
}

} // namespace relayhud::triage
