#pragma once
// The simulator's world: a deterministic dataset built from a seed, shaped
// exactly like the HUD's crcr_workflow_job table. Tests read the ground truth
// (which commit starts the regression, which job is flaky, ...) from here.
#include "relayhud/model/types.h"

#include <cstdint>
#include <string>
#include <string_view>
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
//
// `run` holds what the HUD stored (crcrUtils.ts extractDynamoRecord,
// pytorch/test-infra torchci/lib/crcr/crcrUtils.ts @61a77570): a push's
// pr_number is 0 and its pytorch_head_sha is the delivery GUID; a nightly's
// is the downstream's free-text delivery-id. `testedSha` is the upstream
// commit the downstream really checked out (the simulator's own knowledge,
// used for its artifacts and logs; no query serves it).
// Where a torch-spyre-shaped run's reports are (real-backends.md 3.2, 3.3, 7).
enum class SimEvidenceShape : std::uint8_t {
    None,       // the backend's own store (artifact_url), or nothing
    InRun,      // variant A and nightlies: per-suite XML and the merged reports in the run
    Dispatched, // variant B: per-suite XML in a workflow_dispatch child run; the merged
                // reports in the run after the completed callback; the callback says the
                // child's conclusion (validate mode: success while tests failed)
};

struct SimEvidence {
    SimEvidenceShape shape = SimEvidenceShape::None;
    int suites = 0;                   // per-suite XML artifacts, `<config stem>.xml`
    EpochSeconds wheelsAt = 0;        // the build job's wheel uploads
    EpochSeconds suitesAt = 0;        // the matrix legs' uploads
    EpochSeconds mergedReportsAt = 0; // upstream-beta-reports-<sha>; 0: never uploaded
    std::int64_t junitTotal = 0;      // the cases its JUnit holds (variant B reports no counts)
};

struct SimRow {
    CheckRun run;
    Sha testedSha;
    std::string specJob; // the job's unique name in its workflow (run.jobName may be shared)
    std::string deliveryId;
    std::string eventTypeText;   // "pull_request", "push", "nightly", "periodic"
    std::string failedTestsJson; // the simulator's record of the failing pytest node ids ("" or a
                                 // JSON array); never served: the HUD never writes the column
    std::string environmentJson; // {"sdk": ..., "device": ...}; never written by the HUD either
    // Sub-second parts of started_at / completed_at (microseconds, as the
    // callback's datetime.now().isoformat() sends them).
    int startedMicros = 0;
    int completedMicros = 0;
    SimEvidence evidence; // torch-spyre-shaped rows only
};

// A pull request of pytorch/pytorch as GitHub's `pulls/{n}` shows it.
struct SimPullHead {
    Sha sha;
    EpochSeconds time = 0; // when the head was pushed (its CI dispatched)
};

struct SimPullRequest {
    PrNumber number;
    std::string author;
    std::string title;
    std::string baseRef = "main";
    Sha baseSha;                    // main when the PR was opened
    std::string headRef;            // the branch on the author's fork
    std::vector<SimPullHead> heads; // synchronize pushes, oldest first (ciflow pushes excluded)
    EpochSeconds createdAt = 0;
    EpochSeconds mergedAt = 0; // 0 = not merged
    EpochSeconds closedAt = 0; // 0 = open; mergedAt when merged
    Sha mergeCommitSha;        // empty unless merged

    bool merged() const { return mergedAt != 0; }
};

// Why a test (or a job) failed, as the simulator decided it.
enum class SimCause : std::uint8_t { ThisPr, BrokenTrunk, Backend, Flaky, Infra, UnexpectedPass };

// "this_pr", "broken_trunk", "backend", "flaky", "infra", "unexpected_pass".
std::string_view simCauseName(SimCause cause);

// One line of the ground truth: a failing test of a served row, or the row's
// job when it failed with no failing test the HUD user can see.
struct SimTruthLine {
    CheckRunId checkRunId;
    std::string test; // the JUnit reader's identity "file::Class::name"; "" = the job
    SimCause cause = SimCause::Infra;
    PrNumber culpritPr; // none (null)
};

// A merged PR that broke test T of job J on main: its own heads fail T (it is
// this PR's), then every main-based PR head and nightly dispatched between its
// merge and the fix fails T (broken trunk).
struct SimBrokenTrunk {
    PrNumber culpritPr;
    EpochSeconds mergedAt = 0;
    EpochSeconds fixedAt = 0; // a fix PR merges then; past `now` = not fixed yet
    PrNumber fixPr;           // none: no PR of the dataset carries the fix
    std::string backend;
    std::string workflow;
    std::string job;
    std::string test;
};

// A PR that breaks tests of its own: the heads listed fail them.
struct SimPrBreak {
    PrNumber pr;
    std::string backend;
    std::string workflow;
    std::string job;
    std::vector<std::string> tests;
    std::vector<Sha> failingShas; // its heads that fail them (a later head may fix them)
    bool newTest = false;         // the PR adds the test: only its runs have it
};

struct SimFlakyTest {
    std::string backend;
    std::string workflow;
    std::string job;
    std::string test;
    double probability = 0.0; // per run, independently
};

// An xfail(strict=True) test that passes in [from, until): upstream fixed it,
// and the backend drops the mark at `until`.
struct SimStrictXpass {
    std::string backend;
    std::string workflow;
    std::string job;
    std::string test;
    EpochSeconds from = 0;
    EpochSeconds until = 0;
};

// Named stories, so tests and the demo can find them.
struct SimStories {
    // The first broken-trunk culprit (brokenTrunk.front()): its job, its test,
    // and its first head that fails the test.
    std::string regressionBackend;
    std::string regressionWorkflow;
    std::string regressionJob;
    Sha regressionFirstBadSha;
    std::vector<std::string> regressionTests;
    PrNumber culpritPr;
    std::vector<SimBrokenTrunk> brokenTrunk; // one or two per world
    std::vector<SimPrBreak> prBreaks;        // the culprits' own heads included
    // A backend-side break: every run of the job fails the test in [from, until).
    std::string backendBreakBackend;
    std::string backendBreakWorkflow;
    std::string backendBreakJob;
    std::string backendBreakTest;
    EpochSeconds backendBreakFrom = 0;
    EpochSeconds backendBreakUntil = 0;
    // An hour in which the backend's device is busy: test jobs that start in
    // [from, until) error some tests at setup ("<device> device 0 is not available").
    std::string deviceBusyBackend;
    EpochSeconds deviceBusyFrom = 0;
    EpochSeconds deviceBusyUntil = 0;
    std::vector<SimFlakyTest> flakyTests; // besides the flaky story's test
    std::vector<SimStrictXpass> strictXpasses;
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
    // A backend whose PR workflow checks out pytorch/pytorch's default branch
    // (no `ref:`): its pull-request jobs' logs show main's tip checked out,
    // not the head SHA their HUD rows carry.
    std::string wrongShaBackend;
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
    std::vector<SimPullRequest> pulls; // every PR with a head in the history, by number
    // Why each served row failed (see sim_truth.h). Nothing in the app reads it.
    std::vector<SimTruthLine> truth;
};

// Deterministic in (seed, now, commits, jobsScale). Rows are ordered by
// started_at, then repo, workflow, job and attempt.
SimDataset buildDataset(const SimConfig& config);

} // namespace relayhud::sim
