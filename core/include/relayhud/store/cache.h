#pragma once
// The local SQLite cache: everything RelayHUD shows comes from here, so the
// app works offline. One Cache per thread (SQLite connections are not shared);
// WAL mode lets a sync writer and GUI readers, or two app instances, coexist.
#include "relayhud/model/types.h"
#include "relayhud/store/matrix_snapshot.h"
#include "relayhud/store/test_results.h"
#include "relayhud/store/test_run_writer.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace relayhud {
class ContentCache;
}

namespace relayhud {

// A conditional-request validator: the ETag of an answer and how many page
// units (PR numbers) it held, so an unchanged page still tells whether a next
// page exists.
struct HttpValidator {
    std::string etag;
    std::int64_t items = 0;
};

// One unit of sync work, applied in a single transaction: all of it or none.
// Validators travel with the rows they describe, so a failed batch never
// leaves an ETag behind that would hide its rows from the next sync.
struct SyncBatch {
    std::vector<Backend> backends;
    std::vector<UpstreamCommit> commits;
    std::vector<CheckRun> runs;
    std::vector<std::pair<std::string, HttpValidator>> validators; // by URL
};

struct CacheStats {
    std::int64_t backends = 0;
    std::int64_t commits = 0;
    std::int64_t checkRuns = 0;
    std::int64_t jobs = 0;
    std::int64_t testRuns = 0;
    std::int64_t testResults = 0;
};

// A finished run whose artifacts sync may fetch.
struct ArtifactCandidate {
    std::int64_t checkRunRow = 0;
    std::string downstreamRepo;
    std::string runId;
    int runAttempt = 1;
    CheckRunId checkRunId;
    std::string artifactUrl;
    std::string runUrl;
    Conclusion conclusion = Conclusion::None;
    EpochSeconds commitTime = 0;
};

struct ArtifactQueueQuery {
    bool failedOnly = false;            // only runs whose conclusion is not success
    EpochSeconds since = 0;             // commits at or after this time; 0: any
    EpochSeconds retryFailedBefore = 0; // also runs whose last fetch Failed or was refused
                                        // (Unauthorized) before this time
    std::int64_t limit = 200;
};

class Cache {
public:
    // Current schema version (PRAGMA user_version after migrations).
    static constexpr int kSchemaVersion = 2;

    // Opens or creates the cache file and migrates it to kSchemaVersion.
    // ":memory:" gives a private in-memory cache (tests).
    static Result<std::unique_ptr<Cache>> open(const std::string& path);
    ~Cache();
    Cache(const Cache&) = delete;
    Cache& operator=(const Cache&) = delete;

    int schemaVersion() const;
    const std::string& path() const { return m_path; }

    // Upserts everything in one transaction. A completed run is never
    // overwritten by an in_progress row of the same attempt.
    Result<void> apply(const SyncBatch& batch);

    Result<CacheStats> stats() const;
    Result<std::vector<Backend>> backends() const;
    Result<std::vector<UpstreamCommit>> commits() const;
    // Every attempt of every run for one upstream SHA, newest attempt first.
    Result<std::vector<CheckRun>> checkRunsForSha(const Sha& sha) const;
    // One run by the row id a MatrixCell carries.
    Result<CheckRun> checkRun(std::int64_t rowId) const;
    // All attempts of the run a cell shows (same SHA, backend, workflow, job).
    Result<std::vector<CheckRun>> attemptsOf(std::int64_t rowId) const;
    // The newest commit older than `sha` that the cache knows: the base of
    // the upstream GitHub compare link.
    Result<std::optional<UpstreamCommit>> previousCommit(const Sha& sha) const;

    // PR numbers whose commits have no title yet (for /api/crcr/pr-info).
    Result<std::vector<std::int64_t>> prNumbersWithoutTitle(std::size_t limit) const;
    Result<void> applyPrInfo(const std::vector<PrInfo>& infos);

    // Builds the SHA x job matrix: newest attempt per cell by default.
    Result<MatrixSnapshot> loadMatrix(const MatrixQuery& query) const;

    // --- Test results (see store/test_results.h) ---
    // Starts writing a test run; `fullTexts` keeps the whole of cut messages.
    Result<std::unique_ptr<TestRunWriter>> beginTestRun(const TestRunOrigin& origin,
                                                        ContentCache* fullTexts = nullptr);
    // Records a fetch that stored no results (expired, no reports, ...),
    // replacing an earlier test run of the same check run. Returns its id.
    Result<std::int64_t> recordTestRunState(const TestRunOrigin& origin, TestRunState state,
                                            const std::string& message);
    Result<std::optional<TestRunInfo>> testRunForCheckRun(std::int64_t checkRunRow) const;
    // The row of the check run GitHub knows by `id` (the HUD's check_run_id),
    // newest first if a bad feed repeated it; none for an unknown or empty id.
    Result<std::optional<std::int64_t>> checkRunRowFor(const CheckRunId& id) const;
    Result<TestRunInfo> testRun(std::int64_t testRunId) const;
    // Test runs of one source, newest first (the imports list).
    Result<std::vector<TestRunInfo>> testRuns(TestRunSource source) const;
    Result<std::vector<StoredTestResult>> testResults(std::int64_t testRunId,
                                                      const TestResultFilter& filter = {}) const;
    Result<StoredText> testText(std::int64_t textId) const;
    // The history of each test over the last `maxShas` upstream SHAs (by
    // commit time, up to and including the SHA of `checkRunRow`) in runs of
    // the same job that have results. In the order of testIds.
    Result<std::vector<TestHistory>> testHistory(std::int64_t checkRunRow,
                                                 const std::vector<std::int64_t>& testIds,
                                                 int maxShas) const;
    // Finished runs with an artifact_url and no test run yet, failed runs
    // first, then newest commit first.
    Result<std::vector<ArtifactCandidate>> artifactQueue(const ArtifactQueueQuery& query) const;

    // Conditional-request validators for HUD URLs (ETag), kept across runs.
    Result<std::optional<HttpValidator>> validator(const std::string& url) const;
    Result<std::vector<std::pair<std::string, HttpValidator>>> validators() const;
    Result<void> setValidator(const std::string& url, const HttpValidator& v);

    // Key/value metadata (last successful sync time, HUD URL the cache came from).
    Result<std::optional<std::string>> meta(const std::string& key) const;
    Result<void> setMeta(const std::string& key, const std::string& value);

private:
    explicit Cache(std::string path);
    Result<void> configure();
    Result<void> applyInTransaction(const SyncBatch& batch);

    std::string m_path;
    sqlite3* m_db = nullptr;
};

} // namespace relayhud
