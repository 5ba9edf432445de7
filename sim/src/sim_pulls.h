#pragma once
// The pull requests behind the history's PR heads, with a fate each: about a
// third merge some hours after their last push, some are closed, the rest
// stay open. Drawn on a stream per PR, so the commits stay as they were.
#include "relayhud/sim/sim_dataset.h"

#include <vector>

namespace relayhud::sim {

// Sorted by number. config.now must already be resolved.
std::vector<SimPullRequest> buildPulls(const SimConfig& config,
                                       const std::vector<UpstreamCommit>& commits);

// The PR of that number, or nullptr.
SimPullRequest* findPull(std::vector<SimPullRequest>& pulls, PrNumber number);
const SimPullRequest* findPull(const std::vector<SimPullRequest>& pulls, PrNumber number);

// Stories decide some fates: merge at `at` with a fresh merge commit, or stay unmerged.
void mergePull(SimPullRequest& pr, EpochSeconds at, std::uint64_t seed);
void keepUnmerged(SimPullRequest& pr);

// When the PR's last head was pushed (its creation if it has none).
EpochSeconds lastHeadTime(const SimPullRequest& pr);

} // namespace relayhud::sim
