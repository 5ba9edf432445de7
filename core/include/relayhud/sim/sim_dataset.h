#pragma once
// The simulator's world: a deterministic dataset built from a seed, shaped
// exactly like the HUD's crcr_workflow_job table. Tests read the ground truth
// (which commit starts the regression, which job is flaky, ...) from here.
#include "relayhud/model/types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace relayhud::sim {

struct SimConfig {
    std::uint64_t seed = 1;
    int commits = 200;    // upstream SHAs (PR heads, ciflow pushes, nightlies)
    int jobsScale = 1;    // multiplies jobs per backend (benchmarks)
    EpochSeconds now = 0; // anchor; 0 = current time rounded down to the hour
};

// One row of default.crcr_workflow_job, as the HUD stores it. Rows are
// "as of" SimConfig::now: a job still running at that instant is
// in_progress (no conclusion, no completed_at), one not started yet is absent.
struct SimRow {
    CheckRun run;
    std::string deliveryId;
    std::string eventTypeText;   // "pull_request", "push", "nightly", "periodic"
    std::string failedTestsJson; // "" or a JSON array of pytest node ids
    std::string environmentJson; // {"sdk": ..., "device": ...}
};

// Named stories, so tests and the demo can find them.
struct SimStories {
    std::string regressionBackend;
    std::string regressionWorkflow;
    std::string regressionJob;
    Sha regressionFirstBadSha;                // first commit where the job fails, and stays failing
    std::vector<std::string> regressionTests; // the tests that fail from then on
    std::string flakyBackend;
    std::string flakyWorkflow;
    std::string flakyJob;
    std::string flakyTest;       // fails now and then on attempt 1, passes on rerun
    std::vector<Sha> outageShas; // infra outage hitting several backends at once
    std::vector<std::string> outageBackends;
    Sha cancelledSha;
    std::string cancelledBackend;
    Sha zombieSha; // in_progress for > 6 h
    std::string zombieBackend;
    std::string zombieJob;
    // A self-reported green that does not hold: on these commits the job's
    // HUD row says success with 0 failed tests, while the JUnit in its
    // artifact fails hiddenFailureTests (its test step ignores pytest's exit
    // code), so the row's counts and the artifact's disagree.
    std::string hiddenFailureBackend;
    std::string hiddenFailureWorkflow;
    std::string hiddenFailureJob;
    std::vector<Sha> hiddenFailureShas;
    std::vector<std::string> hiddenFailureTests;
    // A green that did not run everything its config demands: on these
    // commits a test file is silently not collected by the job (its JUnit
    // lacks it, and the row's counts agree with that JUnit), so the
    // mandatory_success entries of that file in the backend's outcome config
    // (sim_configs.h) did not run.
    std::string incompleteGreenBackend;
    std::string incompleteGreenWorkflow;
    std::string incompleteGreenJob;
    std::vector<Sha> incompleteGreenShas;
    std::string incompleteGreenFile; // as the report names it: "test_view_ops.py"
    std::vector<std::string> incompleteGreenMissingTests; // config names (base names or patterns)
};

struct SimDataset {
    SimConfig config;
    std::vector<Backend> backends; // allowlist (L1 included; L1 never has rows)
    std::vector<UpstreamCommit> commits;
    std::vector<SimRow> rows;
    SimStories stories;
};

// Deterministic in (seed, now, commits, jobsScale). Rows are ordered by
// started_at, then repo, workflow, job and attempt.
SimDataset buildDataset(const SimConfig& config);

} // namespace relayhud::sim
