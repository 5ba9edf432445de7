#pragma once
// The local SQLite cache: everything RelayHUD shows comes from here, so the
// app works offline. One Cache per thread (SQLite connections are not shared);
// WAL mode lets a sync writer and GUI readers, or two app instances, coexist.
#include "relayhud/model/types.h"
#include "relayhud/store/matrix_snapshot.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace relayhud {

// One unit of sync work, applied in a single transaction: all of it or none.
struct SyncBatch {
    std::vector<Backend> backends;
    std::vector<UpstreamCommit> commits;
    std::vector<CheckRun> runs;
};

struct CacheStats {
    std::int64_t backends = 0;
    std::int64_t commits = 0;
    std::int64_t checkRuns = 0;
    std::int64_t jobs = 0;
};

struct HttpValidator {
    std::string etag;
    std::string bodyHash;
};

class Cache {
public:
    // Current schema version (PRAGMA user_version after migrations).
    static constexpr int kSchemaVersion = 1;

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
    // The previous commit (by time) that has a run in the same column: the
    // base of the GitHub compare link.
    Result<std::optional<UpstreamCommit>> previousCommit(const Sha& sha) const;

    // Builds the SHA x job matrix: newest attempt per cell by default.
    Result<MatrixSnapshot> loadMatrix(const MatrixQuery& query) const;

    // Conditional-request validators for HUD URLs (ETag), kept across runs.
    Result<std::optional<HttpValidator>> validator(const std::string& url) const;
    Result<void> setValidator(const std::string& url, const HttpValidator& v);

    // Key/value metadata (last successful sync time, HUD URL the cache came from).
    Result<std::optional<std::string>> meta(const std::string& key) const;
    Result<void> setMeta(const std::string& key, const std::string& value);

private:
    explicit Cache(std::string path);
    struct Statements;
    std::string m_path;
    sqlite3* m_db = nullptr;
    std::unique_ptr<Statements> m_stmts;
};

} // namespace relayhud
