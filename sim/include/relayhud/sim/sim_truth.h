#pragma once
// The simulator's ground truth: why each failing test (or failed job) of every
// row the HUD serves failed. For measuring attribution against; the app never
// reads it, and the rows, reports and logs do not carry it.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/util/result.h"

#include <string>
#include <vector>

namespace relayhud::sim {

// One line per failing test of the row's JUnit (failure, error, strict
// XPASS) when the row has an artifact; one line for the job ("" test) when it
// failed (failure, timed_out) with no failing test its artifact shows. Rows
// the HUD's queries serve only (pull_request and nightly), finished ones,
// cancelled ones excluded; in row order, then the JUnit's report order.
const std::vector<SimTruthLine>& groundTruth(const SimDataset& dataset);

// {"check_run_id": "...", "test": "...", "cause": "...", "culprit_pr": N|null}
std::string truthJsonLine(const SimTruthLine& line);

// Writes every line of groundTruth(dataset) to `path` (JSON Lines).
Result<void> writeTruthFile(const SimDataset& dataset, const std::string& path);

} // namespace relayhud::sim
