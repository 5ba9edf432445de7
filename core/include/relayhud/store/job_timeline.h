#pragma once
// Every run of one job (downstream repository, workflow, job name) in the
// cache with the tests that failed in it: what attribution (triage/attribution.h)
// compares a failure against: the PR's own other heads, other PRs' runs of
// the same job at about the same time, and the nightlies.
#include "relayhud/model/tested_commit.h"
#include "relayhud/model/types.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace relayhud {

struct TimelineRun {
    CheckRunRow row; // check_run.id
    Sha sha;
    PrNumber prNumber; // none for nightlies and pushes
    EventType eventType = EventType::PullRequest;
    std::string author; // the PR's author (pr-info); "" when not known
    std::string title;  // the commit's title (a nightly's: its main commit's, commit-info)
    // The upstream commit the run really tested where its log or names say
    // (model/tested_commit.h): a merged PR's build of its base branch's HEAD;
    // "" when not known.
    std::string testedSha;
    // Where testedSha was read (meaningful when it is not empty).
    TestedCommitSource testedSource = TestedCommitSource::ActionsCheckout;
    EpochSeconds time = 0; // the upstream commit's time (when it was dispatched)
    int attempt = 1;
    Conclusion conclusion = Conclusion::None;
    EpochSeconds startedAt = 0; // 0: not reported
    bool hasResults = false;    // stored test results
    // Failed (not green) with artifacts to fetch whose results are not in yet
    // (never fetched, or the fetch failed or was refused and will be
    // retried): what a suggestion resting on this job's runs still waits
    // for. A green's conclusion already says no test failed (attribution
    // reads it so), and a sync fetches only failed runs' artifacts.
    bool awaitingResults = false;
    // Tests (test_case ids) whose outcome is failed or error, ascending.
    std::vector<TestId> failing;
    // A run without stored results: the tests its job log's failure line
    // names as failing (pytest's "FAILED file::Class::name"), ascending. What
    // else it ran is not known.
    std::vector<TestId> named;
};

struct JobTimeline {
    JobRow jobId;
    std::string downstreamRepo;
    std::string workflow;
    std::string jobName;
    std::string upstreamRepo = "pytorch/pytorch";
    // Oldest commit first; attempts of one SHA together, ascending.
    std::vector<TimelineRun> runs;
    // The tests the runs' failure lines name: identity -> test_case id, or a
    // negative id of this timeline's own for a test no stored result names.
    std::map<std::string, TestId> namedIds;
};

} // namespace relayhud
