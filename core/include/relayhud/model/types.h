#pragma once
// The domain model: backends, upstream commits and the check runs that the
// relay reports. Trusted (relay-measured) and self-reported (downstream CI's
// own claim) fields are kept in separate structs so that no view can mix them
// up by accident.
#include "relayhud/model/ids.h"
#include "relayhud/util/time.h" // EpochSeconds

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

// Strong types where mixing is a bug.
struct Sha {
    std::string value;
    // 7 characters of a hex SHA; other text whole (a nightly's "SHA" is the
    // downstream's free-text delivery-id, e.g. "nightly-2026-12-01": R6).
    std::string shortSha() const
    {
        const bool hex = value.find_first_not_of("0123456789abcdef") == std::string::npos;
        return hex ? value.substr(0, 7) : value;
    }
    bool empty() const { return value.empty(); }
    auto operator<=>(const Sha&) const = default;
};

struct CheckRunId {
    std::string value;
    auto operator<=>(const CheckRunId&) const = default;
};

enum class Level : std::uint8_t { Unknown, L1, L2, L3, L4 };
enum class EventType : std::uint8_t { PullRequest, Push, Nightly, Periodic };
enum class RunStatus : std::uint8_t { Unknown, Queued, InProgress, Completed };
enum class Conclusion : std::uint8_t {
    None,
    Success,
    Failure,
    Cancelled,
    TimedOut,
    Skipped,
    Neutral
};

std::string_view toString(Level level);
std::string_view toString(EventType type);
std::string_view toString(RunStatus status);
std::string_view toString(Conclusion conclusion);
// Lenient parsers: unknown text maps to the Unknown/None member.
Level levelFromString(std::string_view text);
std::optional<EventType> eventTypeFromString(std::string_view text);
RunStatus runStatusFromString(std::string_view text);
Conclusion conclusionFromString(std::string_view text);

// In-progress rows older than this are "zombies": the relay's sweeper should
// have finalised them as timed_out.
inline constexpr EpochSeconds kStaleAfterSeconds = 6 * 3600;

// A run's wall time from its two callbacks, or nullopt when none is reported:
// a nightly or periodic run sends its completed callback only, so started_at
// == completed_at (test-infra .github/actions/cross-repo-ci-relay-callback/
// report_callback.py:102-105; hud-read-api.md R5). Never 0 s for "unknown".
std::optional<double> callbackDuration(std::optional<EpochSeconds> startedAt,
                                       std::optional<EpochSeconds> completedAt);

// Which of two runs of one (SHA, job) every view shows: the higher attempt;
// at the same attempt (a PR's closed/reopened re-dispatch, matrix legs that
// share a job name) the later start, then the later stored row. The HUD keeps
// the newest too: its rows arrive started_at DESC and the first one wins
// (test-infra pages/crcr/[org]/[repo].tsx:630-634; hud-read-api.md R8). The
// store's SQL spells the same rule in store/run_order.h.
struct RunRank {
    int attempt = 1;
    std::optional<EpochSeconds> startedAt;
    CheckRunRow rowId;
};
bool isNewerRun(const RunRank& a, const RunRank& b);

struct Backend {
    std::string repo; // "org/repo"
    Level level = Level::Unknown;
    std::vector<std::string> oncalls;
    // At L2+ in the allowlist now. false: the repo reports rows but the
    // allowlist does not (or no longer) list it at L2+; found through the
    // HUD's crcr_summary, as the HUD's /crcr page finds it (hud-read-api.md R3).
    bool allowlisted = true;
    bool operator==(const Backend&) const = default;
};

// The level the relay verified when it dispatched a run (crcr_hud_results).
struct DispatchLevel {
    CheckRunId checkRunId;
    int runAttempt = 1;
    Level level = Level::Unknown;
};

struct UpstreamCommit {
    Sha sha;
    PrNumber prNumber;  // none for pushes without a PR and for nightlies
    std::string branch; // base branch or ref where known
    EventType eventType = EventType::PullRequest;
    EpochSeconds time = 0; // earliest known activity for this SHA
    std::string title;
    std::string author;
    bool operator==(const UpstreamCommit&) const = default;
};

// Title and author of an upstream PR (HUD /api/crcr/pr-info).
struct PrInfo {
    PrNumber prNumber;
    std::string title;
    std::string author;
    bool operator==(const PrInfo&) const = default;
};

struct TestCounts {
    std::int64_t total = 0;
    std::int64_t passed = 0;
    std::int64_t failed = 0;
    std::int64_t skipped = 0;
    bool operator==(const TestCounts&) const = default;
};

// What the downstream repository says about itself (HUD's "untrusted" part).
struct SelfReported {
    RunStatus status = RunStatus::Unknown;
    Conclusion conclusion = Conclusion::None;
    std::string conclusionText; // as sent, when no Conclusion member names it (R17)
    std::optional<EpochSeconds> startedAt;
    std::optional<EpochSeconds> completedAt;
    std::optional<TestCounts> tests;
    std::string runUrl;
    std::string artifactUrl;
    bool operator==(const SelfReported&) const = default;
};

// What the relay measured or verified itself.
struct Trusted {
    Level level = Level::Unknown;
    // true: `level` is the one the relay verified when it dispatched this run
    // (only crcr_hud_results returns it, for L3/L4 runs); false: it is the
    // backend's allowlist level now (hud-read-api.md R7).
    bool levelAtDispatch = false;
    std::optional<double> queueTimeSeconds;
    std::optional<double> executionTimeSeconds;
    bool operator==(const Trusted&) const = default;
};

struct CheckRun {
    std::string downstreamRepo; // verified by the relay
    Sha upstreamSha;
    PrNumber prNumber;
    EventType eventType = EventType::PullRequest;
    std::string upstreamRepo = "pytorch/pytorch";
    std::string workflow;
    std::string jobName;
    CheckRunId checkRunId;
    std::string runId;
    int runAttempt = 1;
    SelfReported reported;
    Trusted trusted;
    bool operator==(const CheckRun&) const = default;

    // Stale: still in_progress long after it started.
    bool isStale(EpochSeconds now) const;
};

} // namespace relayhud
