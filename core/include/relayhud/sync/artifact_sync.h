#pragma once
// Fetches the test results of finished runs into the cache: the cache's
// artifact queue, bounded parallel downloads (ArtifactFetcher), parsing off
// the writer thread, and one transaction per run. Each run is fetched once:
// a stored, expired or empty result is final; a Failed or refused
// (Unauthorized) one is asked again after retryAfterSeconds, so setting a
// token later needs no action. Cancellable; progress per run.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/model/test_results.h"
#include "relayhud/util/result.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace relayhud {

class Database;

enum class ArtifactPolicy : std::uint8_t {
    FailedRuns, // in the background: runs that did not succeed (the triage case)
    AllRuns,    // in the background: every finished run with artifacts
    OnDemand,   // only when a run is opened (fetchRun)
};

struct ArtifactSyncOptions {
    ArtifactPolicy policy = ArtifactPolicy::FailedRuns;
    int maxParallel = 4;
    // Runs a pass fetches, each of the two queues (artifacts, job logs):
    // 0, every run it needs. A pass reads its queue a page at a time, so
    // thousands of runs never sit in memory at once; what a cap or a cancel
    // leaves is counted in the report (runsLeft, jobLogsLeft).
    std::int64_t maxRuns = 0;
    std::int64_t pageRuns = 200;
    int days = 14; // runs on commits at most this old
    std::int64_t retryAfterSeconds = 15 * 60;
    // Job failure lines (triage/suggest.h): after the artifacts, the GitHub
    // job logs of failed, cancelled and timed-out runs with a check_run_id
    // are fetched (into the fetcher's ContentCache) and classified with the
    // default rules followed by ruleFiles; the result goes to
    // job_failure_line. At most maxRuns logs a pass (0: all); a failed fetch
    // is asked again after retryAfterSeconds, an expired log never.
    bool jobLines = true;
    std::vector<std::string> ruleFiles;
    // The tested-SHA evidence (doctor/runtime_health.h): the checkouts in
    // the failed runs' logs above are kept, and with jobLines on, the logs of
    // the newest checkoutSample successful runs of each backend whose log
    // was never read are fetched for theirs. 0: no greens' logs.
    int checkoutSample = 5;
};

struct ArtifactSyncProgress {
    int done = 0;
    int total = 0;
    std::string current; // "torch-spyre/torch-spyre run 14800012345"
};

struct ArtifactSyncReport {
    int runs = 0;   // attempted
    int stored = 0; // test runs with results
    int expired = 0;
    int unauthorized = 0;
    int empty = 0; // no reports in the artifacts
    int failed = 0;
    std::int64_t runsLeft = 0; // in the queue when the pass stopped (maxRuns, cancel)
    std::int64_t cases = 0;
    std::vector<std::string> errors; // one line per distinct problem, not per run
    // Job failure lines, counted apart from the artifacts above.
    int jobLogs = 0;        // logs asked for
    int jobLinesPicked = 0; // a rule matched
    int jobLinesNoMatch = 0;
    int jobLogsMissing = 0;                 // expired or empty: final
    int jobLogsFailed = 0;                  // asked again after retryAfterSeconds
    std::int64_t jobLogsLeft = 0;           // failed jobs' logs not read: maxRuns, cancel
    std::vector<std::string> jobLineErrors; // as `errors`, for job logs and rule files
    int checkoutLogs = 0;                   // greens' logs asked for their checkouts
    int checkoutLogsUnread = 0;             // of them, gone, refused or cut: asked again later
};

class ArtifactSync {
public:
    ArtifactSync(Database& cache, ArtifactFetcher& fetcher, ArtifactSettings settings);

    using ProgressFn = std::function<void(const ArtifactSyncProgress&)>;

    // One background pass over the queue. Does nothing for OnDemand.
    Result<ArtifactSyncReport> run(const ArtifactSyncOptions& options,
                                   const ProgressFn& progress = {},
                                   const std::atomic<bool>* cancel = nullptr);

    // Fetches one run now (the user opened it), even under OnDemand, unless
    // it already has a final test run. Returns the test run.
    Result<TestRunInfo> fetchRun(CheckRunRow checkRunRow,
                                 const std::atomic<bool>* cancel = nullptr);

private:
    Database& m_cache;
    ArtifactFetcher& m_fetcher;
    ArtifactSettings m_settings;
};

} // namespace relayhud
