// MatrixModel::merge: turns the current snapshot into the next one with the
// finest-grained model signals, so views keep selection and scroll position.
#include "relayhud/ui/matrix/matrix_model.h"

#include "relayhud/ui/common/format.h"

#include <algorithm>
#include <numeric>
#include <string>
#include <unordered_map>

namespace relayhud::ui {

namespace {

std::string rowKey(const UpstreamCommit& commit) { return commit.sha.value; }

std::string columnKey(const MatrixColumn& column) { return matrixColumnKey(column); }

template <class T, class KeyFn>
std::unordered_map<std::string, int> positions(const std::vector<T>& items, KeyFn key)
{
    std::unordered_map<std::string, int> map;
    map.reserve(items.size());
    for (std::size_t i = 0; i < items.size(); ++i)
        map.emplace(key(items[i]), static_cast<int>(i));
    return map;
}

// For each current item, its position in `next` (-1 when it vanished).
template <class T, class KeyFn>
std::vector<int> targetPositions(const std::vector<T>& current, const std::vector<T>& next,
                                 KeyFn key)
{
    const auto map = positions(next, key);
    std::vector<int> out;
    out.reserve(current.size());
    for (const T& item : current) {
        const auto it = map.find(key(item));
        out.push_back(it == map.end() ? -1 : it->second);
    }
    return out;
}

// Ranges [first, last] of consecutive -1 entries, last range first.
std::vector<std::pair<int, int>> vanishedRangesBackwards(const std::vector<int>& target)
{
    std::vector<std::pair<int, int>> ranges;
    int i = static_cast<int>(target.size()) - 1;
    while (i >= 0) {
        if (target[static_cast<std::size_t>(i)] >= 0) {
            --i;
            continue;
        }
        const int last = i;
        while (i >= 0 && target[static_cast<std::size_t>(i)] < 0)
            --i;
        ranges.emplace_back(i + 1, last);
    }
    return ranges;
}

// The order that sorts survivors by their target position.
std::vector<int> sortedOrder(const std::vector<int>& target)
{
    std::vector<int> order(target.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return target[static_cast<std::size_t>(a)] < target[static_cast<std::size_t>(b)];
    });
    return order;
}

} // namespace

std::string matrixColumnKey(const MatrixColumn& column)
{
    return column.backend + '\x1f' + column.workflow + '\x1f' + column.job;
}

void MatrixModel::merge(MatrixSnapshot next)
{
    m_tested = std::move(next.tested);
    m_commits = std::move(next);
    present();
}

void MatrixModel::setPullRequestView(bool on)
{
    if (on == m_pullRequestView)
        return;
    m_pullRequestView = on;
    present();
}

void MatrixModel::setExpanded(qint64 pr, bool expanded)
{
    if (expanded == isExpanded(pr))
        return;
    if (expanded)
        m_expanded.insert(pr);
    else
        m_expanded.erase(pr);
    if (m_pullRequestView)
        present();
}

void MatrixModel::setShardGrouping(bool on)
{
    if (on == m_shardGrouping)
        return;
    m_shardGrouping = on;
    present();
}

void MatrixModel::setShardGroupExpanded(const QString& family, bool expanded)
{
    if (expanded == isShardGroupExpanded(family))
        return;
    if (expanded)
        m_expandedGroups.insert(family);
    else
        m_expandedGroups.remove(family);
    if (m_shardGrouping)
        present();
}

void MatrixModel::revealJob(const std::string& backend, const std::string& workflow,
                            const std::string& job)
{
    if (!m_shardGrouping)
        return;
    for (const auto& [key, shard] : m_shardColumns)
        for (const int member : shard.memberColumns) {
            const MatrixColumn& c = ungrouped().columns[static_cast<std::size_t>(member)];
            if (c.backend == backend && c.workflow == workflow && c.job == job)
                return setShardGroupExpanded(shard.family, true);
        }
}

void MatrixModel::revealRun(qint64 runRowId)
{
    const std::size_t width = ungrouped().columns.size();
    for (std::size_t i = 0; runRowId != 0 && i < ungrouped().cells.size(); ++i)
        if (ungrouped().cells[i].runRowId.value == runRowId) {
            const MatrixColumn& c = ungrouped().columns[i % width];
            return revealJob(c.backend, c.workflow, c.job);
        }
}

// The commits, or their PR rows, become what the model shows, their shards
// grouped.
void MatrixModel::present()
{
    const QHash<QString, PullRequestRow> groupsBefore = m_rowGroups;
    const auto shardsBefore = m_shardColumns;
    m_rowGroups.clear();
    m_carried.clear();
    m_pullRequests = {};
    if (m_pullRequestView) {
        PullRequestMatrix prs = pullRequestMatrix(m_commits, m_expanded);
        for (std::size_t r = 0; r < prs.rows.size(); ++r)
            m_rowGroups.insert(toQString(prs.matrix.rows[r].sha.value), prs.rows[r]);
        for (const auto& [run, sha] : prs.carried)
            m_carried.emplace(run, toQString(sha));
        m_pullRequests = std::move(prs.matrix);
    }
    m_shardColumns.clear();
    if (!m_shardGrouping) {
        show(ungrouped());
    } else {
        ShardMatrix grouped = groupShards(ungrouped(), m_expandedGroups);
        for (std::size_t c = 0; c < grouped.columns.size(); ++c)
            if (!grouped.columns[c].family.isEmpty())
                m_shardColumns.emplace(matrixColumnKey(grouped.matrix.columns[c]),
                                       std::move(grouped.columns[c]));
        show(std::move(grouped.matrix));
    }
    if (m_rowGroups != groupsBefore && rowCount() > 0)
        emit headerDataChanged(Qt::Vertical, 0, rowCount() - 1);
    if (m_shardColumns != shardsBefore && columnCount() > 0)
        emit headerDataChanged(Qt::Horizontal, 0, columnCount() - 1);
    emit merged();
}

void MatrixModel::show(MatrixSnapshot next)
{
    removeVanished(next);
    reorderSurvivors(next);
    insertNewRows(next);
    insertNewColumns(next);
    takeOver(std::move(next));
}

void MatrixModel::removeVanished(const MatrixSnapshot& next)
{
    const auto rowTargets = targetPositions(m_snapshot.rows, next.rows, rowKey);
    for (const auto& [first, last] : vanishedRangesBackwards(rowTargets)) {
        beginRemoveRows({}, first, last);
        cutRows(first, last - first + 1);
        endRemoveRows();
    }
    const auto columnTargets = targetPositions(m_snapshot.columns, next.columns, columnKey);
    for (const auto& [first, last] : vanishedRangesBackwards(columnTargets)) {
        beginRemoveColumns({}, first, last);
        cutColumns(first, last - first + 1);
        endRemoveColumns();
    }
}

void MatrixModel::reorderSurvivors(const MatrixSnapshot& next)
{
    const auto rowTargets = targetPositions(m_snapshot.rows, next.rows, rowKey);
    const auto columnTargets = targetPositions(m_snapshot.columns, next.columns, columnKey);
    const bool rowsSorted = std::is_sorted(rowTargets.begin(), rowTargets.end());
    const bool columnsSorted = std::is_sorted(columnTargets.begin(), columnTargets.end());
    if (rowsSorted && columnsSorted)
        return;

    emit layoutAboutToBeChanged();
    const auto rowOrder = sortedOrder(rowTargets);
    const auto columnOrder = sortedOrder(columnTargets);
    std::vector<int> newRowOf(rowOrder.size());
    std::vector<int> newColumnOf(columnOrder.size());
    MatrixSnapshot reordered;
    for (std::size_t r = 0; r < rowOrder.size(); ++r) {
        newRowOf[static_cast<std::size_t>(rowOrder[r])] = static_cast<int>(r);
        reordered.rows.push_back(m_snapshot.rows[static_cast<std::size_t>(rowOrder[r])]);
    }
    for (std::size_t c = 0; c < columnOrder.size(); ++c) {
        newColumnOf[static_cast<std::size_t>(columnOrder[c])] = static_cast<int>(c);
        reordered.columns.push_back(m_snapshot.columns[static_cast<std::size_t>(columnOrder[c])]);
    }
    reordered.cells.reserve(m_snapshot.cells.size());
    for (int oldRow : rowOrder)
        for (int oldColumn : columnOrder)
            reordered.cells.push_back(m_snapshot.cell(static_cast<std::size_t>(oldRow),
                                                      static_cast<std::size_t>(oldColumn)));
    m_snapshot = std::move(reordered);

    const QModelIndexList before = persistentIndexList();
    QModelIndexList after;
    after.reserve(before.size());
    for (const QModelIndex& old : before)
        after.append(index(newRowOf[static_cast<std::size_t>(old.row())],
                           newColumnOf[static_cast<std::size_t>(old.column())]));
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

// Survivors are now a subsequence of next, in next's order: walk both and
// insert each run of new items where it belongs.
void MatrixModel::insertNewRows(const MatrixSnapshot& next)
{
    std::size_t at = 0;
    for (std::size_t i = 0; i < next.rows.size();) {
        if (at < m_snapshot.rows.size() && rowKey(m_snapshot.rows[at]) == rowKey(next.rows[i])) {
            ++at, ++i;
            continue;
        }
        std::vector<UpstreamCommit> run;
        const bool bounded = at < m_snapshot.rows.size();
        const std::string stop = bounded ? rowKey(m_snapshot.rows[at]) : std::string();
        while (i < next.rows.size() && (!bounded || rowKey(next.rows[i]) != stop))
            run.push_back(next.rows[i++]);
        const int first = static_cast<int>(at);
        beginInsertRows({}, first, first + static_cast<int>(run.size()) - 1);
        spliceRows(first, run);
        endInsertRows();
        at += run.size();
    }
}

void MatrixModel::insertNewColumns(const MatrixSnapshot& next)
{
    std::size_t at = 0;
    for (std::size_t i = 0; i < next.columns.size();) {
        if (at < m_snapshot.columns.size()
            && columnKey(m_snapshot.columns[at]) == columnKey(next.columns[i])) {
            ++at, ++i;
            continue;
        }
        std::vector<MatrixColumn> run;
        const bool bounded = at < m_snapshot.columns.size();
        const std::string stop = bounded ? columnKey(m_snapshot.columns[at]) : std::string();
        while (i < next.columns.size() && (!bounded || columnKey(next.columns[i]) != stop))
            run.push_back(next.columns[i++]);
        const int first = static_cast<int>(at);
        beginInsertColumns({}, first, first + static_cast<int>(run.size()) - 1);
        spliceColumns(first, run);
        endInsertColumns();
        at += run.size();
    }
}

void MatrixModel::takeOver(MatrixSnapshot next)
{
    const std::size_t rows = next.rows.size();
    const std::size_t columns = next.columns.size();
    int top = -1, bottom = -1, left = static_cast<int>(columns), right = -1;
    for (std::size_t r = 0; r < rows; ++r) {
        for (std::size_t c = 0; c < columns; ++c) {
            if (m_snapshot.cell(r, c) == next.cell(r, c))
                continue;
            if (top < 0)
                top = static_cast<int>(r);
            bottom = static_cast<int>(r);
            left = std::min(left, static_cast<int>(c));
            right = std::max(right, static_cast<int>(c));
        }
    }
    int firstRowHeader = -1, lastRowHeader = -1;
    for (std::size_t r = 0; r < rows; ++r) {
        if (m_snapshot.rows[r] == next.rows[r])
            continue;
        firstRowHeader = firstRowHeader < 0 ? static_cast<int>(r) : firstRowHeader;
        lastRowHeader = static_cast<int>(r);
    }
    int firstColumnHeader = -1, lastColumnHeader = -1;
    for (std::size_t c = 0; c < columns; ++c) {
        const auto& a = m_snapshot.columns[c];
        const auto& b = next.columns[c];
        if (a.level == b.level && a.jobId == b.jobId)
            continue;
        firstColumnHeader = firstColumnHeader < 0 ? static_cast<int>(c) : firstColumnHeader;
        lastColumnHeader = static_cast<int>(c);
    }
    m_snapshot = std::move(next);
    if (top >= 0)
        emit dataChanged(index(top, left), index(bottom, right));
    if (firstRowHeader >= 0)
        emit headerDataChanged(Qt::Vertical, firstRowHeader, lastRowHeader);
    if (firstColumnHeader >= 0)
        emit headerDataChanged(Qt::Horizontal, firstColumnHeader, lastColumnHeader);
}

void MatrixModel::cutRows(int first, int count)
{
    const std::size_t width = m_snapshot.columns.size();
    const auto f = static_cast<std::ptrdiff_t>(first);
    const auto n = static_cast<std::ptrdiff_t>(count);
    m_snapshot.rows.erase(m_snapshot.rows.begin() + f, m_snapshot.rows.begin() + f + n);
    const auto cellFirst = f * static_cast<std::ptrdiff_t>(width);
    m_snapshot.cells.erase(m_snapshot.cells.begin() + cellFirst,
                           m_snapshot.cells.begin() + cellFirst
                               + n * static_cast<std::ptrdiff_t>(width));
}

void MatrixModel::cutColumns(int first, int count)
{
    const std::size_t oldWidth = m_snapshot.columns.size();
    const auto f = static_cast<std::size_t>(first);
    const auto n = static_cast<std::size_t>(count);
    std::vector<MatrixCell> cells;
    cells.reserve(m_snapshot.rows.size() * (oldWidth - n));
    for (std::size_t r = 0; r < m_snapshot.rows.size(); ++r)
        for (std::size_t c = 0; c < oldWidth; ++c)
            if (c < f || c >= f + n)
                cells.push_back(m_snapshot.cells[r * oldWidth + c]);
    m_snapshot.cells = std::move(cells);
    m_snapshot.columns.erase(m_snapshot.columns.begin() + first,
                             m_snapshot.columns.begin() + first + count);
}

void MatrixModel::spliceRows(int at, const std::vector<UpstreamCommit>& rows)
{
    const std::size_t width = m_snapshot.columns.size();
    m_snapshot.rows.insert(m_snapshot.rows.begin() + at, rows.begin(), rows.end());
    const auto cellAt = static_cast<std::ptrdiff_t>(static_cast<std::size_t>(at) * width);
    m_snapshot.cells.insert(m_snapshot.cells.begin() + cellAt, rows.size() * width, MatrixCell{});
}

void MatrixModel::spliceColumns(int at, const std::vector<MatrixColumn>& columns)
{
    const std::size_t oldWidth = m_snapshot.columns.size();
    const auto a = static_cast<std::size_t>(at);
    std::vector<MatrixCell> cells;
    cells.reserve(m_snapshot.rows.size() * (oldWidth + columns.size()));
    for (std::size_t r = 0; r < m_snapshot.rows.size(); ++r) {
        for (std::size_t c = 0; c <= oldWidth; ++c) {
            if (c == a)
                cells.insert(cells.end(), columns.size(), MatrixCell{});
            if (c < oldWidth)
                cells.push_back(m_snapshot.cells[r * oldWidth + c]);
        }
    }
    m_snapshot.cells = std::move(cells);
    m_snapshot.columns.insert(m_snapshot.columns.begin() + at, columns.begin(), columns.end());
}

} // namespace relayhud::ui
