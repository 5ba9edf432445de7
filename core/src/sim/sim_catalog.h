#pragma once
// The simulated allowlist: which backends exist, at which level, what their
// CI matrices look like and how they behave (coverage, failure rate, ...).
#include "relayhud/model/types.h"

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
};

struct WorkflowSpec {
    std::string name;
    std::vector<JobSpec> jobs; // a Build job, when present, comes first
};

struct BackendSpec {
    Backend backend;
    std::string device;    // "spyre", "npu", ... (failing test names use it)
    std::string sdk;       // environment.sdk
    double coverage = 1.0; // share of upstream PR/push events it runs on
    bool nightly = false;  // runs a scheduled nightly against the nightly SHA
    bool runUrlWithAttempts = true;
    double artifactShare = 0.0; // share of completed test jobs that upload artifacts
    double failRate = 0.03;     // spontaneous test-job failures
    std::vector<WorkflowSpec> workflows;

    bool reports() const { return backend.level != Level::L1; }
    std::size_t jobCount() const;
};

// jobsScale multiplies the test shards of every matrix (benchmarks).
std::vector<BackendSpec> backendCatalog(int jobsScale);

} // namespace relayhud::sim
