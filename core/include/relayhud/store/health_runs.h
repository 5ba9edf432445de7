#pragma once
// What the integration doctor's runtime health reads from the cache
// (doctor/runtime_health.h): every attempt of every check run of one backend
// whose callback came in a window, with what the relay measured and what the
// downstream reported. One scan of the backend's rows.
#include "relayhud/model/log_checkout.h"
#include "relayhud/model/types.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {

struct HealthRunQuery {
    std::string repo;       // the downstream repository
    EpochSeconds since = 0; // runs started (or, never started, committed) at or after this
};

struct HealthRun {
    CheckRunRow checkRunRow;
    std::string workflow;
    std::string job;
    Sha sha;
    PrNumber prNumber;
    EventType eventType = EventType::PullRequest;
    std::string runId;
    int attempt = 1;
    std::string checkRunId;
    RunStatus status = RunStatus::Unknown;
    Conclusion conclusion = Conclusion::None;
    std::optional<EpochSeconds> startedAt; // the callbacks' wall clock
    std::optional<EpochSeconds> completedAt;
    std::optional<double> queueSeconds; // relay-measured
    std::optional<double> executionSeconds;
    bool reportsTests = false; // test-results had counts
    bool hasArtifactUrl = false;
    std::string upstreamRepo; // where sha lives: "pytorch/pytorch"
    // What its job log says it checked out (Database::putLogCheckouts); nullopt
    // when the log was never read.
    std::optional<std::vector<LogCheckout>> checkouts;
};

// Greens whose job log the tested-SHA check reads (Database::checkoutSampleQueue).
struct CheckoutSampleQuery {
    EpochSeconds since = 0;             // commits at or after this time
    int perBackend = 5;                 // the newest this many of each backend
    EpochSeconds retryUnreadBefore = 0; // unread logs tried before this are asked again
};

} // namespace relayhud
