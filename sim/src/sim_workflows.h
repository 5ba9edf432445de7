#pragma once
// A backend's GitHub workflow files, as its repository would hold them and
// the contents API serves them (issue 20: the integration doctor reads them).
// They call the relay's callback action the way the simulated runs report:
// sound, except where a runtime story says the integration is not. The
// backend whose matrix legs report under one job name (sharedTestJobName)
// passes no per-leg job-name, and the zombie story's backend sends its
// completed callback without `if: always()`, so a job that dies never
// reports, and the backend that checks out the default branch
// (checksOutDefaultBranch) gives its pytorch checkout no `ref:`. Nothing here
// is read by the app; the doctor must find all three.
#include "sim_catalog.h"

#include "relayhud/sim/sim_dataset.h"

#include <string>
#include <string_view>
#include <vector>

namespace relayhud::sim {

struct SimWorkflowFile {
    std::string name; // "torch-spyre-ci.yml", under .github/workflows/
    std::string text;
};

std::vector<SimWorkflowFile> workflowFiles(const BackendSpec& backend, const SimStories& stories);

// Git's name for a file's bytes: the SHA-1 of "blob <size>\0<bytes>", hex.
std::string gitBlobSha(std::string_view bytes);

} // namespace relayhud::sim
