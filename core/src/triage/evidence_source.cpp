#include "relayhud/triage/evidence_source.h"

#include "relayhud/store/cache.h"

namespace relayhud::triage {

Result<CheckRun> CacheEvidenceSource::checkRun(std::int64_t checkRunRow) const
{
    return m_cache.checkRun(checkRunRow);
}

Result<std::int64_t> CacheEvidenceSource::jobOfRun(std::int64_t checkRunRow) const
{
    return m_cache.jobOfRun(checkRunRow);
}

Result<JobTimeline> CacheEvidenceSource::jobTimeline(std::int64_t jobId) const
{
    return m_cache.jobTimeline(jobId);
}

Result<std::optional<JobFailureLine>>
CacheEvidenceSource::jobFailureLine(std::int64_t checkRunRow) const
{
    return m_cache.jobFailureLine(checkRunRow);
}

Result<std::optional<TestRunInfo>>
CacheEvidenceSource::testRunForCheckRun(std::int64_t checkRunRow) const
{
    return m_cache.testRunForCheckRun(checkRunRow);
}

Result<std::vector<StoredTestResult>>
CacheEvidenceSource::testResults(std::int64_t testRunId, const TestResultFilter& filter) const
{
    return m_cache.testResults(testRunId, filter);
}

Result<std::vector<std::int64_t>>
CacheEvidenceSource::otherAttemptRows(std::int64_t checkRunRow) const
{
    return m_cache.otherAttemptRows(checkRunRow);
}

Result<std::vector<std::optional<TestOutcome>>>
CacheEvidenceSource::testOutcomesIn(std::int64_t checkRunRow,
                                    const std::vector<std::int64_t>& testIds) const
{
    return m_cache.testOutcomesIn(checkRunRow, testIds);
}

Result<std::vector<std::int64_t>>
CacheEvidenceSource::infraPeerRows(std::int64_t checkRunRow, EpochSeconds windowSeconds) const
{
    return m_cache.infraPeerRows(checkRunRow, windowSeconds);
}

} // namespace relayhud::triage
