#pragma once
// What the trend charts read from the cache (verdict/trends.h): the newest
// attempt of every job on every upstream SHA in a window, with the relay's
// timings, the self-reported counts and the counts its stored artifacts gave.
// One scan, so a chart over weeks of runs costs a single query.
#include "relayhud/model/types.h"

#include <cstdint>
#include <optional>
#include <string>

namespace relayhud {

struct TrendRunQuery {
    EpochSeconds since = 0; // upstream commits at or after this time; 0: any
    EpochSeconds until = 0; // and before this one; 0: no bound
    std::string repo;       // one downstream repository; "" for all
};

struct TrendRun {
    CheckRunRow checkRunRow;
    std::string repo; // downstream backend
    std::string workflow;
    std::string job;
    Sha sha;
    EpochSeconds commitTime = 0;
    int attempt = 1;
    RunStatus status = RunStatus::Unknown;
    Conclusion conclusion = Conclusion::None;
    std::optional<EpochSeconds> startedAt; // self-reported
    std::optional<EpochSeconds> completedAt;
    std::optional<double> queueSeconds; // relay-measured (trusted)
    std::optional<double> executionSeconds;
    std::optional<TestCounts> reportedTests; // the downstream's own claim
    // Tests that ran (every outcome but skipped) in the stored artifacts;
    // none when the run has no stored results.
    std::optional<std::int64_t> storedExecuted;
};

} // namespace relayhud
