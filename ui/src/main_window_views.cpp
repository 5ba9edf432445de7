// MainWindow: what the matrix shows of the model's rows and columns (issue
// 17): a PR's earlier heads and a job's shard group, opened and folded with
// the current cell kept on its run.
#include "relayhud/ui/main_window.h"

#include "relayhud/ui/format.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"

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
    const CurrentRun before = currentRun();
    m_model->setExpanded(pr, !m_model->isExpanded(pr));
    keepCurrentOn(before);
}

void MainWindow::toggleShardGroup(const QString& family)
{
    if (family.isEmpty())
        return;
    const CurrentRun before = currentRun();
    m_model->setShardGroupExpanded(family, !m_model->isShardGroupExpanded(family));
    keepCurrentOn(before);
}

MainWindow::CurrentRun MainWindow::currentRun() const
{
    const QModelIndex current = m_view->currentIndex();
    return {current.data(MatrixModel::RunRowIdRole).toLongLong(),
            current.data(MatrixModel::ShaRole).toString()};
}

// After rows or columns opened or folded: the current cell stays on the run
// it showed where that run still has a cell (a folded group's cell is its
// worst shard's run), on its commit's row; else the panels follow whatever
// cell is current now.
void MainWindow::keepCurrentOn(const CurrentRun& before)
{
    const auto runAt = [this](int row, int column) {
        return m_proxy->index(row, column).data(MatrixModel::RunRowIdRole).toLongLong();
    };
    const QModelIndex current = m_view->currentIndex();
    if (before.run != 0
        && (!current.isValid() || runAt(current.row(), current.column()) != before.run)) {
        for (int row = 0; row < m_proxy->rowCount(); ++row) {
            if (m_proxy->headerData(row, Qt::Vertical, MatrixModel::ShaRole).toString()
                != before.sha)
                continue;
            for (int column = 0; column < m_proxy->columnCount(); ++column)
                if (runAt(row, column) == before.run)
                    return m_view->selectionModel()->setCurrentIndex(
                        m_proxy->index(row, column), QItemSelectionModel::ClearAndSelect);
        }
    }
    const QModelIndex now = m_view->currentIndex();
    if (now.isValid() && now.data(MatrixModel::RunRowIdRole).toLongLong() != m_shownRowId)
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

} // namespace relayhud::ui
