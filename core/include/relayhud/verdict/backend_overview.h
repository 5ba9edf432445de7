#pragma once
// The backends overview (issue 17): per backend, what the HUD's /crcr summary
// card says and more, computed from the cache's runs of a window.
//
// Two pass rates, side by side and labelled: the HUD's (crcr_summary: success
// over every completed PR row of the window, cancelled included, each attempt
// counted; hud-read-api.md R12), as the HUD answered it at the last sync; and
// ours (success over finished runs with a verdict, the newest attempt of each
// job on each upstream SHA; verdict/trends.h). Queue and execution times are
// the relay's own measurements (trusted), of first attempts only: a retry's
// "queue time" runs from the first dispatch (R9), so runs that were retried
// are left out. Duration is the backend's own claim (started .. completed),
// "not reported" when the callbacks carry no start.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/model/types.h"
#include "relayhud/store/trend_runs.h"

#include <optional>
#include <string>
#include <vector>

namespace relayhud::verdict {

struct BackendOverview {
    std::string repo;
    Level level = Level::Unknown;
    bool allowlisted = true;
    std::vector<std::string> oncalls;
    int runs = 0;      // newest attempt of each job on each upstream SHA in the window
    int completed = 0; // finished with a verdict: success, failure, cancelled, timed out
    int succeeded = 0;
    int failed = 0; // failure or timed out
    int timedOut = 0;
    int running = 0;
    std::optional<double> passRate;    // ours: succeeded / completed
    std::optional<double> hudPassRate; // the HUD's crcr_summary, when it answered
    std::optional<std::int64_t> hudRuns;
    std::optional<double> avgDurationSeconds;  // self-reported
    std::optional<double> avgQueueSeconds;     // relay-measured, first attempts
    std::optional<double> avgExecutionSeconds; // relay-measured, first attempts
    int timedFirstAttempts = 0;                // runs behind the two averages
    std::optional<EpochSeconds> lastRun;
    double timeoutRate() const { return completed == 0 ? 0.0 : double(timedOut) / completed; }
};

// One entry per backend (every cached backend, runs or not), worst first:
// lowest pass rate, then most failures; backends without finished runs last.
std::vector<BackendOverview> backendOverviews(const std::vector<Backend>& backends,
                                              const std::vector<TrendRun>& runs,
                                              const std::vector<RepoSummary>& hud);

} // namespace relayhud::verdict
