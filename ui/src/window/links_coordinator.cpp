#include "relayhud/ui/window/links_coordinator.h"

#include "relayhud/store/run_store.h"
#include "relayhud/ui/common/cache_reader.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/jump/jump_box.h"
#include "relayhud/ui/links/app_link.h"
#include "relayhud/ui/links/link_target.h"
#include "relayhud/ui/matrix/commit_header_view.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/snapshot_loader.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include <QAction>
#include <QClipboard>
#include <QGuiApplication>
#include <QMainWindow>
#include <QMenu>
#include <QTreeView>

#include <utility>

namespace relayhud::ui {

LinksCoordinator::LinksCoordinator(Frame frame, QObject* parent)
    : QObject(parent), m_frame(frame), m_jumpAction(new QAction(tr("&Jump to…"), frame.window))
{
    m_jumpAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_jumpAction->setStatusTip(tr("Jump to a commit, PR, backend, job or test of the shown run"));
    m_frame.window->addAction(m_jumpAction);
    connect(m_jumpAction, &QAction::triggered, this, [this] { showJumpBox(); });
    connect(m_frame.loader, &SnapshotLoader::failed, this, [this](const QString& reason) {
        const QStringList pending = std::exchange(m_pendingLinks, {});
        for (const QString& link : pending)
            reportLink(link, false,
                       tr("Cannot open %1: the cache cannot be read (%2)").arg(link, reason));
    });
    TestsCoordinator* tests = m_frame.tests;
    connect(tests, &TestsCoordinator::testsShown, this,
            [this](qint64 run, int, int, int) { selectPendingTest(CheckRunRow{run}, true); });
    connect(tests->controller(), &TestResultsController::loadFailed, this,
            [this, tests](Ticket ticket, const QString&) {
                if (ticket == tests->currentLoad())
                    selectPendingTest(tests->shownRun(), false);
            });
    MatrixView* view = m_frame.view;
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view, &QWidget::customContextMenuRequested, this, &LinksCoordinator::showCellMenu);
    view->commitHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(view->commitHeader(), &QWidget::customContextMenuRequested, this,
            &LinksCoordinator::showCommitMenu);
    tests->panel()->view()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(tests->panel()->view(), &QWidget::customContextMenuRequested, this,
            &LinksCoordinator::showTestMenu);
}

void LinksCoordinator::matrixLoaded()
{
    if (std::exchange(m_matrixLoaded, true))
        return;
    const QStringList pending = std::exchange(m_pendingLinks, {});
    for (const QString& link : pending)
        actOnLink(link);
}

void LinksCoordinator::openLink(const QString& link)
{
    if (!m_matrixLoaded) {
        m_pendingLinks << link;
        return;
    }
    actOnLink(link);
}

void LinksCoordinator::reportLink(const QString& link, bool found, const QString& message)
{
    m_frame.status->showMessage(message);
    emit linkOpened(link, found, message);
}

void LinksCoordinator::actOnLink(const QString& text)
{
    auto parsed = parseAppLink(text);
    if (!parsed)
        return reportLink(text, false, tr("Cannot open %1").arg(toQString(parsed.message())));
    if (parsed->kind == AppLink::Kind::Run)
        return actOnRunLink(text, *parsed);
    const MatrixSnapshot& commits = m_frame.model->commits();
    const auto target = resolveCommitLink(*parsed, commits);
    if (!target)
        return reportLink(text, false, toQString(target.message()));
    const auto& commit = commits.rows[static_cast<std::size_t>(target->row)];
    if (!m_frame.matrix->selectCommit(toQString(commit.sha.value)))
        return reportLink(text, false, m_frame.status->stateText());
    reportLink(text, true, tr("Showing %1").arg(target->what));
}

// Two indexed reads off the GUI thread, as the run details make for every
// cell shown; the link is acted on when they are back.
void LinksCoordinator::actOnRunLink(const QString& text, const AppLink& link)
{
    using Found = std::pair<CheckRunRow, std::optional<CheckRun>>; // no row: unknown here
    m_frame.reader->read<Found>(
        [id = link.checkRun](const Database& cache) -> Result<Found> {
            auto row = RunStore(cache).checkRunRowFor(id);
            if (!row)
                return row.error();
            if (!*row)
                return Found{CheckRunRow{}, std::nullopt};
            auto run = RunStore(cache).checkRun(**row);
            if (!run)
                return run.error();
            return Found{**row, std::move(*run)};
        },
        [this, text, link](const Result<Found>& found) {
            if (!found)
                return reportLink(text, false,
                                  tr("Cannot open %1: %2").arg(text, toQString(found.message())));
            openRunLink(text, link, found->first, found->second);
        });
}

void LinksCoordinator::openRunLink(const QString& text, const AppLink& link, CheckRunRow runRow,
                                   const std::optional<CheckRun>& run)
{
    MatrixModel* model = m_frame.model;
    if (run) {
        m_frame.matrix->revealCommit(toQString(run->upstreamSha.value));
        model->revealJob(run->downstreamRepo, run->workflow, run->jobName);
    }
    auto target = resolveRunLink(link, run, model->snapshot());
    if (target && model->pullRequestView()
        && model->snapshot()
                   .cell(static_cast<std::size_t>(target->row),
                         static_cast<std::size_t>(target->column))
                   .runRowId
               != runRow) {
        // The PR's row shows a later run of the job: the run is in the commits.
        m_frame.proxy->setCommitView(CommitView::All);
        target = resolveRunLink(link, run, model->snapshot());
    }
    if (!target)
        return reportLink(text, false, toQString(target.message()));
    if (!m_frame.matrix->selectSourceCell(target->row, target->column))
        return reportLink(text, false,
                          tr("%1 is in the matrix but no filter reset shows it").arg(target->what));
    if (link.test.isEmpty())
        return reportLink(text, true, tr("Showing %1").arg(target->what));
    TestsCoordinator* tests = m_frame.tests;
    m_pendingTest = link.test;
    m_pendingTestLink = text;
    m_pendingTestRun =
        CheckRunRow{m_frame.view->currentIndex().data(MatrixModel::RunRowIdRole).toLongLong()};
    tests->raise();
    if (tests->shownRun() == m_pendingTestRun && tests->panel()->isShowingTable())
        selectPendingTest(m_pendingTestRun, true); // its tests are on screen already
    else
        m_frame.status->showMessage(tr("Showing %1; reading its tests…").arg(target->what));
}

// A run link's test, once its run's tests have loaded (or failed to).
void LinksCoordinator::selectPendingTest(CheckRunRow run, bool loaded)
{
    if (m_pendingTest.isEmpty() || run != m_pendingTestRun)
        return;
    const QString test = std::exchange(m_pendingTest, {});
    const QString link = std::exchange(m_pendingTestLink, {});
    m_pendingTestRun = {};
    TestsPanel* panel = m_frame.tests->panel();
    if (!loaded)
        return reportLink(
            link, false,
            tr("Showing the run, but its tests could not be read (%1)").arg(panel->messageText()));
    if (!panel->selectIdentity(test))
        return reportLink(link, false,
                          tr("Showing the run, but %1 is not among its tests (or the tests "
                             "filter hides it)")
                              .arg(test));
    reportLink(link, true, tr("Showing %1 in its run").arg(test));
}

void LinksCoordinator::copy(const QString& link)
{
    QGuiApplication::clipboard()->setText(link);
    m_frame.status->showMessage(tr("Copied %1").arg(link));
}

// The run's relay id is read off the GUI thread (one row by its key); the
// link reaches the clipboard when it is back.
void LinksCoordinator::copyCellLink(CheckRunRow runRow)
{
    m_frame.reader->read<CheckRunId>(
        [runRow](const Database& cache) -> Result<CheckRunId> {
            auto run = RunStore(cache).checkRun(runRow);
            if (!run)
                return run.error();
            return run->checkRunId;
        },
        [this](const Result<CheckRunId>& id) {
            if (!id)
                return m_frame.status->showMessage(
                    tr("Cannot copy the run's link: %1").arg(toQString(id.message())));
            if (id->value.empty())
                return m_frame.status->showMessage(
                    tr("This run has no check run id to link to (the relay reported none)"));
            copy(runLinkUrl(*id));
        });
}

QString LinksCoordinator::commitLink(int proxyRow) const
{
    const QString sha =
        m_frame.proxy->headerData(proxyRow, Qt::Vertical, MatrixModel::ShaRole).toString();
    return sha.isEmpty() ? QString() : commitLinkUrl(sha);
}

QString LinksCoordinator::testLink(const QString& identity) const
{
    const TestsCoordinator* tests = m_frame.tests;
    if (!tests->shownRun() || tests->shownCheckRunId().value.empty() || identity.isEmpty())
        return {};
    return runLinkUrl(tests->shownCheckRunId(), identity);
}

void LinksCoordinator::showCellMenu(const QPoint& pos)
{
    MatrixView* view = m_frame.view;
    const QModelIndex index = view->indexAt(pos);
    if (!index.isValid())
        return;
    QMenu menu(m_frame.window);
    const CheckRunRow run{index.data(MatrixModel::RunRowIdRole).toLongLong()};
    QAction* link = menu.addAction(tr("Copy link"), this, [this, run] { copyCellLink(run); });
    link->setEnabled(static_cast<bool>(run));
    link->setStatusTip(!run ? tr("No run in this cell")
                            : tr("A relayhud:// link that opens this run"));
    const QString commit = commitLink(index.row());
    menu.addAction(tr("Copy commit link"), this, [this, commit] { copy(commit); });
    menu.exec(view->viewport()->mapToGlobal(pos));
}

void LinksCoordinator::showCommitMenu(const QPoint& pos)
{
    CommitHeaderView* header = m_frame.view->commitHeader();
    const int row = header->logicalIndexAt(pos);
    if (row < 0)
        return;
    QMenu menu(m_frame.window);
    const QString link = commitLink(row);
    menu.addAction(tr("Copy link"), this, [this, link] { copy(link); });
    const auto pr =
        m_frame.proxy->headerData(row, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
    if (pr > 0)
        menu.addAction(tr("Copy link to PR #%1").arg(pr), this,
                       [this, pr] { copy(pullRequestLinkUrl(PrNumber{pr})); });
    menu.exec(header->viewport()->mapToGlobal(pos));
}

void LinksCoordinator::showTestMenu(const QPoint& pos)
{
    QTreeView* view = m_frame.tests->panel()->view();
    const QModelIndex index = view->indexAt(pos);
    const QString identity = index.siblingAtColumn(0).data(TestsModel::IdentityRole).toString();
    if (identity.isEmpty())
        return; // a group row
    QMenu menu(m_frame.window);
    const QString link = testLink(identity);
    QAction* copyLink = menu.addAction(tr("Copy link"), this, [this, link] { copy(link); });
    copyLink->setEnabled(!link.isEmpty());
    copyLink->setStatusTip(link.isEmpty() ? tr("An imported report has no run to link to") : link);
    menu.addAction(tr("Copy test name"), this,
                   [identity] { QGuiApplication::clipboard()->setText(identity); });
    menu.exec(view->viewport()->mapToGlobal(pos));
}

JumpBox* LinksCoordinator::showJumpBox()
{
    if (!m_jumpBox) {
        m_jumpBox = new JumpBox(m_frame.window);
        connect(m_jumpBox, &JumpBox::chosen, this, [this](const JumpEntry& e) { jumpTo(e); });
    }
    const TestsCoordinator* tests = m_frame.tests;
    JumpIndex index;
    index.setMatrix(m_frame.model->commits());
    if (tests->shownRun() && tests->panel()->isShowingTable())
        index.setTests(tests->panel()->model().results());
    m_jumpBox->setIndex(std::move(index));
    m_jumpBox->popup(m_frame.window->centralWidget()->geometry());
    return m_jumpBox;
}

bool LinksCoordinator::jumpTo(const JumpEntry& entry)
{
    switch (entry.kind) {
    case JumpEntry::Kind::Commit:
    case JumpEntry::Kind::PullRequest: return m_frame.matrix->selectCommit(entry.sha);
    case JumpEntry::Kind::Backend:
    case JumpEntry::Kind::Job: return jumpToColumn(entry);
    case JumpEntry::Kind::Test: break;
    }
    TestsPanel* panel = m_frame.tests->panel();
    m_frame.tests->raise();
    if (!panel->selectIdentity(entry.test)) {
        m_frame.status->showMessage(
            tr("%1 is not among the shown run's tests (or the tests filter hides it)")
                .arg(entry.test));
        return false;
    }
    panel->view()->setFocus();
    return true;
}

// A backend's first column on the current row; a job's column on the newest
// row with a run of it. What the filters show first, then everything.
bool LinksCoordinator::jumpToColumn(const JumpEntry& entry)
{
    MatrixFilterProxy* proxy = m_frame.proxy;
    MatrixView* view = m_frame.view;
    const bool job = entry.kind == JumpEntry::Kind::Job;
    if (job)
        m_frame.model->revealJob(entry.backend.toStdString(), entry.workflow.toStdString(),
                                 entry.job.toStdString());
    const auto header = [proxy](int column, int role) {
        return proxy->headerData(column, Qt::Horizontal, role).toString();
    };
    const auto isWanted = [&](int column) {
        return header(column, MatrixModel::BackendRole) == entry.backend
               && (!job
                   || (header(column, MatrixModel::WorkflowRole) == entry.workflow
                       && header(column, MatrixModel::JobRole) == entry.job));
    };
    for (int pass = 0; pass < 2; ++pass) {
        int column = 0;
        while (column < proxy->columnCount() && !isWanted(column))
            ++column;
        int row = view->currentIndex().isValid() ? view->currentIndex().row() : 0;
        if (job) {
            row = 0;
            while (row < proxy->rowCount()
                   && proxy->index(row, column).data(MatrixModel::RunRowIdRole).toLongLong() == 0)
                ++row;
            if (row == proxy->rowCount() && pass == 1)
                row = 0; // no run of it anywhere: its column on the newest row
        }
        const QModelIndex target = proxy->index(row, column);
        if (target.isValid()) {
            view->selectionModel()->setCurrentIndex(target, QItemSelectionModel::ClearAndSelect);
            view->scrollTo(target, QAbstractItemView::PositionAtCenter);
            view->setFocus();
            return true;
        }
        if (pass == 0 && proxy->filters() != MatrixFilters{})
            proxy->resetFilters(); // the filters hid it: look at everything
    }
    m_frame.status->showMessage(tr("%1 is not in the matrix").arg(entry.text));
    return false;
}

} // namespace relayhud::ui
