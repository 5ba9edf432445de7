#pragma once
// The matrix's "Pull requests" view: one row per upstream PR instead of one
// per pushed head, as the PyTorch HUD's per-backend CRCR page shows it, but
// across backends.
//
// The HUD (pytorch/test-infra torchci/pages/crcr/[org]/[repo].tsx,
// buildMatrix(), @61a77570; rows from clickhouse_queries/
// crcr_backend_dashboard/query.sql) keeps rows with pr_number > 0, orders PRs
// by their latest started_at, shows the SHA of the newest run, and fills each
// job's cell with "the latest attempt" across all of the PR's SHAs: the
// highest run_attempt, ties going to the most recently started run. Attempt
// counters of different heads are unrelated, so that rule lets an old head's
// retry hide the newest head's result; here the latest is the most recently
// started run, ties (and runs not started yet) going to the newer head. A
// cell whose run is on an earlier head says so (`carried`). The row is the
// newest head (the last pushed: the commit whose first activity is latest)
// where the HUD shows the SHA of the run that started last.
//
// An expanded PR is followed by its earlier heads, each with its own cells.
#include "relayhud/model/matrix_snapshot.h"

#include <cstdint>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace relayhud::ui {

struct PullRequestRow {
    enum class Kind : std::uint8_t { Latest, EarlierHead };
    Kind kind = Kind::Latest;
    PrNumber prNumber;
    int heads = 0;         // the PR's heads in the matrix
    bool expanded = false; // Latest rows: its earlier heads follow
    bool operator==(const PullRequestRow&) const = default;
};

struct PullRequestMatrix {
    // Newest PR first; rows carry the newest head's commit (its time being
    // the PR's latest activity), then, when expanded, its earlier heads.
    MatrixSnapshot matrix;
    std::vector<PullRequestRow> rows; // parallel to matrix.rows
    // Cells of a Latest row whose run is on an earlier head: run row id ->
    // that head's SHA.
    std::unordered_map<CheckRunRow, std::string, IdHash> carried;
};

PullRequestMatrix pullRequestMatrix(const MatrixSnapshot& commits,
                                    const std::set<std::int64_t>& expanded);

// How many distinct PRs the commits belong to (the view tab's count).
int countPullRequests(const MatrixSnapshot& commits);

} // namespace relayhud::ui
