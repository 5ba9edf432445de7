#pragma once
// The config suggestions (config/config_suggest.h) as a person reviews them
// (issue 36): one move per method, however many jobs argue for it (each job
// gives its own Suggestion of the same move), grouped under the config entry
// that decides the method today, so that a long list reads entry by entry.
#include "relayhud/config/config_suggest.h"
#include "relayhud/config/outcome_config.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace relayhud::config {

struct SuggestionGroup {
    std::size_t fileIndex = 0;
    std::optional<std::size_t> entryIndex; // none: methods the config does not list
    Mode mode = Mode::Xfail;               // the entry's mode (unlisted_test_mode when unlisted)
    std::size_t line = 0;                  // the entry's first line; 0 when unlisted
    // One per method and kind: the first job's suggestion, its evidence
    // naming how many more jobs agree ("...; 2 more jobs agree").
    std::vector<Suggestion> moves;
    // How many job suggestions each move stands for (same order as moves).
    std::vector<int> jobs;
};

// Groups by files entry then entry (unlisted last), methods in name order.
std::vector<SuggestionGroup> groupSuggestions(const OutcomeConfig& config,
                                              const std::vector<Suggestion>& suggestions);

// The moves of every group, in group order: what applying all of them applies.
std::vector<Suggestion> groupedMoves(const std::vector<SuggestionGroup>& groups);

} // namespace relayhud::config
