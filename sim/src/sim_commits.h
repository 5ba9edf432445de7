#pragma once
// Upstream history of the simulated world: PR heads (with synchronize pushes),
// ciflow/trunk tag pushes and one nightly a day (on the main commit it was
// cut from), over the last ten days.
#include "relayhud/model/types.h"
#include "relayhud/sim/sim_dataset.h"

#include <vector>

namespace relayhud::sim {

inline constexpr EpochSeconds kHistorySeconds = 10 * 86400;

// config.now must already be resolved. Sorted by time, oldest first.
std::vector<UpstreamCommit> buildCommits(const SimConfig& config);

} // namespace relayhud::sim
