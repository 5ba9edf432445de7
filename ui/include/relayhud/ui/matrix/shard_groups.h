#pragma once
// Shards of one job in one matrix column, showing the worst status, as the
// PyTorch HUD's per-backend CRCR page groups numeric-suffix jobs
// (pytorch/test-infra torchci/pages/crcr/[org]/[repo].tsx detectGroups() and
// GroupedJobCell, @61a77570): a group needs three members of one
// "prefix-N"/"prefix_N" name; its cell is the member with the worst status,
// failure and timed_out over cancelled over pending/in_progress over the
// rest, the first member winning ties. The shards of a
// "test (CONFIG, i, N, RUNNER)" job (job_label.h) group the same way from two
// members, since the name says they are shards.
//
// Groups are per backend and workflow. An expanded group shows its members
// one by one again. The group's column is its first member's (same key), so
// expanding and collapsing move the model by the other members only.
#include "relayhud/model/matrix_snapshot.h"

#include <QSet>
#include <QString>

#include <vector>

namespace relayhud::ui {

struct ShardColumn {
    QString family;                 // the group's key, "" for a job in no group
    QString groupName;              // "default" for "test (default, i, 4, r)"
    int members = 0;                // the group's members in the matrix (0: no group)
    bool expanded = false;          // the members are shown one by one
    std::vector<int> memberColumns; // a collapsed group: its members' columns in the input
    bool operator==(const ShardColumn&) const = default;
};

struct ShardMatrix {
    MatrixSnapshot matrix;            // the same rows; groups collapsed to one column
    std::vector<ShardColumn> columns; // parallel to matrix.columns
};

// `expanded` holds the families shown one by one.
ShardMatrix groupShards(const MatrixSnapshot& in, const QSet<QString>& expanded);

// The HUD's severity of a member's state: 3 failure or timed out, 2
// cancelled, 1 not finished, 0 anything else; -1 for no run.
int shardSeverity(const MatrixCell& cell);

// A collapsed group's cell in `row`: its worst member's, marked untriaged
// when any failed member is.
MatrixCell worstMember(const MatrixSnapshot& in, std::size_t row, const std::vector<int>& members);

} // namespace relayhud::ui
