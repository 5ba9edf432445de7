#pragma once
// The jobs of each backend in one line: its greens counted by how far they
// are verified and why not, then its other verdicts. A report lists these
// instead of a row per green job, which would bury the failures (issue 17).
#include "relayhud/verdict/verdict.h"

#include <string>
#include <vector>

namespace relayhud::verdict {

struct BackendSummary {
    std::string backend; // the downstream repository
    // Plain text, e.g. "12 green (9 unverifiable: no outcome config; 3
    // verified) · 1 red"; the caller escapes it for its format.
    std::string text;
};

// One per backend, in the order the backends first appear in `jobs`.
std::vector<BackendSummary> backendSummaries(const std::vector<RunVerdict>& jobs);

} // namespace relayhud::verdict
