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

// What the query itself says about its rows, for columns a row lacks.
struct RowContext {
    std::string downstreamRepo; // crcr_backend_dashboard {repo}
    EventType eventType = EventType::PullRequest;
    Sha sha; // crcr_pr_results has no SHA column
    std::int64_t prNumber = 0;
};

// One row of crcr_backend_dashboard / crcr_nightly_dashboard / crcr_pr_results.
Result<CheckRun> mapCheckRunRow(const nlohmann::json& row, const RowContext& context);

// GET /api/crcr/allowlist: {"L1": [{"repo": ..., "oncalls": [...]}], ...}
Result<std::vector<Backend>> mapAllowlist(const nlohmann::json& doc);

// Upstream commits implied by a set of runs: one per SHA, time = earliest start.
std::vector<UpstreamCommit> commitsFromRuns(const std::vector<CheckRun>& runs);

} // namespace relayhud
