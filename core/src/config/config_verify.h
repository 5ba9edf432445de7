#pragma once
// The semantic content of a config as a multiset of facts, so that an edit
// can be checked to change exactly one fact: "file 0 lists X as xfail with
// edits E" becomes "file 0 lists X as mandatory_success with edits E".
#include "relayhud/config/outcome_config.h"

#include <set>
#include <string>
#include <string_view>

namespace relayhud::config {

using Facts = std::multiset<std::string>;

std::string listingFact(std::size_t file, std::string_view name, Mode mode,
                        std::string_view signature);
Facts factsOf(const OutcomeConfig& config);
// All but the exact listings of `skipMethod` in section `skipFile`: what an
// edit of that method must leave as it was.
Facts factsWithout(const OutcomeConfig& config, std::size_t skipFile, std::string_view skipMethod);

// "" when equal; else the first fact missing or extra, for a refusal message.
std::string describeDifference(const Facts& expected, const Facts& actual);

} // namespace relayhud::config
