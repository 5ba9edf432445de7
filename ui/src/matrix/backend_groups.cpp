#include "relayhud/ui/matrix/backend_groups.h"

#include "relayhud/ui/matrix/matrix_model.h"

#include <algorithm>

namespace relayhud::ui {

namespace {

QString backendOf(const QAbstractItemModel& model, int column)
{
    return model.headerData(column, Qt::Horizontal, MatrixModel::BackendRole).toString();
}

} // namespace

std::vector<BackendGroup> backendGroups(const QAbstractItemModel& model, int from, int to)
{
    std::vector<BackendGroup> groups;
    const int columns = model.columnCount();
    if (columns == 0 || from > to)
        return groups;
    from = std::max(0, from);
    to = std::min(columns - 1, to);
    int column = from;
    const QString firstBackend = backendOf(model, from);
    while (column > 0 && backendOf(model, column - 1) == firstBackend)
        --column;
    while (column <= to) {
        BackendGroup group;
        group.first = column;
        group.backend = backendOf(model, column);
        group.level = model.headerData(column, Qt::Horizontal, MatrixModel::LevelRole).toInt();
        while (column + 1 < columns && backendOf(model, column + 1) == group.backend)
            ++column;
        group.last = column;
        groups.push_back(group);
        ++column;
    }
    return groups;
}

} // namespace relayhud::ui
