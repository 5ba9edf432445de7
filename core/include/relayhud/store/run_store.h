#pragma once
// The runs the relay reported and the commits they ran on: what a HUD sync
// writes (one batch per transaction) and the reads of one run, one SHA or one
// PR. Tables: backend, upstream_commit, job, check_run, http_validator.
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

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

class RunStore {
public:
    explicit RunStore(const Database& db);

    // Upserts everything in one transaction. A completed run is never
    // overwritten by an in_progress row of the same attempt.
    Result<void> apply(const SyncBatch& batch);

    Result<CacheStats> stats() const;

    Result<std::vector<Backend>> backends() const;

    Result<std::vector<UpstreamCommit>> commits() const;

    // Every attempt of every run for one upstream SHA, newest attempt first.
    Result<std::vector<CheckRun>> checkRunsForSha(const Sha& sha) const;

    // Every attempt of every run of one upstream PR on all its heads, the
    // newest head (by the commit's first activity) first; merge gating's facts.
    Result<std::vector<CheckRun>> checkRunsForPr(PrNumber prNumber) const;

    // One run by the row id a MatrixCell carries.
    Result<CheckRun> checkRun(CheckRunRow rowId) const;

    // All attempts of the run a cell shows (same SHA, backend, workflow, job).
    Result<std::vector<CheckRun>> attemptsOf(CheckRunRow rowId) const;

    // The newest commit older than `sha` of the same history: the PR's
    // previous head, or for a nightly the previous nightly. None for another
    // event, and never another PR's head: a compare between two PRs' heads
    // means nothing (PR heads are no linear history).
    Result<std::optional<UpstreamCommit>> previousCommit(const Sha& sha) const;

    // PR numbers whose commits have no title yet (for /api/crcr/pr-info).
    Result<std::vector<PrNumber>> prNumbersWithoutTitle(std::size_t limit) const;

    Result<void> applyPrInfo(const std::vector<PrInfo>& infos);

    // Nightly "SHAs" without a commit title, newest first (for commit-info).
    Result<std::vector<std::string>> nightlyShasWithoutTitle(std::size_t limit) const;

    // The levels the relay verified at dispatch (crcr_hud_results), by
    // check_run_id and attempt; runs not cached are ignored.
    Result<void> applyDispatchLevels(const std::vector<DispatchLevel>& levels);

    // The row of the check run GitHub knows by `id` (the HUD's check_run_id),
    // newest first if a bad feed repeated it; none for an unknown or empty id.
    Result<std::optional<CheckRunRow>> checkRunRowFor(const CheckRunId& id) const;

    // Conditional-request validators for HUD URLs (ETag), kept across runs.
    Result<std::optional<HttpValidator>> validator(const std::string& url) const;

    Result<std::vector<std::pair<std::string, HttpValidator>>> validators() const;

    Result<void> setValidator(const std::string& url, const HttpValidator& v);

private:
    Result<void> applyInTransaction(const SyncBatch& batch);

    sqlite3* m_db;
};

} // namespace relayhud
