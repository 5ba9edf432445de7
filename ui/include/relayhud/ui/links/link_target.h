#pragma once
// Where an app link points in the matrix in memory: gather (the snapshot, and
// for a run link what the cache knows of the check run), then decide here,
// with no I/O, so that every outcome is tested with hand-made facts.
#include "relayhud/model/matrix_snapshot.h"
#include "relayhud/ui/links/app_link.h"
#include "relayhud/util/result.h"

#include <QString>

#include <optional>

namespace relayhud::ui {

struct LinkTarget {
    int row = -1;    // in the snapshot (the model's source row)
    int column = -1; // a run's column; -1 for a commit or PR link (its row)
    QString what;    // "test (default, 1, 2) on 1a2b3c4", for the status bar
};

// A commit or PR link: the commit whose SHA is (or, given 4+ characters,
// uniquely starts with) the link's; a PR's newest head.
Result<LinkTarget> resolveCommitLink(const AppLink& link, const MatrixSnapshot& matrix);

// A run link: `run` is the check run the cache holds under the link's id
// (none: the cache does not know it); its cell is the row of its upstream
// SHA in the column of its job, which shows the newest attempt.
Result<LinkTarget> resolveRunLink(const AppLink& link, const std::optional<CheckRun>& run,
                                  const MatrixSnapshot& matrix);

} // namespace relayhud::ui
