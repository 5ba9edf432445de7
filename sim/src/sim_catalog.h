#pragma once
// The simulated allowlist: which backends exist, at which level, what their
// CI matrices look like and how they behave (coverage, failure rate, ...).
#include "relayhud/model/types.h"
#include "relayhud/sim/sim_artifacts.h"

#include <cstdint>
#include <string>
#include <vector>

namespace relayhud::sim {

enum class JobKind : std::uint8_t { Build, Test };

struct JobSpec {
    std::string name; // unique per workflow: "test (default, 1, 3, linux.spyre.1)"
    JobKind kind = JobKind::Test;
    std::int64_t testsTotal = 0; // 0 for jobs that report no test counts
    int minMinutes = 10;
    int maxMinutes = 30;
    // The matrix leg of a test job ("" and 0 for a build job).
    std::string config; // "default"
    int shard = 0;      // 1-based
    int numShards = 0;
    std::string runner; // "linux.spyre.1"
};

struct WorkflowSpec {
    std::string name;
    std::vector<JobSpec> jobs; // a Build job, when present, comes first
};

// How a backend reports, when it is shaped after one of the real reporters
// (../shared/specs/real-backends.md section 1).
enum class Reporter : std::uint8_t {
    Generic,    // sends artifact-url (or nothing), on every dispatched PR head
    TorchSpyre, // torch-spyre/torch-spyre: merged PRs only, tests main's HEAD, no artifact-url;
                // reports in its run or in a dispatched child run (SimEvidence)
    TorchedHat, // TorchedHat/pytorch-redhat-ci: nightly only, no counts, logs only
};

struct BackendSpec {
    Backend backend;
    std::string device;         // "spyre", "npu", ... (failing test names use it)
    std::string sdk;            // environment.sdk
    double coverage = 1.0;      // share of upstream PR/push events it runs on
    bool nightly = false;       // runs a scheduled nightly against the nightly SHA
    double artifactShare = 0.0; // share of completed test jobs that upload artifacts
    double failRate = 0.03;     // spontaneous test-job failures
    std::vector<WorkflowSpec> workflows;
    SimStore store = SimStore::None; // where its test jobs upload their reports
    int retentionDays = 90;          // GitHub artifacts: retention-days of the upload
    // instantiate_device_type_tests' class suffix for the device: "PRIVATEUSE1"
    // for an out-of-tree PrivateUse1 backend, "XPU" for an in-tree device.
    std::string classSuffix = "PRIVATEUSE1";

    // The relay's own probe repo (pytorch/crcr-test): jobs named *xfail*,
    // *xcancel*, *xtimeout* fail / cancel / time out as meant, the others pass.
    bool probe = false;
    // Not part of any story (new backends must not move the stories' picks).
    bool storyFree = false;
    // The level the relay dispatched at, when the allowlist no longer says so.
    Level dispatchLevel = Level::Unknown;
    bool listed = true;              // the allowlist lists it (at backend.level)
    int removedDaysAgo = 0;          // > 0: dispatched to until this many days before now
    bool nightlyKeyFreeText = false; // its nightly delivery-id is not a SHA
    // Matrix legs reporting without `job-name`: they all send github.job,
    // this name (action.yml job-name input), with their own check_run_id.
    std::string sharedTestJobName{};
    // Its PR workflow checks out pytorch/pytorch without `ref:`, so
    // actions/checkout takes the default branch: its pull-request jobs test
    // main's tip, not the dispatched head the HUD files their result under
    // (their logs print the tip's SHA).
    bool checksOutDefaultBranch = false;
    Reporter reporter = Reporter::Generic;

    Level rowLevel() const
    {
        return dispatchLevel != Level::Unknown ? dispatchLevel : backend.level;
    }
    bool reports() const { return rowLevel() != Level::L1; }
    std::size_t jobCount() const;
    // A job's GitHub artifact, uploaded when it completed, is past its
    // retention at `now` (the GitHub API then answers it expired).
    bool artifactExpired(EpochSeconds completedAt, EpochSeconds now) const
    {
        return store == SimStore::GitHubArtifacts
               && completedAt + static_cast<EpochSeconds>(retentionDays) * 86400 <= now;
    }
};

// jobsScale multiplies the test shards of every matrix (benchmarks).
std::vector<BackendSpec> backendCatalog(int jobsScale);

// The catalog entry of a repository, or nullptr.
const BackendSpec* findBackend(const std::vector<BackendSpec>& catalog, std::string_view repo);
// The job of a workflow by name, or nullptr.
const JobSpec* findJob(const BackendSpec& backend, std::string_view workflow, std::string_view job);

} // namespace relayhud::sim
