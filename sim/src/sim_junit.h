#pragma once
// Writes a JobRun as pytest's JUnit XML (DOMAIN.md, "pytest JUnit XML"),
// straight into one reserved string: 30,000 cases take milliseconds.
#include "relayhud/sim/sim_artifacts.h"
#include "sim_job_run.h"

#include <string>

namespace relayhud::sim {

struct ReportContext {
    std::string name;           // "default.xml"
    std::string hostname;       // the runner
    EpochSeconds startedAt = 0; // <testsuite timestamp=>
    std::string testType;       // torch-spyre's testtype__ tag: "upstream", "inductor", ...
};

// Cases [begin, end) of the run, as one report.
SimReport writeJunitReport(const JobRun& run, std::size_t begin, std::size_t end,
                           const ReportContext& context);

} // namespace relayhud::sim
