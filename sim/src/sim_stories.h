#pragma once
// Chooses where the dataset's failure stories happen (regression, flaky job,
// infrastructure outage, cancelled run, zombie, hidden failures, incomplete
// green) and records them by index so the run generator can apply them.
#include "relayhud/sim/sim_dataset.h"
#include "sim_catalog.h"
#include "sim_causes.h"
#include "sim_test_catalog.h"

#include <cstddef>
#include <limits>
#include <set>
#include <vector>

namespace relayhud::sim {

struct StoryPlan {
    SimStories stories; // names and SHAs, for the dataset
    CausePlan causes;
    JobRef regression;                    // the first broken-trunk culprit's job
    std::size_t regressionCommit = kNone; // the culprit's first failing head
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
// Stories decide some PRs' fates (the culprits and fixes merge), so `pulls` changes.
StoryPlan planStories(const SimConfig& config, const std::vector<BackendSpec>& backends,
                      const std::vector<UpstreamCommit>& commits, TestCatalog& tests,
                      std::vector<SimPullRequest>& pulls);

// Shared by the story planners.
struct StoryWorld {
    const SimConfig& config;
    const std::vector<BackendSpec>& backends;
    const std::vector<UpstreamCommit>& commits;
    TestCatalog& tests;
    std::vector<SimPullRequest>& pulls;
};

// Indices of backends that report results, minus the excluded ones.
std::vector<std::size_t> reportingBackends(const std::vector<BackendSpec>& backends,
                                           std::initializer_list<std::size_t> excluded = {});
// The test jobs of a backend's first workflow.
std::vector<JobRef> testJobsOf(const std::vector<BackendSpec>& backends, std::size_t backend);
const JobSpec& jobSpecOf(const std::vector<BackendSpec>& backends, const JobRef& ref);
// Fills the story's backend, workflow and job names.
void nameJob(const std::vector<BackendSpec>& backends, const JobRef& ref, std::string& backend,
             std::string& workflow, std::string& job);

// The broken-trunk culprits (run first: the other stories keep off their jobs).
void planBrokenTrunk(const StoryWorld& world, StoryPlan& plan);
// PR breaks, the new test, the backend break, the device-busy hour, flaky
// tests and strict XPASSes, each on a stream of its own.
void planCauseStories(const StoryWorld& world, StoryPlan& plan);

} // namespace relayhud::sim
