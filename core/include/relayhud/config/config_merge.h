#pragma once
// Several outcome configs for one run, merged as torch-spyre's run_test.sh
// merges them (merge_yaml_configs, oot_test_utilities.py:530-760 @539fd3b0):
// sections of the same `path` (as written) are concatenated in order, the
// first one's unlisted_test_mode wins, a later block whose names (as a set),
// tags and edits equal an earlier block's is dropped; global lists are
// united item by item, and two different values of anything else in global
// are a conflict the framework refuses. The merged document has no suite labels.
#include "relayhud/config/outcome_config.h"
#include "relayhud/util/result.h"

#include <string>
#include <vector>

namespace relayhud::config {

struct MergeInput {
    std::string source; // a file name, for positions in findings and explain
    const OutcomeConfig* config = nullptr;
};

struct MergedConfig {
    OutcomeConfig config;           // entries carry `origin`, an index into config.origins
    std::vector<std::string> notes; // dropped duplicate blocks, unlisted mode conflicts
};

Result<MergedConfig> mergeOutcomeConfigs(const std::vector<MergeInput>& inputs);

} // namespace relayhud::config
