#pragma once
// Maps HUD JSON (crcr_workflow_job rows, allowlist) onto the model. The HUD
// emits ClickHouse JSONEachRow values: numbers may come as strings
// ("run_attempt": "2"), timestamps as ISO or "YYYY-MM-DD HH:MM:SS", and the
// zero DateTime for "not set".
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace relayhud {

// One row of crcr_backend_dashboard / crcr_nightly_dashboard / crcr_pr_results.
// `downstreamRepo` and `eventType` come from the query when the row lacks them.
Result<CheckRun> mapCheckRunRow(const nlohmann::json& row, const std::string& downstreamRepo,
                                EventType eventType);

// GET /api/crcr/allowlist: {"L1": [{"repo": ..., "oncalls": [...]}], ...}
Result<std::vector<Backend>> mapAllowlist(const nlohmann::json& doc);

// Upstream commits implied by a set of runs: one per SHA, time = earliest start.
std::vector<UpstreamCommit> commitsFromRuns(const std::vector<CheckRun>& runs);

} // namespace relayhud
