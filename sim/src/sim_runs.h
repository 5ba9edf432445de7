#pragma once
// Turns (commit, backend) pairs into crcr_workflow_job rows: when each job
// started and ended, how it concluded (stories included), reruns, and what the
// HUD shows of it at SimConfig::now.
#include "relayhud/sim/sim_dataset.h"
#include "sim_catalog.h"
#include "sim_stories.h"
#include "sim_test_catalog.h"

#include <cstddef>
#include <vector>

namespace relayhud::sim {

// A row before GitHub ids are handed out (ids grow with time across all
// backends, so they are assigned once every row is known).
struct PendingRow {
    SimRow row;
    std::size_t backend = 0; // with commit and workflow: the workflow run
    std::size_t commit = 0;
    std::size_t workflow = 0;
    int dispatch = 0; // 0: the head's own dispatch; 1, 2: its PR closed, reopened
    bool uploadsArtifacts = false;
    std::vector<SimTruthLine> truth; // check run ids are filled in with the row's
};

// Failing tests and test counts come from `tests`, so that a row's counts
// agree with the JUnit the artifact generator writes for it.
// `pulls` says which PRs merged when: torch-spyre-shaped backends build
// only merged PRs, at main's HEAD.
std::vector<PendingRow> generateRuns(const SimConfig& config,
                                     const std::vector<BackendSpec>& backends,
                                     const std::vector<UpstreamCommit>& commits,
                                     const std::vector<SimPullRequest>& pulls,
                                     const StoryPlan& plan, TestCatalog& tests);

} // namespace relayhud::sim
