#pragma once
// Test results (model/test_results.h): writing a run's results, reading
// them, the history of a test, and the queue of runs whose artifacts a sync
// fetches. Tables: test_case, test_message, test_run, test_result.
#include "relayhud/model/test_results.h"
#include "relayhud/model/types.h"
#include "relayhud/store/test_run_writer.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

class ContentCache;

// A finished run whose artifacts sync may fetch.
struct ArtifactCandidate {
    CheckRunRow checkRunRow;
    std::string downstreamRepo;
    std::string runId;
    int runAttempt = 1;
    CheckRunId checkRunId;
    std::string artifactUrl;
    std::string runUrl;
    Conclusion conclusion = Conclusion::None;
    EpochSeconds commitTime = 0;
    EpochSeconds startedAt = 0; // the row's started_at; 0: not reported
};

// A check run's artifacts are asked for at most this many times when they
// hold no reports yet or broke off (TestResultStore::artifactQueue): the
// first fetch and one at each of 5 min, 30 min, 2 h and 12 h after the run
// completed.
inline constexpr int kMaxArtifactAsks = 5;

struct ArtifactQueueQuery {
    bool failedOnly = false;            // only runs whose conclusion is not success
    EpochSeconds since = 0;             // commits at or after this time; 0: any
    EpochSeconds retryFailedBefore = 0; // also runs whose last fetch Failed or was refused
                                        // (Unauthorized) before this time
    std::int64_t limit = 200;
};

class TestResultStore {
public:
    explicit TestResultStore(const Database& db);

    // Starts writing a test run; `fullTexts` keeps the whole of cut messages.
    Result<std::unique_ptr<TestRunWriter>> beginTestRun(const TestRunOrigin& origin,
                                                        ContentCache* fullTexts = nullptr);

    // Records a fetch that stored no results (expired, no reports, ...),
    // replacing an earlier test run of the same check run. Returns its id.
    Result<TestRunId> recordTestRunState(const TestRunOrigin& origin, TestRunState state,
                                         const std::string& message);

    Result<std::optional<TestRunInfo>> testRunForCheckRun(CheckRunRow checkRunRow) const;

    // The same for many rows in one query (the matrix's greens), by row;
    // rows without a test run are absent.
    Result<std::unordered_map<CheckRunRow, TestRunInfo, IdHash>>
    testRunsForCheckRuns(const std::vector<CheckRunRow>& checkRunRows) const;

    Result<TestRunInfo> testRun(TestRunId testRunId) const;

    // Test runs of one source, newest first (the imports list).
    Result<std::vector<TestRunInfo>> testRuns(TestRunSource source) const;

    Result<std::vector<StoredTestResult>> testResults(TestRunId testRunId,
                                                      const TestResultFilter& filter = {}) const;

    Result<StoredText> testText(TestMessageId textId) const;

    // The history of each test over the last `maxShas` upstream SHAs (by
    // commit time, up to and including the SHA of `checkRunRow`) in runs of
    // the same job that have results. In the order of testIds.
    Result<std::vector<TestHistory>>
    testHistory(CheckRunRow checkRunRow, const std::vector<TestId>& testIds, int maxShas) const;

    // Finished runs with an artifact_url and no test run yet (or one whose
    // fetch failed, or whose reports broke off and were kept partial, before
    // query.retryFailedBefore), failed runs first, then newest commit first.
    Result<std::vector<ArtifactCandidate>> artifactQueue(const ArtifactQueueQuery& query) const;

    // How many runs the queue holds (query.limit aside).
    Result<std::int64_t> artifactQueueSize(const ArtifactQueueQuery& query) const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
