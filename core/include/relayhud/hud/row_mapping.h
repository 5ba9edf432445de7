#pragma once
// Maps HUD JSON (crcr_workflow_job rows, allowlist) onto the model. With the
// HUD's ClickHouse settings integers come as JSON numbers and DateTime64(9)
// as ISO text ("2026-05-04T20:48:28.123456000Z"), the zero date meaning "not
// set" (test-infra torchci/lib/clickhouse.ts:50-60); quoted numbers and
// "YYYY-MM-DD HH:MM:SS" are still read, harmlessly.
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
    Sha sha; // for a query without a SHA column
    PrNumber prNumber;
    std::string query = {}; // the saved query's name, for messages
};

// One row of crcr_backend_dashboard / crcr_nightly_dashboard.
Result<CheckRun> mapCheckRunRow(const nlohmann::json& row, const RowContext& context);

// GET /api/crcr/allowlist: {"L1": [{"repo": ..., "oncalls": [...]}], ...}
Result<std::vector<Backend>> mapAllowlist(const nlohmann::json& doc);

// Upstream commits implied by a set of runs: one per SHA, time = earliest start.
// A nightly's "SHA" is the downstream's delivery-id: a pytorch main commit
// (the one the nightly branch was cut from, or main's HEAD), never a
// nightly-branch commit; its branch is "main". Free text is possible
// (action.yml:28-35; "nightly-2026-12-01", "buildkite-<n>-<uuid>"): not an
// upstream commit, so no branch (hud-read-api.md R6, corrected;
// real-backends.md section 2).
std::vector<UpstreamCommit> commitsFromRuns(const std::vector<CheckRun>& runs);

} // namespace relayhud
