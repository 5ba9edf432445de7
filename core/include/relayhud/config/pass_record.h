#pragma once
// Whether a test about to be promoted to mandatory_success ever passed in
// the cache's recent runs (issue 36): the same runs the editor's history
// strips show (store/recent_results.h). A promotion of a test that never
// passed makes every later run of it fail; the editor warns first.
#include "relayhud/store/recent_results.h"

#include <optional>
#include <string>
#include <vector>

namespace relayhud::config {

struct PassRecord {
    int runs = 0;   // runs (of any job) that reported one of the tests
    int passed = 0; // of them, runs where one passed (an XPASS too: it ran green)
    int jobs = 0;   // jobs among those runs
};

// Over the tests at `tests` (indexes into recent.tests): a method's variants
// count together, one run at most once.
PassRecord passRecord(const RecentResults& recent, const std::vector<std::size_t>& tests);

// "never passed in its last 10 runs" (", in 3 jobs" when several); nullopt
// when it passed in one, or no run reported it (nothing to go on either way).
std::optional<std::string> neverPassedWarning(const PassRecord& record);

} // namespace relayhud::config
