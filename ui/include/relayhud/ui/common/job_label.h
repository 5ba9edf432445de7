#pragma once
// Short labels for the matrix's job columns, and the shard families that
// group into one column.
//
// PyTorch's (and the backends') test jobs are named
// "test (CONFIG, SHARD, SHARDS, RUNNER)": "test (default, 1, 4,
// linux.arm64.npu.2)" reads "default 1/4", the runner going to the tooltip.
// The PyTorch HUD's per-backend CRCR page groups jobs whose names end in a
// numeric suffix ("-3", "_3"), three or more of one prefix, into one column
// that shows the worst conclusion (pytorch/test-infra
// torchci/pages/crcr/[org]/[repo].tsx, detectGroups() and GroupedJobCell,
// @61a77570); the shards of one "test (CONFIG, i, N, RUNNER)" are grouped the
// same way here, which is the grouping backends actually need.
#include <QString>

namespace relayhud::ui {

struct JobLabel {
    QString compact; // what the column header shows
    QString runner;  // "" when the name carries none
    // Jobs with the same (non-empty) family are the shards of one job;
    // `groupName` names the group's column.
    QString family;
    QString groupName;
    int shard = 0;  // 1-based; 0 when not a shard
    int shards = 0; // shards in the family, as the name says; 0 when unknown
};

JobLabel parseJobLabel(const QString& job);

// The HUD's shard rule: a family needs at least this many members.
constexpr int kMinSuffixGroupMembers = 3;

} // namespace relayhud::ui
