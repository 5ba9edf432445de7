#pragma once
// The outcome configs of the simulated backends, in torch-spyre's format
// (DOMAIN.md, "torch-spyre outcome configs"), generated from the same test
// universes the simulated CI runs. Against them an ordinary green of a
// backend is a verified green, while the seeded stories are not: the
// incomplete-green story's missing tests are mandatory_success entries.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/util/result.h"

#include <map>
#include <string>
#include <string_view>

namespace relayhud::sim {

// repo -> YAML text, for every backend that reports results. Deterministic
// in the dataset's seed, commit count and jobsScale.
std::map<std::string, std::string> outcomeConfigs(const SimDataset& dataset);

// "torch-spyre/torch-spyre" -> "torch-spyre__torch-spyre.yaml".
std::string outcomeConfigFileName(std::string_view repo);

// Writes outcomeConfigs(dataset) into `dir` (created when missing), each file
// atomically (a temporary file, then rename); repo -> the written path. The
// error names the path that could not be written and why.
Result<std::map<std::string, std::string>> writeOutcomeConfigs(const SimDataset& dataset,
                                                               const std::string& dir);

} // namespace relayhud::sim
