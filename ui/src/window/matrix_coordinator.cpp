#include "relayhud/ui/window/matrix_coordinator.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/commit_header_view.h"
#include "relayhud/ui/matrix/job_header_view.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/matrix/triage_walk.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/triage/triage_dialog.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include <QShortcut>
#include <QTreeView>

#include <algorithm>
#include <utility>

namespace relayhud::ui {

namespace {

CheckRunRow runOf(const QModelIndex& index)
{
    return CheckRunRow{index.data(MatrixModel::RunRowIdRole).toLongLong()};
}

WalkCell walkCellAt(const QModelIndex& index)
{
    return {index.row(), index.column(),
            static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt()),
            index.data(MatrixModel::TriageRole).toInt()
                == static_cast<int>(MatrixModel::TriageMark::Untriaged)};
}

} // namespace

MatrixCoordinator::MatrixCoordinator(Frame frame, QObject* parent) : QObject(parent), m_frame(frame)
{
    MatrixView* view = m_frame.view;
    connect(view->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { follow(current); });
    connect(m_frame.proxy, &MatrixFilterProxy::filtersAboutToChange, this,
            &MatrixCoordinator::holdPlace);
    connect(m_frame.proxy, &MatrixFilterProxy::filtersChanged, this,
            &MatrixCoordinator::restorePlace);
    connect(view->commitHeader(), &CommitHeaderView::pullRequestToggled, this,
            &MatrixCoordinator::togglePullRequestHeads);
    connect(view->jobHeader(), &JobHeaderView::shardGroupToggled, this, [this](int column) {
        toggleShardGroup(
            m_frame.proxy->headerData(column, Qt::Horizontal, MatrixModel::ShardFamilyRole)
                .toString());
    });

    // The walk's keys, on the matrix only, so that typing in the filter stays
    // typing; the tests table has its own (TestsPanel::connectTriageKeys).
    const auto key = [this, view](QKeyCombination combination, auto&& action) {
        auto* shortcut = new QShortcut(QKeySequence(combination), view);
        shortcut->setContext(Qt::WidgetShortcut);
        connect(shortcut, &QShortcut::activated, this, action);
    };
    key(QKeyCombination(Qt::Key_J), [this] { walkFailures(true); });
    key(QKeyCombination(Qt::Key_K), [this] { walkFailures(false); });
    key(QKeyCombination(Qt::Key_N), [this] { walkCells(true, true); });
    key(QKeyCombination(Qt::Key_P), [this] { walkCells(false, true); });
    key(QKeyCombination(Qt::Key_Question), [view] { showKeySheet(view->window()); });
    key(QKeyCombination(Qt::SHIFT, Qt::Key_Question), [view] { showKeySheet(view->window()); });
    TestsCoordinator* tests = m_frame.tests;
    tests->panel()->setWalksBeyondRun(true);
    connect(tests->panel(), &TestsPanel::walkRequested, this, &MatrixCoordinator::walkCells);
    connect(tests, &TestsCoordinator::testsShown, this,
            [this](qint64 run, int, int, int) { enterWalkedRun(CheckRunRow{run}); });
    connect(tests->controller(), &TestResultsController::loadFailed, this,
            [this] { m_walkEntry = {}; });
}

void MatrixCoordinator::follow(const QModelIndex& current)
{
    if (m_keepingCurrent)
        return; // changeKeepingCurrent() puts the cell back, then the panels follow
    m_shownRun = current.isValid() ? runOf(current) : CheckRunRow{};
    emit currentRunChanged(current);
}

void MatrixCoordinator::select(const QModelIndex& index, bool centre)
{
    m_frame.view->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect);
    m_frame.view->scrollTo(index, centre ? QAbstractItemView::PositionAtCenter
                                         : QAbstractItemView::EnsureVisible);
}

void MatrixCoordinator::togglePullRequestHeads(int proxyRow)
{
    MatrixModel* model = m_frame.model;
    const auto row = [&](int role) {
        return m_frame.proxy->headerData(proxyRow, Qt::Vertical, role);
    };
    const qint64 pr = row(MatrixModel::PrNumberRole).toLongLong();
    // A PR's row, or one of its earlier heads under it.
    if (pr <= 0
        || row(MatrixModel::RowKindRole).toInt() == static_cast<int>(MatrixModel::RowKind::Commit)
        || row(MatrixModel::HeadsRole).toInt() < 2)
        return;
    changeKeepingCurrent([&] { model->setExpanded(pr, !model->isExpanded(pr)); }, false);
}

void MatrixCoordinator::toggleShardGroup(const QString& family)
{
    if (family.isEmpty())
        return;
    MatrixModel* model = m_frame.model;
    changeKeepingCurrent(
        [&] { model->setShardGroupExpanded(family, !model->isShardGroupExpanded(family)); }, false);
}

MatrixCoordinator::Place MatrixCoordinator::currentPlace() const
{
    const MatrixFilterProxy* proxy = m_frame.proxy;
    const QModelIndex current = m_frame.view->currentIndex();
    Place at;
    if (!current.isValid())
        return at;
    at.cell = true;
    at.run = runOf(current);
    at.sha = current.data(MatrixModel::ShaRole).toString();
    if (m_frame.model->pullRequestView())
        at.pr =
            proxy->headerData(current.row(), Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
    if (const MatrixColumn* column = m_frame.model->columnAt(proxy->mapToSource(current).column()))
        at.column = matrixColumnKey(*column);
    const auto header = [&](int role) {
        return proxy->headerData(current.column(), Qt::Horizontal, role);
    };
    at.group = header(MatrixModel::ShardMembersRole).toInt() > 0;
    at.family = header(MatrixModel::ShardFamilyRole).toString();
    return at;
}

// The current cell, else the one the filters hide.
MatrixCoordinator::Place MatrixCoordinator::placeToKeep() const
{
    const Place now = currentPlace();
    return now.cell ? now : m_lostPlace;
}

// Where `before`'s cell is now, best first: its run on its commit's row (a
// folded group's cell is its worst shard's run); its job on its commit's row
// (a retry replaced the run), or the folded group it went into; the same on
// its PR's row (a new head replaced the row). Invalid when none is shown.
QModelIndex MatrixCoordinator::findPlace(const Place& before) const
{
    const MatrixFilterProxy* proxy = m_frame.proxy;
    std::vector<int> columns; // proxy columns showing before's job, then its folded group
    int folded = -1;
    for (int c = 0; c < proxy->columnCount() && proxy->rowCount() > 0; ++c) {
        const MatrixColumn* column =
            m_frame.model->columnAt(proxy->mapToSource(proxy->index(0, c)).column());
        if (column && matrixColumnKey(*column) == before.column)
            columns.push_back(c);
        else if (!before.family.isEmpty()
                 && proxy->headerData(c, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt() > 0
                 && proxy->headerData(c, Qt::Horizontal, MatrixModel::ShardFamilyRole)
                        == before.family)
            folded = c;
    }
    if (folded >= 0)
        columns.push_back(folded);
    const auto rowWhere = [&](int role, const QVariant& value) {
        for (int row = 0; row < proxy->rowCount(); ++row)
            if (proxy->headerData(row, Qt::Vertical, role) == value)
                return row;
        return -1;
    };
    const int shaRow = rowWhere(MatrixModel::ShaRole, before.sha);
    if (shaRow >= 0 && before.run)
        for (int c = 0; c < proxy->columnCount(); ++c)
            if (runOf(proxy->index(shaRow, c)) == before.run)
                return proxy->index(shaRow, c);
    if (columns.empty())
        return {};
    if (shaRow >= 0)
        return proxy->index(shaRow, columns.front());
    const int prRow = before.pr > 0 ? rowWhere(MatrixModel::PrNumberRole, before.pr) : -1;
    return prRow >= 0 ? proxy->index(prRow, columns.front()) : QModelIndex();
}

void MatrixCoordinator::changeKeepingCurrent(const std::function<void()>& change, bool revealFolded)
{
    const Place before = placeToKeep();
    const bool outer = std::exchange(m_keepingCurrent, true);
    change();
    settlePlace(before, revealFolded, outer, false);
}

// After a change made with the panels held: the current cell goes back where
// findPlace() finds `before`. A cell that a filter or a view tab now hides
// (`filtered`), or that a merge left in the model but hidden, leaves no cell
// current and the panels on its run, until a later change shows it again;
// else the current cell stays where the views left it. With `revealFolded`, a
// job's cell whose run the change folded into a shard group opens that group;
// a folded group's cell stays on its group.
void MatrixCoordinator::settlePlace(const Place& before, bool revealFolded, bool outer,
                                    bool filtered)
{
    MatrixView* view = m_frame.view;
    QModelIndex found = before.cell ? findPlace(before) : QModelIndex();
    const bool lost = !found.isValid() || runOf(found) != before.run;
    if (revealFolded && before.cell && !before.group && before.run && lost) {
        m_frame.model->revealRun(before.run.value);
        if (const QModelIndex again = findPlace(before); again.isValid())
            found = again;
    }
    if (found.isValid()) {
        m_lostPlace = {};
        if (found != view->currentIndex())
            view->selectionModel()->setCurrentIndex(found, QItemSelectionModel::ClearAndSelect);
    } else if (before.cell && (filtered || modelHasRun(before.run))) {
        m_lostPlace = before;
        view->selectionModel()->clear();
    } else {
        m_lostPlace = {};
    }
    m_keepingCurrent = outer;
    if (outer)
        return; // the outer change settles the panels
    const QModelIndex now = view->currentIndex();
    if (!now.isValid() && m_lostPlace.cell)
        return; // the panels keep the hidden cell's run
    if (now.isValid() ? runOf(now) != m_shownRun : before.cell)
        follow(now);
}

bool MatrixCoordinator::modelHasRun(CheckRunRow run) const
{
    const MatrixModel* model = m_frame.model;
    for (int row = 0; run && row < model->rowCount(); ++row)
        for (int column = 0; column < model->columnCount(); ++column)
            if (runOf(model->index(row, column)) == run)
                return true;
    return false;
}

void MatrixCoordinator::holdPlace()
{
    if (m_placeHeld)
        return;
    m_heldPlace = placeToKeep();
    m_heldOuter = std::exchange(m_keepingCurrent, true);
    m_placeHeld = true;
}

void MatrixCoordinator::restorePlace()
{
    if (!std::exchange(m_placeHeld, false))
        return;
    settlePlace(m_heldPlace, false, m_heldOuter, true);
}

void MatrixCoordinator::revealCommit(const QString& sha)
{
    MatrixModel* model = m_frame.model;
    if (!model->pullRequestView())
        return;
    for (const UpstreamCommit& commit : model->snapshot().rows)
        if (toQString(commit.sha.value) == sha)
            return; // shown already
    for (const UpstreamCommit& commit : model->commits().rows)
        if (commit.prNumber.value > 0 && toQString(commit.sha.value) == sha)
            return model->setExpanded(commit.prNumber.value, true);
}

bool MatrixCoordinator::selectRun(CheckRunRow run)
{
    MatrixFilterProxy* proxy = m_frame.proxy;
    m_frame.model->revealRun(run.value); // its shard group, if folded
    for (int pass = 0; pass < 2; ++pass) {
        for (int row = 0; row < proxy->rowCount(); ++row)
            for (int column = 0; column < proxy->columnCount(); ++column) {
                const QModelIndex index = proxy->index(row, column);
                if (runOf(index) != run)
                    continue;
                select(index, true);
                return true;
            }
        if (pass == 0 && proxy->filters() != MatrixFilters{})
            proxy->resetFilters();
        else
            break;
    }
    m_frame.status->showMessage(tr("That run is no longer in the matrix"));
    return false;
}

bool MatrixCoordinator::selectCommit(const QString& sha)
{
    MatrixFilterProxy* proxy = m_frame.proxy;
    revealCommit(sha);
    for (int pass = 0; pass < 2; ++pass) {
        for (int row = 0; row < proxy->rowCount(); ++row) {
            if (proxy->headerData(row, Qt::Vertical, MatrixModel::ShaRole).toString() != sha)
                continue;
            // The commit's first failure, else its first run, else its first column.
            select(landingCell(row), true);
            return true;
        }
        if (pass == 0 && proxy->filters() != MatrixFilters{})
            proxy->resetFilters(); // the filters hid it: show every commit
        else
            break;
    }
    m_frame.status->showMessage(tr("Commit %1 is not in the matrix").arg(sha.left(7)));
    return false;
}

bool MatrixCoordinator::selectSourceCell(int row, int column)
{
    MatrixFilterProxy* proxy = m_frame.proxy;
    const QModelIndex source = m_frame.model->index(row, column);
    QModelIndex shown = proxy->mapFromSource(source);
    if (!shown.isValid() && proxy->filters() != MatrixFilters{}) {
        proxy->resetFilters();
        shown = proxy->mapFromSource(source);
    }
    if (!shown.isValid())
        return false;
    select(shown, true);
    return true;
}

bool MatrixCoordinator::selectInterestingCell()
{
    const MatrixFilterProxy* proxy = m_frame.proxy;
    QModelIndex best;
    int bestRank = 0;
    // A failure with artifacts shows the most: its failing tests.
    for (int row = 0; row < proxy->rowCount() && bestRank < 4; ++row) {
        for (int column = 0; column < proxy->columnCount(); ++column) {
            const QModelIndex index = proxy->index(row, column);
            const auto state =
                static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt());
            const bool artifacts = index.data(MatrixModel::HasArtifactsRole).toBool();
            const int rank = state == CellState::Failure    ? (artifacts ? 4 : 3)
                             : state == CellState::TimedOut ? 2
                             : state == CellState::Empty    ? 0
                                                            : 1;
            if (rank > bestRank) {
                best = index;
                bestRank = rank;
            }
        }
    }
    if (!best.isValid())
        return false;
    select(best, false);
    return true;
}

// A row's first failure (matrix/triage_walk.h), else its first run, else its
// first column.
QModelIndex MatrixCoordinator::landingCell(int proxyRow) const
{
    const MatrixFilterProxy* proxy = m_frame.proxy;
    std::vector<WalkCell> cells;
    int firstRun = -1;
    for (int column = 0; column < proxy->columnCount(); ++column) {
        const QModelIndex index = proxy->index(proxyRow, column);
        cells.push_back(walkCellAt(index));
        if (firstRun < 0 && runOf(index))
            firstRun = column;
    }
    const std::optional<int> failure = TriageWalk::landingColumn(cells);
    return proxy->index(proxyRow, failure ? *failure : std::max(firstRun, 0));
}

void MatrixCoordinator::walkFailures(bool forward)
{
    const QModelIndex current = m_frame.view->currentIndex();
    const TestsCoordinator* tests = m_frame.tests;
    if (current.isValid() && tests->shownRun() && runOf(current) == tests->shownRun()
        && tests->panel()->isShowingTable() && tests->panel()->stepUntriagedInRun(forward))
        return;
    walkCells(forward, false);
}

void MatrixCoordinator::walkCells(bool forward, bool wholeCell)
{
    MatrixView* view = m_frame.view;
    TestsPanel* panel = m_frame.tests->panel();
    const TriageWalk walk(failedCells());
    const QModelIndex current = view->currentIndex();
    const auto step = walk.step(
        current.isValid() ? std::optional<WalkCell>(walkCellAt(current)) : std::nullopt, forward);
    if (!step) {
        m_frame.status->showMessage(
            walk.stops().empty() ? tr("No untriaged failure in the matrix as filtered")
                                 : tr("No other untriaged failure in the matrix as filtered"));
        return;
    }
    const QModelIndex target = m_frame.proxy->index(step->cell.row, step->cell.column);
    const CheckRunRow run = runOf(target);
    // n / p open a cell on its first untriaged failure; k on its last.
    m_walkEntry = {run, wholeCell || forward, panel->view()->hasFocus()};
    if (m_walkEntry.focusTests)
        view->setFocus(Qt::ShortcutFocusReason); // the keys go on working while tests load
    select(target, false);
    if (step->wrapped)
        m_frame.status->showMessage(
            forward ? tr("Past the last untriaged failure: back to the newest")
                    : tr("Before the first untriaged failure: on to the oldest"));
    if (run == m_frame.tests->shownRun() && panel->isShowingTable())
        enterWalkedRun(run); // its tests are on screen already
}

std::vector<WalkCell> MatrixCoordinator::failedCells() const
{
    const MatrixFilterProxy* proxy = m_frame.proxy;
    std::vector<WalkCell> cells;
    for (int row = 0; row < proxy->rowCount(); ++row)
        for (int column = 0; column < proxy->columnCount(); ++column) {
            const QModelIndex index = proxy->index(row, column);
            const auto state =
                static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt());
            if (failureRank(state))
                cells.push_back(walkCellAt(index));
        }
    return cells;
}

void MatrixCoordinator::enterWalkedRun(CheckRunRow run)
{
    if (!m_walkEntry.run || m_walkEntry.run != run)
        return;
    const WalkEntry entry = std::exchange(m_walkEntry, {});
    TestsPanel* panel = m_frame.tests->panel();
    panel->enterRun(entry.forward);
    if (entry.focusTests && panel->isShowingTable())
        panel->view()->setFocus(Qt::ShortcutFocusReason);
}

} // namespace relayhud::ui
