#pragma once
// The HUD's own aggregates, read from saved queries RelayHUD caches verbatim:
// crcr_summary (every repo that reports, allowlisted or not), crcr_health_last_prs
// and crcr-test's nightly rows (the relay's probe repo), crcr_hud_results (the
// per-run trusted level). Facts from pytorch/test-infra @61a77570:
// torchci/clickhouse_queries/<query>/query.sql and torchci/pages/crcr/index.tsx.
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <nlohmann/json_fwd.hpp>

#include <optional>
#include <string>
#include <vector>

namespace relayhud {

// The relay's probe repository: it receives every dispatch; its jobs named
// *xfail*, *xcancel*, *xtimeout* are meant to fail, cancel and time out. The
// HUD shows it as relay health and leaves it out of backend tables
// (crcr_summary/query.sql:4-30; pages/crcr/index.tsx:100,728,737).
inline constexpr const char* kProbeRepo = "pytorch/crcr-test";
// The HUD judges health on the last 5 probe PRs and nightlies (index.tsx:500,683-690).
inline constexpr int kProbeHealthCount = 5;

bool isProbeRepo(const std::string& repo);
// A probe job's outcome as intended: success, or the failure/cancel/time-out
// its name asks for (index.tsx isExpectedNightlyOutcome; crcr_summary's countIf).
bool isExpectedProbeOutcome(const std::string& jobName, Conclusion conclusion);

// One row of crcr_summary {days}: completed PR rows of the window per repo.
struct RepoSummary {
    std::string repo;
    Level level = Level::Unknown; // anyLast(downstream_repo_level) as reported with its rows
    std::int64_t successes = 0;   // probe jobs' expected outcomes count as successes
    std::int64_t failures = 0;
    std::int64_t timedOut = 0;
    std::int64_t total = 0; // every attempt, cancelled included
    double passRate = 0.0;  // successes / total: the HUD's definition (R12)
    std::optional<double> avgDurationSeconds;
    std::optional<EpochSeconds> lastRun;
};
Result<std::vector<RepoSummary>> mapRepoSummaries(const nlohmann::json& rows);

// One row of crcr_nightly_summary {days}: completed nightly rows of the
// window per repo (test-infra torchci/clickhouse_queries/crcr_nightly_summary/
// query.sql L1-21 @61a77570). The HUD's own definitions: every row counted
// (FINAL, every attempt), cancelled in the total but not a failure, and
// successes are conclusion = 'success' only (no crcr-test adjustment here).
struct NightlySummary {
    std::string repo;
    Level level = Level::Unknown; // anyLast(downstream_repo_level)
    std::int64_t successes = 0;
    std::int64_t failures = 0;
    std::int64_t timedOut = 0;
    std::int64_t total = 0;
    double passRate = 0.0;                    // successes / total
    std::optional<double> avgDurationSeconds; // ~0 for callback-timed nightlies (R5)
    std::optional<EpochSeconds> lastRun;      // max(started_at)
    std::string latestSha;                    // argMax(pytorch_head_sha, started_at): free text
};
Result<std::vector<NightlySummary>> mapNightlySummaries(const nlohmann::json& rows);

// One row of crcr_success_rate {days, event_type}: one repo's completed rows
// of one day (crcr_success_rate/query.sql L1-42 @61a77570). Every row counted,
// cancelled in the total; crcr-test's *xfail*/*xcancel*/*xtimeout* outcomes
// count as successes (hud-read-api.md R12).
struct DailyRate {
    std::string day; // "2026-05-04" (toDate(started_at), UTC)
    std::string repo;
    std::int64_t successes = 0;
    std::int64_t failures = 0;
    std::int64_t timedOut = 0;
    std::int64_t total = 0;
    double passRate = 0.0;
};
Result<std::vector<DailyRate>> mapDailyRates(const nlohmann::json& rows);

// One row of crcr_health_last_prs {count}.
struct ProbePr {
    PrNumber prNumber;
    std::optional<EpochSeconds> lastRun;
    std::int64_t successes = 0;
    std::int64_t total = 0;
    double passRate = 0.0;
};
Result<std::vector<ProbePr>> mapProbePrs(const nlohmann::json& rows);

// One row of crcr_hud_results {prNums}: the level the relay verified when it
// dispatched the run (L3/L4 rows only).
Result<std::vector<DispatchLevel>> mapRunLevels(const nlohmann::json& rows);

enum class HealthState : std::uint8_t { NoData, Healthy, Degraded };
std::string_view toString(HealthState state);

// The HUD's two relay-health cards, judged as it judges them.
struct RelayHealth {
    HealthState prs = HealthState::NoData;
    int prsPassed = 0; // of prsJudged, PRs at 100% (expected outcomes counted as passes)
    int prsJudged = 0;
    HealthState nightlies = HealthState::NoData;
    int nightliesPassed = 0; // of nightliesJudged SHAs, every job completed as intended
    int nightliesJudged = 0;
    // Healthy when both are; Degraded when either is; NoData when neither has data.
    HealthState overall() const;
    std::string summary() const; // "healthy: 5/5 probe PRs and 5/5 nightlies as expected"
};
// prs: crcr_health_last_prs rows; nightlyRuns: crcr-test's crcr_nightly_dashboard
// rows. The newest kProbeHealthCount nightly SHAs by their latest start are judged.
RelayHealth judgeRelayHealth(const std::vector<ProbePr>& prs,
                             const std::vector<CheckRun>& nightlyRuns);

} // namespace relayhud
