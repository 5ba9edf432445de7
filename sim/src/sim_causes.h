#pragma once
// Failures with known causes: which tests of which job fail on which commit
// and why (this PR, broken trunk, the backend, flaky, infra, strict XPASS).
// Planned once per dataset (sim_cause_stories.cpp), asked per job attempt by
// the run generator; every failing test has exactly one cause.
#include "relayhud/sim/sim_dataset.h"
#include "sim_catalog.h"
#include "sim_test_catalog.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
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
    bool operator==(const JobRef&) const = default;
};

struct CausedTest {
    std::string test; // the node id, as the JUnit names it
    SimCause cause = SimCause::Infra;
    PrNumber culpritPr;
    bool xpassStrict = false; // an xfailed test that passed (strict)
};

// Tests a PR breaks on its heads (commit indices).
struct PrBreakPlan {
    PrNumber pr;
    JobRef job;
    std::vector<std::string> tests;
    std::set<std::size_t> commits;
};

// A test failing on every run of a job dispatched in [from, until).
struct WindowPlan {
    JobRef job;
    std::string test;
    EpochSeconds from = 0;
    EpochSeconds until = 0;
    SimCause cause = SimCause::Backend;
    PrNumber culpritPr;
    bool mainOnly = false; // broken trunk: main-based PR heads and nightlies only
    PrNumber exempt;       // the fix PR: its heads carry the fix
};

struct FlakyTestPlan {
    JobRef job;
    std::string test;
    double probability = 0.0;
};

struct XpassPlan {
    JobRef job;
    std::string test;
    EpochSeconds from = 0;
    EpochSeconds until = 0;
};

struct DeviceBusyPlan {
    std::size_t backend = kNone;
    EpochSeconds from = 0;
    EpochSeconds until = 0;
    std::set<std::size_t> commits; // the backend runs on these whatever its coverage
    std::map<std::pair<std::size_t, std::size_t>, std::vector<std::string>>
        pools; // (workflow, job)
};

// A test a PR adds upstream: a case of the job's universe no other run has.
struct NewTestPlan {
    JobRef job;
    std::uint64_t index = 0; // in the job's test universe
    std::string test;
    PrNumber pr;
    std::set<std::size_t> commits;
};

// What a run is: the commit it tests and how it relates to main.
struct RunEvent {
    std::size_t commit = 0;
    EpochSeconds dispatch = 0;
    EventType type = EventType::PullRequest;
    PrNumber pr;
    bool mainBased = true;
    // False for a PR's run on a backend that checks out pytorch's default
    // branch instead of the PR head (BackendSpec::checksOutDefaultBranch: an
    // actions/checkout of pytorch/pytorch without `ref:`, which for another
    // repository than the triggering one "uses the default branch",
    // actions/checkout action.yml, input `ref`):
    // it tests main at its start, so none of the PR's own changes can fail
    // it, and main's breakages do, the culprit PR's run's included.
    bool testsOwnHead = true;
};

struct CausePlan {
    std::vector<JobRef> culpritJobs; // broken-trunk jobs: no other story touches them
    std::vector<PrBreakPlan> prBreaks;
    std::vector<WindowPlan> windows;
    std::vector<FlakyTestPlan> flaky;
    std::vector<XpassPlan> xpasses;
    DeviceBusyPlan busy;
    NewTestPlan newTest;
    std::vector<bool> mainBased; // per commit

    bool isCulpritJob(std::size_t b, std::size_t w, std::size_t j) const;
    bool hasNewTest(std::size_t b, std::size_t w, std::size_t j, std::size_t commit) const
    {
        return newTest.job.is(b, w, j) && newTest.commits.count(commit) != 0;
    }
    // The failures that hold on every attempt: PR breaks, broken trunk,
    // backend breaks, strict XPASSes, a new test failing.
    void standing(const RunEvent& event, const JobRef& job, std::vector<CausedTest>& out) const;
    // Failures drawn per attempt: flaky tests, the device-busy hour.
    void drawn(const JobRef& job, EpochSeconds attemptStart, SplitMix64& rng,
               std::vector<CausedTest>& out) const;
};

// Adds `t` unless its test already fails (the first cause wins).
void addFailure(std::vector<CausedTest>& out, CausedTest t);

// The universe index of the case a PR adds to `job`: one of the job's shard,
// past every case a run of the history (commitCount commits) reaches, that
// fails the ordinary way. The planner and the artifact writer agree on it.
std::optional<std::uint64_t> newTestCase(const TestUniverse& universe, const JobSpec& job,
                                         std::size_t commitCount);

} // namespace relayhud::sim
