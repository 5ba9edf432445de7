// MainWindow: links and keys. relayhud://sha|pr|run links from the command
// line or another instance select their place once the matrix has loaded;
// "Copy link" on cells, commit rows and tests; Ctrl+K's jump box over the
// matrix in memory.
#include "relayhud/store/run_store.h"
#include "relayhud/ui/window/main_window.h"

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

#include <QAction>
#include <QClipboard>
#include <QDockWidget>
#include <QGuiApplication>
#include <QMenu>
#include <QTreeView>

#include <utility>

namespace relayhud::ui {

namespace {

void copyToClipboard(const QString& text) { QGuiApplication::clipboard()->setText(text); }

} // namespace

void MainWindow::buildLinks()
{
    m_jumpAction = new QAction(tr("&Jump to…"), this);
    m_jumpAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_jumpAction->setStatusTip(tr("Jump to a commit, PR, backend, job or test of the shown run"));
    addAction(m_jumpAction);
    connect(m_jumpAction, &QAction::triggered, this, [this] { showJumpBox(); });
    connect(this, &MainWindow::matrixRefreshed, this, [this] {
        if (m_matrixLoaded)
            return;
        m_matrixLoaded = true;
        const QStringList pending = std::exchange(m_pendingLinks, {});
        for (const QString& link : pending)
            actOnLink(link);
    });
    connect(m_loader, &SnapshotLoader::failed, this, [this](const QString& reason) {
        const QStringList pending = std::exchange(m_pendingLinks, {});
        for (const QString& link : pending)
            reportLink(link, false,
                       tr("Cannot open %1: the cache cannot be read (%2)").arg(link, reason));
    });
    connect(this, &MainWindow::testsShown, this,
            [this](std::int64_t rowId, int, int, int) { selectPendingTest(rowId, true); });
    connect(m_tests, &TestResultsController::loadFailed, this,
            [this](qint64 loadId, const QString&) {
                if (loadId == m_testsLoad)
                    selectPendingTest(m_testsRowId, false);
            });
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view, &QWidget::customContextMenuRequested, this, &MainWindow::showCellMenu);
    m_view->commitHeader()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_view->commitHeader(), &QWidget::customContextMenuRequested, this,
            &MainWindow::showCommitMenu);
    m_testsPanel->view()->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_testsPanel->view(), &QWidget::customContextMenuRequested, this,
            &MainWindow::showTestMenu);
}

void MainWindow::openLink(const QString& link)
{
    if (!m_matrixLoaded) {
        m_pendingLinks << link;
        return;
    }
    actOnLink(link);
}

void MainWindow::reportLink(const QString& link, bool found, const QString& message)
{
    m_status->showMessage(message);
    emit linkOpened(link, found, message);
}

void MainWindow::actOnLink(const QString& text)
{
    auto parsed = parseAppLink(text);
    if (!parsed)
        return reportLink(text, false, tr("Cannot open %1").arg(toQString(parsed.message())));
    if (parsed->kind == AppLink::Kind::Run)
        return actOnRunLink(text, *parsed);
    const auto target = resolveCommitLink(*parsed, m_model->commits());
    if (!target)
        return reportLink(text, false, toQString(target.message()));
    const auto& commit = m_model->commits().rows[static_cast<std::size_t>(target->row)];
    if (!selectCommit(toQString(commit.sha.value)))
        return reportLink(text, false, m_status->stateText());
    reportLink(text, true, tr("Showing %1").arg(target->what));
}

// Two indexed reads off the GUI thread, as showRunDetails makes for every
// cell shown; the link is acted on when they are back.
void MainWindow::actOnRunLink(const QString& text, const AppLink& link)
{
    using Found = std::pair<std::int64_t, std::optional<CheckRun>>; // row id 0: unknown here
    m_reader->read<Found>(
        [id = link.checkRun](const Database& cache) -> Result<Found> {
            auto row = RunStore(cache).checkRunRowFor(id);
            if (!row)
                return row.error();
            if (!*row)
                return Found{0, std::nullopt};
            auto run = RunStore(cache).checkRun(**row);
            if (!run)
                return run.error();
            return Found{row->value().value, std::move(*run)};
        },
        [this, text, link](const Result<Found>& found) {
            if (!found)
                return reportLink(text, false,
                                  tr("Cannot open %1: %2").arg(text, toQString(found.message())));
            openRunLink(text, link, found->first, found->second);
        });
}

void MainWindow::openRunLink(const QString& text, const AppLink& link, std::int64_t rowId,
                             const std::optional<CheckRun>& run)
{
    if (run) {
        revealCommit(toQString(run->upstreamSha.value));
        m_model->revealJob(run->downstreamRepo, run->workflow, run->jobName);
    }
    auto target = resolveRunLink(link, run, m_model->snapshot());
    if (target && m_model->pullRequestView()
        && m_model->snapshot()
                   .cell(static_cast<std::size_t>(target->row),
                         static_cast<std::size_t>(target->column))
                   .runRowId.value
               != rowId) {
        // The PR's row shows a later run of the job: the run is in the commits.
        m_proxy->setCommitView(CommitView::All);
        target = resolveRunLink(link, run, m_model->snapshot());
    }
    if (!target)
        return reportLink(text, false, toQString(target.message()));
    if (!selectSourceCell(target->row, target->column))
        return reportLink(text, false,
                          tr("%1 is in the matrix but no filter reset shows it").arg(target->what));
    if (link.test.isEmpty())
        return reportLink(text, true, tr("Showing %1").arg(target->what));
    m_pendingTest = link.test;
    m_pendingTestLink = text;
    m_pendingTestRowId = m_view->currentIndex().data(MatrixModel::RunRowIdRole).toLongLong();
    m_testsDock->show();
    m_testsDock->raise();
    if (m_testsRowId == m_pendingTestRowId && m_testsPanel->isShowingTable())
        selectPendingTest(m_testsRowId, true); // its tests are on screen already
    else
        m_status->showMessage(tr("Showing %1; reading its tests…").arg(target->what));
}

// A run link's test, once its run's tests have loaded (or failed to).
void MainWindow::selectPendingTest(std::int64_t rowId, bool loaded)
{
    if (m_pendingTest.isEmpty() || rowId != m_pendingTestRowId)
        return;
    const QString test = std::exchange(m_pendingTest, {});
    const QString link = std::exchange(m_pendingTestLink, {});
    m_pendingTestRowId = 0;
    if (!loaded)
        return reportLink(link, false,
                          tr("Showing the run, but its tests could not be read (%1)")
                              .arg(m_testsPanel->messageText()));
    if (!m_testsPanel->selectIdentity(test))
        return reportLink(link, false,
                          tr("Showing the run, but %1 is not among its tests (or the tests "
                             "filter hides it)")
                              .arg(test));
    reportLink(link, true, tr("Showing %1 in its run").arg(test));
}

// The cell at a model (source) position; filters that hide it are reset.
bool MainWindow::selectSourceCell(int row, int column)
{
    const QModelIndex source = m_model->index(row, column);
    QModelIndex shown = m_proxy->mapFromSource(source);
    if (!shown.isValid() && m_proxy->filters() != MatrixFilters{}) {
        m_proxy->resetFilters();
        shown = m_proxy->mapFromSource(source);
    }
    if (!shown.isValid())
        return false;
    m_view->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect);
    m_view->scrollTo(shown, QAbstractItemView::PositionAtCenter);
    return true;
}

// The run's relay id is read off the GUI thread (one row by its key); the
// link reaches the clipboard when it is back.
void MainWindow::copyCellLink(std::int64_t rowId)
{
    m_reader->read<CheckRunId>(
        [rowId](const Database& cache) -> Result<CheckRunId> {
            auto run = RunStore(cache).checkRun(CheckRunRow{rowId});
            if (!run)
                return run.error();
            return run->checkRunId;
        },
        [this](const Result<CheckRunId>& id) {
            if (!id)
                return m_status->showMessage(
                    tr("Cannot copy the run's link: %1").arg(toQString(id.message())));
            if (id->value.empty())
                return m_status->showMessage(
                    tr("This run has no check run id to link to (the relay reported none)"));
            const QString link = runLinkUrl(*id);
            copyToClipboard(link);
            m_status->showMessage(tr("Copied %1").arg(link));
        });
}

QString MainWindow::commitLink(int proxyRow) const
{
    const QString sha =
        m_proxy->headerData(proxyRow, Qt::Vertical, MatrixModel::ShaRole).toString();
    return sha.isEmpty() ? QString() : commitLinkUrl(sha);
}

QString MainWindow::testLink(const QString& identity) const
{
    if (m_testsRowId == 0 || m_testsCheckRunId.value.empty() || identity.isEmpty())
        return {};
    return runLinkUrl(m_testsCheckRunId, identity);
}

void MainWindow::showCellMenu(const QPoint& pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    QMenu menu(this);
    const auto rowId = index.data(MatrixModel::RunRowIdRole).toLongLong();
    QAction* copy = menu.addAction(tr("Copy link"), this, [this, rowId] { copyCellLink(rowId); });
    copy->setEnabled(rowId != 0);
    copy->setStatusTip(rowId == 0 ? tr("No run in this cell")
                                  : tr("A relayhud:// link that opens this run"));
    const QString commit = commitLink(index.row());
    menu.addAction(tr("Copy commit link"), this, [this, commit] {
        copyToClipboard(commit);
        m_status->showMessage(tr("Copied %1").arg(commit));
    });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

void MainWindow::showCommitMenu(const QPoint& pos)
{
    CommitHeaderView* header = m_view->commitHeader();
    const int row = header->logicalIndexAt(pos);
    if (row < 0)
        return;
    QMenu menu(this);
    const QString link = commitLink(row);
    menu.addAction(tr("Copy link"), this, [this, link] {
        copyToClipboard(link);
        m_status->showMessage(tr("Copied %1").arg(link));
    });
    const auto pr = m_proxy->headerData(row, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
    if (pr > 0)
        menu.addAction(tr("Copy link to PR #%1").arg(pr), this, [this, pr] {
            const QString prLink = pullRequestLinkUrl(pr);
            copyToClipboard(prLink);
            m_status->showMessage(tr("Copied %1").arg(prLink));
        });
    menu.exec(header->viewport()->mapToGlobal(pos));
}

void MainWindow::showTestMenu(const QPoint& pos)
{
    QTreeView* view = m_testsPanel->view();
    const QModelIndex index = view->indexAt(pos);
    const QString identity = index.siblingAtColumn(0).data(TestsModel::IdentityRole).toString();
    if (identity.isEmpty())
        return; // a group row
    QMenu menu(this);
    const QString link = testLink(identity);
    QAction* copy = menu.addAction(tr("Copy link"), this, [this, link] {
        copyToClipboard(link);
        m_status->showMessage(tr("Copied %1").arg(link));
    });
    copy->setEnabled(!link.isEmpty());
    copy->setStatusTip(link.isEmpty() ? tr("An imported report has no run to link to") : link);
    menu.addAction(tr("Copy test name"), this, [identity] { copyToClipboard(identity); });
    menu.exec(view->viewport()->mapToGlobal(pos));
}

JumpBox* MainWindow::showJumpBox()
{
    if (!m_jumpBox) {
        m_jumpBox = new JumpBox(this);
        connect(m_jumpBox, &JumpBox::chosen, this, [this](const JumpEntry& e) { jumpTo(e); });
    }
    JumpIndex index;
    index.setMatrix(m_model->commits());
    if (m_testsRowId != 0 && m_testsPanel->isShowingTable())
        index.setTests(m_testsPanel->model().results());
    m_jumpBox->setIndex(std::move(index));
    m_jumpBox->popup(centralWidget()->geometry());
    return m_jumpBox;
}

bool MainWindow::jumpTo(const JumpEntry& entry)
{
    switch (entry.kind) {
    case JumpEntry::Kind::Commit:
    case JumpEntry::Kind::PullRequest: return selectCommit(entry.sha);
    case JumpEntry::Kind::Backend:
    case JumpEntry::Kind::Job: return jumpToColumn(entry);
    case JumpEntry::Kind::Test: break;
    }
    m_testsDock->show();
    m_testsDock->raise();
    if (!m_testsPanel->selectIdentity(entry.test)) {
        m_status->showMessage(
            tr("%1 is not among the shown run's tests (or the tests filter hides it)")
                .arg(entry.test));
        return false;
    }
    m_testsPanel->view()->setFocus();
    return true;
}

// A backend's first column on the current row; a job's column on the newest
// row with a run of it. What the filters show first, then everything.
bool MainWindow::jumpToColumn(const JumpEntry& entry)
{
    const bool job = entry.kind == JumpEntry::Kind::Job;
    if (job)
        m_model->revealJob(entry.backend.toStdString(), entry.workflow.toStdString(),
                           entry.job.toStdString());
    const auto header = [this](int column, int role) {
        return m_proxy->headerData(column, Qt::Horizontal, role).toString();
    };
    const auto isWanted = [&](int column) {
        return header(column, MatrixModel::BackendRole) == entry.backend
               && (!job
                   || (header(column, MatrixModel::WorkflowRole) == entry.workflow
                       && header(column, MatrixModel::JobRole) == entry.job));
    };
    for (int pass = 0; pass < 2; ++pass) {
        int column = 0;
        while (column < m_proxy->columnCount() && !isWanted(column))
            ++column;
        int row = m_view->currentIndex().isValid() ? m_view->currentIndex().row() : 0;
        if (job) {
            row = 0;
            while (row < m_proxy->rowCount()
                   && m_proxy->index(row, column).data(MatrixModel::RunRowIdRole).toLongLong() == 0)
                ++row;
            if (row == m_proxy->rowCount() && pass == 1)
                row = 0; // no run of it anywhere: its column on the newest row
        }
        const QModelIndex target = m_proxy->index(row, column);
        if (target.isValid()) {
            m_view->selectionModel()->setCurrentIndex(target, QItemSelectionModel::ClearAndSelect);
            m_view->scrollTo(target, QAbstractItemView::PositionAtCenter);
            m_view->setFocus();
            return true;
        }
        if (pass == 0 && m_proxy->filters() != MatrixFilters{})
            m_proxy->resetFilters(); // the filters hid it: look at everything
    }
    m_status->showMessage(tr("%1 is not in the matrix").arg(entry.text));
    return false;
}

} // namespace relayhud::ui
