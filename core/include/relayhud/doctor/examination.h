#pragma once
// The integration doctor over a whole cache (issue 20; out of the GUI's
// Doctor tab into core in issue 38, so that the Doctor and Backends tabs, and
// anything else, judge the same way): every backend that reports, its runs
// judged (runtime_health.h) and its workflows linted (workflow_lint.h),
// worst first.
#include "relayhud/doctor/runtime_health.h"
#include "relayhud/doctor/workflow_lint.h"
#include "relayhud/model/ids.h"
#include "relayhud/model/types.h"
#include "relayhud/store/health_runs.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace relayhud {
class ArtifactFetcher;
class Database;
} // namespace relayhud

namespace relayhud::doctor {

struct WorkflowReport {
    std::string path; // ".github/workflows/ci.yml"
    std::string htmlUrl;
    WorkflowLint lint;
    std::string error; // not a workflow (the YAML does not read)
};

struct BackendReport {
    std::string repo;
    Level level = Level::Unknown;
    RuntimeHealth runtime;
    std::vector<WorkflowReport> workflows;
    std::string workflowsNote; // why there are none, or that they are the kept copies
    // The runs the runtime findings name, by check-run row.
    std::map<CheckRunRow, HealthRun> runs;

    // Findings of this severity, runtime and workflows together.
    std::size_t count(Severity severity) const;
};

// Every backend of the cache's allowlist but the relay's own probe repository
// (its probes fail by design) and the L1 backends with no runs (dispatched
// to, never reporting: nothing to judge). Each has its runs of the `days`
// before `now` judged, and its workflows linted: fetched through `fetcher`
// when `online` and GitHub answers, else the copies kept from the last read
// (workflowsNote says which, or why there are none). Worst first: the most
// errors, then the most warnings; ties keep the allowlist's order. Errors:
// the cache cannot be read.
Result<std::vector<BackendReport>> examineBackends(const Database& cache, ArtifactFetcher& fetcher,
                                                   EpochSeconds now, int days, bool online);

} // namespace relayhud::doctor
