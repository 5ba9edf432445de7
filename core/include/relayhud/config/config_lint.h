#pragma once
// Listings the framework reads differently from how they look, each a
// finding with line:column and a one-line fix: names written as variants
// (`..._spyre`, `..._spyre_float16`) that never match, exact listings that
// an earlier one always beats, and, given the tests the cache knows, regexes
// that match none of them; and the torch-spyre framework version each field
// newer than the class-based schema needs (framework_age.h), at its first use.
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/resolver.h"
#include "relayhud/store/recent_results.h"

#include <vector>

namespace relayhud::config {

// `known` may be empty: the checks that need known tests are then skipped.
// A file section the cache knows no test of is not checked against them
// (no evidence is not evidence of absence), nor are `skip` entries (a
// skipped test is never collected, so never known).
std::vector<Finding> lintConfig(const OutcomeConfig& config, const std::vector<KnownTest>& known,
                                const ResolveContext& context = {});

} // namespace relayhud::config
