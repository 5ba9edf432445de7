#pragma once
// What a job's log says its checkouts checked out (logs/checkout_scan.h),
// and the commit a run really tested (model/tested_commit.h), with the
// greens whose logs a sync pass samples. Tables: log_checkout, tested_commit.
#include "relayhud/model/log_checkout.h"
#include "relayhud/model/tested_commit.h"
#include "relayhud/store/health_runs.h"
#include "relayhud/store/job_failure_line.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

class CheckoutStore {
public:
    explicit CheckoutStore(const Database& db);

    // Replaces what the job log of one check run says its checkouts checked
    // out (logs/checkout_scan.h); an empty list records a log that shows none.
    Result<void> putLogCheckouts(CheckRunRow checkRunRow, const std::vector<LogCheckout>& checkouts,
                                 EpochSeconds scannedAt);

    // A log that could not be read (refused, cut before any checkout, a
    // server error): checkoutSampleQueue asks for it again after its retry
    // time; one that is gone (`gone`: expired or empty) never again.
    Result<void> putLogUnread(CheckRunRow checkRunRow, EpochSeconds triedAt, bool gone = false);

    // nullopt when the run's log was never read.
    Result<std::optional<std::vector<LogCheckout>>> logCheckouts(CheckRunRow checkRunRow) const;

    // Successful pull-request and push runs with a check_run_id whose log
    // was never read (or not since retryUnreadBefore), newest commit first,
    // at most perBackend of each backend: the greens whose tested SHA a sync
    // pass checks.
    Result<std::vector<JobLineCandidate>>
    checkoutSampleQueue(const CheckoutSampleQuery& query) const;

    // --- The commit a run really tested (model/tested_commit.h) ---
    // Records it for one check run, unless the run already has one from
    // stronger evidence (a lower TestedCommitSource: its log's checkout
    // beats a job name, which beats an artifact name). putLogCheckouts
    // records the one its checkouts show.
    Result<void> putTestedCommit(CheckRunRow checkRunRow, const TestedCommit& tested);

    Result<std::optional<TestedCommit>> testedCommit(CheckRunRow checkRunRow) const;

    // The same for many rows (the matrix's tooltips); rows without one are
    // absent.
    Result<std::unordered_map<CheckRunRow, TestedCommit, IdHash>>
    testedCommits(const std::vector<CheckRunRow>& checkRunRows) const;

    // The newest earlier run of the same job (by its upstream commit's time)
    // that tested another commit of the same branch: a merged PR's build is
    // compared with main's previous tested commit, never with other PRs'
    // heads. None when the run has no tested commit.
    Result<std::optional<TestedCommit>> previousTestedCommit(CheckRunRow checkRunRow) const;

private:
    // In putLogCheckouts' transaction: the tested commit its checkouts show.
    Result<void> putTestedFromCheckouts(CheckRunRow checkRunRow,
                                        const std::vector<LogCheckout>& checkouts);

    sqlite3* m_db;
};

} // namespace relayhud
