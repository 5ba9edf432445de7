#pragma once
// Chooses where the dataset's failure stories happen (regression, flaky job,
// infrastructure outage, cancelled run, zombie, hidden failures, incomplete
// green) and records them by index so the run generator can apply them.
#include "relayhud/sim/sim_dataset.h"
#include "sim_catalog.h"
#include "sim_test_catalog.h"

#include <cstddef>
#include <limits>
#include <set>
#include <vector>

namespace relayhud::sim {

inline constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

// A job in the catalog: backend index, workflow index, job index.
struct JobRef {
    std::size_t backend = kNone;
    std::size_t workflow = 0;
    std::size_t job = 0;
    bool is(std::size_t b, std::size_t w, std::size_t j) const
    {
        return backend == b && workflow == w && job == j;
    }
};

struct StoryPlan {
    SimStories stories; // names and SHAs, for the dataset
    JobRef regression;
    std::size_t regressionCommit = kNone;
    EpochSeconds regressionStart = std::numeric_limits<EpochSeconds>::max();
    JobRef flaky;
    std::set<std::size_t> outageCommits;
    std::set<std::size_t> outageBackends;
    std::size_t cancelledCommit = kNone;
    std::size_t cancelledBackend = kNone;
    std::size_t zombieCommit = kNone;
    JobRef zombie;
    JobRef hidden; // the green whose artifacts fail tests
    std::set<std::size_t> hiddenCommits;
    JobRef incomplete; // the green whose JUnit lacks a test file
    std::set<std::size_t> incompleteCommits;

    bool dropsFile(std::size_t backend, std::size_t workflow, std::size_t job,
                   std::size_t commit) const
    {
        return incomplete.is(backend, workflow, job) && incompleteCommits.count(commit) != 0;
    }

    bool inOutage(std::size_t backend, std::size_t commit) const
    {
        return outageCommits.count(commit) != 0 && outageBackends.count(backend) != 0;
    }
    // Stories that need the backend to run on the commit whatever its coverage.
    bool forcesRun(std::size_t backend, std::size_t commit) const;
};

// Story tests are drawn from `tests`, the universes the run generator uses.
StoryPlan planStories(const SimConfig& config, const std::vector<BackendSpec>& backends,
                      const std::vector<UpstreamCommit>& commits, TestCatalog& tests);

} // namespace relayhud::sim
