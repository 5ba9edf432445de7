#pragma once
// Runs of adjacent matrix columns that belong to the same backend, as the
// (possibly filtered) model in front of a view presents them.
#include <QString>

#include <vector>

class QAbstractItemModel;

namespace relayhud::ui {

struct BackendGroup {
    int first = 0; // column, inclusive
    int last = 0;  // column, inclusive
    QString backend;
    int level = 0; // int(Level)
};

// Groups covering columns [from, to] of `model`, each extended to its full
// run so that a group's true start and end are known even when scrolled.
std::vector<BackendGroup> backendGroups(const QAbstractItemModel& model, int from, int to);

} // namespace relayhud::ui
