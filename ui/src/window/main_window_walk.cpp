// MainWindow: keyboard triage across the matrix (issue 36). j / k walk every
// untriaged failure as shown, the tests of a run and then the next failed
// cell's, newest commit first and worst first (matrix/triage_walk.h); n / p
// go cell by cell. And the place kept: a filter or a view tab that hides the
// current cell leaves the panels on its run until a filter shows it again.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/matrix/triage_walk.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/triage/triage_dialog.h"

#include <QShortcut>
#include <QTreeView>

#include <utility>

namespace relayhud::ui {

void MainWindow::buildWalk()
{
    // On the matrix only, so that typing in the filter stays typing; the
    // tests table has its own (TestsPanel::connectTriageKeys).
    const auto key = [this](QKeyCombination combination, auto&& action) {
        auto* shortcut = new QShortcut(QKeySequence(combination), m_view);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, action);
    };
    key(QKeyCombination(Qt::Key_J), [this] { walkFailures(true); });
    key(QKeyCombination(Qt::Key_K), [this] { walkFailures(false); });
    key(QKeyCombination(Qt::Key_N), [this] { walkCells(true, true); });
    key(QKeyCombination(Qt::Key_P), [this] { walkCells(false, true); });
    key(QKeyCombination(Qt::Key_Question), [this] { showKeySheet(this); });
    key(QKeyCombination(Qt::SHIFT, Qt::Key_Question), [this] { showKeySheet(this); });
    m_testsPanel->setWalksBeyondRun(true);
    connect(m_testsPanel, &TestsPanel::walkRequested, this, &MainWindow::walkCells);
    connect(this, &MainWindow::testsShown, this,
            [this](std::int64_t rowId, int, int, int) { enterWalkedRun(rowId); });
    connect(m_tests, &TestResultsController::loadFailed, this, [this] { m_walkEntry = {}; });
    connect(m_proxy, &MatrixFilterProxy::filtersAboutToChange, this, &MainWindow::holdPlace);
    connect(m_proxy, &MatrixFilterProxy::filtersChanged, this, &MainWindow::restorePlace);
}

// j / k in the matrix: the shown run's next untriaged failing test, then the
// next failed cell's.
void MainWindow::walkFailures(bool forward)
{
    const QModelIndex current = m_view->currentIndex();
    if (current.isValid() && m_testsRowId != 0
        && current.data(MatrixModel::RunRowIdRole).toLongLong() == m_testsRowId
        && m_testsPanel->isShowingTable() && m_testsPanel->stepUntriagedInRun(forward))
        return;
    walkCells(forward, false);
}

void MainWindow::walkCells(bool forward, bool wholeCell)
{
    const TriageWalk walk(failedCells());
    const QModelIndex current = m_view->currentIndex();
    const auto step = walk.step(
        current.isValid() ? std::optional<WalkCell>(walkCellAt(current)) : std::nullopt, forward);
    if (!step) {
        m_status->showMessage(walk.stops().empty()
                                  ? tr("No untriaged failure in the matrix as filtered")
                                  : tr("No other untriaged failure in the matrix as filtered"));
        return;
    }
    const QModelIndex target = m_proxy->index(step->cell.row, step->cell.column);
    const std::int64_t rowId = target.data(MatrixModel::RunRowIdRole).toLongLong();
    // n / p open a cell on its first untriaged failure; k on its last.
    m_walkEntry = {rowId, wholeCell || forward, m_testsPanel->view()->hasFocus()};
    if (m_walkEntry.focusTests)
        m_view->setFocus(Qt::ShortcutFocusReason); // the keys go on working while tests load
    m_view->selectionModel()->setCurrentIndex(target, QItemSelectionModel::ClearAndSelect);
    m_view->scrollTo(target, QAbstractItemView::EnsureVisible);
    if (step->wrapped)
        m_status->showMessage(forward ? tr("Past the last untriaged failure: back to the newest")
                                      : tr("Before the first untriaged failure: on to the oldest"));
    if (rowId == m_testsRowId && m_testsPanel->isShowingTable())
        enterWalkedRun(rowId); // its tests are on screen already
}

std::vector<WalkCell> MainWindow::failedCells() const
{
    std::vector<WalkCell> cells;
    for (int row = 0; row < m_proxy->rowCount(); ++row)
        for (int column = 0; column < m_proxy->columnCount(); ++column) {
            const QModelIndex index = m_proxy->index(row, column);
            const auto state =
                static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt());
            if (failureRank(state))
                cells.push_back(walkCellAt(index));
        }
    return cells;
}

WalkCell MainWindow::walkCellAt(const QModelIndex& index) const
{
    return {index.row(), index.column(),
            static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt()),
            index.data(MatrixModel::TriageRole).toInt()
                == static_cast<int>(MatrixModel::TriageMark::Untriaged)};
}

void MainWindow::enterWalkedRun(std::int64_t rowId)
{
    if (m_walkEntry.rowId == 0 || m_walkEntry.rowId != rowId)
        return;
    const WalkEntry entry = std::exchange(m_walkEntry, {});
    m_testsPanel->enterRun(entry.forward);
    if (entry.focusTests && m_testsPanel->isShowingTable())
        m_testsPanel->view()->setFocus(Qt::ShortcutFocusReason);
}

// A row's first failure (matrix/triage_walk.h), else its first run, else its
// first column.
QModelIndex MainWindow::landingCell(int proxyRow) const
{
    std::vector<WalkCell> cells;
    int firstRun = -1;
    for (int column = 0; column < m_proxy->columnCount(); ++column) {
        const QModelIndex index = m_proxy->index(proxyRow, column);
        cells.push_back(walkCellAt(index));
        if (firstRun < 0 && index.data(MatrixModel::RunRowIdRole).toLongLong() != 0)
            firstRun = column;
    }
    const std::optional<int> failure = TriageWalk::landingColumn(cells);
    return m_proxy->index(proxyRow, failure ? *failure : std::max(firstRun, 0));
}

// The current cell, else the one the filters hide.
MainWindow::CurrentRun MainWindow::placeToKeep() const
{
    const CurrentRun now = currentRun();
    return now.cell ? now : m_lostPlace;
}

bool MainWindow::modelHasRun(qint64 run) const
{
    for (int row = 0; run != 0 && row < m_model->rowCount(); ++row)
        for (int column = 0; column < m_model->columnCount(); ++column)
            if (m_model->index(row, column).data(MatrixModel::RunRowIdRole).toLongLong() == run)
                return true;
    return false;
}

void MainWindow::holdPlace()
{
    if (m_placeHeld)
        return;
    m_heldPlace = placeToKeep();
    m_heldOuter = std::exchange(m_keepingCurrent, true);
    m_placeHeld = true;
}

void MainWindow::restorePlace()
{
    if (!std::exchange(m_placeHeld, false))
        return;
    settlePlace(m_heldPlace, false, m_heldOuter, true);
}

} // namespace relayhud::ui
