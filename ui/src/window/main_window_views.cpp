// MainWindow: what the matrix shows of the model's rows and columns (issue
// 17): a PR's earlier heads and a job's shard group, opened and folded with
// the current cell kept on its run.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"

#include <utility>

namespace relayhud::ui {

void MainWindow::togglePullRequestHeads(int proxyRow)
{
    const auto row = [&](int role) { return m_proxy->headerData(proxyRow, Qt::Vertical, role); };
    const qint64 pr = row(MatrixModel::PrNumberRole).toLongLong();
    // A PR's row, or one of its earlier heads under it.
    if (pr <= 0
        || row(MatrixModel::RowKindRole).toInt() == static_cast<int>(MatrixModel::RowKind::Commit)
        || row(MatrixModel::HeadsRole).toInt() < 2)
        return;
    changeKeepingCurrent([&] { m_model->setExpanded(pr, !m_model->isExpanded(pr)); }, false);
}

void MainWindow::toggleShardGroup(const QString& family)
{
    if (family.isEmpty())
        return;
    changeKeepingCurrent(
        [&] { m_model->setShardGroupExpanded(family, !m_model->isShardGroupExpanded(family)); },
        false);
}

MainWindow::CurrentRun MainWindow::currentRun() const
{
    const QModelIndex current = m_view->currentIndex();
    CurrentRun at;
    if (!current.isValid())
        return at;
    at.cell = true;
    at.run = current.data(MatrixModel::RunRowIdRole).toLongLong();
    at.sha = current.data(MatrixModel::ShaRole).toString();
    if (m_model->pullRequestView())
        at.pr = m_proxy->headerData(current.row(), Qt::Vertical, MatrixModel::PrNumberRole)
                    .toLongLong();
    if (const MatrixColumn* column = m_model->columnAt(m_proxy->mapToSource(current).column()))
        at.column = matrixColumnKey(*column);
    const auto header = [&](int role) {
        return m_proxy->headerData(current.column(), Qt::Horizontal, role);
    };
    at.group = header(MatrixModel::ShardMembersRole).toInt() > 0;
    at.family = header(MatrixModel::ShardFamilyRole).toString();
    return at;
}

// Where `before`'s cell is now, best first: its run on its commit's row (a
// folded group's cell is its worst shard's run); its job on its commit's row
// (a retry replaced the run), or the folded group it went into; the same on
// its PR's row (a new head replaced the row). Invalid when none is shown.
QModelIndex MainWindow::findCurrent(const CurrentRun& before) const
{
    std::vector<int> columns; // proxy columns showing before's job, then its folded group
    int folded = -1;
    for (int c = 0; c < m_proxy->columnCount() && m_proxy->rowCount() > 0; ++c) {
        const MatrixColumn* column =
            m_model->columnAt(m_proxy->mapToSource(m_proxy->index(0, c)).column());
        if (column && matrixColumnKey(*column) == before.column)
            columns.push_back(c);
        else if (!before.family.isEmpty()
                 && m_proxy->headerData(c, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt()
                        > 0
                 && m_proxy->headerData(c, Qt::Horizontal, MatrixModel::ShardFamilyRole)
                        == before.family)
            folded = c;
    }
    if (folded >= 0)
        columns.push_back(folded);
    const auto rowWhere = [&](int role, const QVariant& value) {
        for (int row = 0; row < m_proxy->rowCount(); ++row)
            if (m_proxy->headerData(row, Qt::Vertical, role) == value)
                return row;
        return -1;
    };
    const int shaRow = rowWhere(MatrixModel::ShaRole, before.sha);
    if (shaRow >= 0 && before.run != 0)
        for (int c = 0; c < m_proxy->columnCount(); ++c)
            if (m_proxy->index(shaRow, c).data(MatrixModel::RunRowIdRole).toLongLong()
                == before.run)
                return m_proxy->index(shaRow, c);
    if (columns.empty())
        return {};
    if (shaRow >= 0)
        return m_proxy->index(shaRow, columns.front());
    const int prRow = before.pr > 0 ? rowWhere(MatrixModel::PrNumberRole, before.pr) : -1;
    return prRow >= 0 ? m_proxy->index(prRow, columns.front()) : QModelIndex();
}

// Runs `change` (a merge, opening or folding rows or columns) with the
// panels held, then puts the current cell back where findCurrent() finds
// it (settlePlace); the panels then follow once.
void MainWindow::changeKeepingCurrent(const std::function<void()>& change, bool revealFolded)
{
    const CurrentRun before = placeToKeep();
    const bool outer = std::exchange(m_keepingCurrent, true);
    change();
    settlePlace(before, revealFolded, outer, false);
}

// After a change made with the panels held: the current cell goes back where
// findCurrent() finds `before`. A cell that a filter or a view tab now hides
// (`filtered`), or that a merge left in the model but hidden, leaves no cell
// current and the panels on its run, until a later change shows it again;
// else the current cell stays where the views left it. With `revealFolded`, a job's cell whose run
// the change folded into a shard group opens that group; a folded group's cell stays on its group.
void MainWindow::settlePlace(const CurrentRun& before, bool revealFolded, bool outer, bool filtered)
{
    QModelIndex found = before.cell ? findCurrent(before) : QModelIndex();
    const bool lost =
        !found.isValid() || found.data(MatrixModel::RunRowIdRole).toLongLong() != before.run;
    if (revealFolded && before.cell && !before.group && before.run != 0 && lost) {
        m_model->revealRun(before.run);
        if (const QModelIndex again = findCurrent(before); again.isValid())
            found = again;
    }
    if (found.isValid()) {
        m_lostPlace = {};
        if (found != m_view->currentIndex())
            m_view->selectionModel()->setCurrentIndex(found, QItemSelectionModel::ClearAndSelect);
    } else if (before.cell && (filtered || modelHasRun(before.run))) {
        m_lostPlace = before;
        m_view->selectionModel()->clear();
    } else {
        m_lostPlace = {};
    }
    m_keepingCurrent = outer;
    if (outer)
        return; // the outer change settles the panels
    const QModelIndex now = m_view->currentIndex();
    if (!now.isValid() && m_lostPlace.cell)
        return; // the panels keep the hidden cell's run
    if (now.isValid() ? now.data(MatrixModel::RunRowIdRole).toLongLong() != m_shownRowId
                      : before.cell)
        onCurrentChanged(now);
}

void MainWindow::revealCommit(const QString& sha)
{
    if (!m_model->pullRequestView())
        return;
    for (const UpstreamCommit& commit : m_model->snapshot().rows)
        if (toQString(commit.sha.value) == sha)
            return; // shown already
    for (const UpstreamCommit& commit : m_model->commits().rows)
        if (commit.prNumber > 0 && toQString(commit.sha.value) == sha)
            return m_model->setExpanded(commit.prNumber, true);
}

// The cell of this run (a cache row id), clearing filters that hide it.
bool MainWindow::selectRunRow(qint64 runRowId)
{
    m_model->revealRun(runRowId); // its shard group, if folded
    for (int pass = 0; pass < 2; ++pass) {
        for (int row = 0; row < m_proxy->rowCount(); ++row)
            for (int column = 0; column < m_proxy->columnCount(); ++column) {
                const QModelIndex index = m_proxy->index(row, column);
                if (index.data(MatrixModel::RunRowIdRole).toLongLong() != runRowId)
                    continue;
                m_view->selectionModel()->setCurrentIndex(index,
                                                          QItemSelectionModel::ClearAndSelect);
                m_view->scrollTo(index, QAbstractItemView::PositionAtCenter);
                return true;
            }
        if (pass == 0 && m_proxy->filters() != MatrixFilters{})
            m_proxy->resetFilters();
        else
            break;
    }
    m_status->showMessage(tr("That run is no longer in the matrix"));
    return false;
}

} // namespace relayhud::ui
