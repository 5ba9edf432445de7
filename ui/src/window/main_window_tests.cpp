// MainWindow: the tests dock (a run's test results from its artifacts),
// artifact credentials, and reports opened from disk.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/coverage/coverage_panel.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/results/report_window.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/sync_controller.h"
#include "relayhud/ui/tests/tests_panel.h"

#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QMimeData>
#include <QStandardPaths>

namespace relayhud::ui {

void MainWindow::buildTestsDock()
{
    m_testsPanel = new TestsPanel(this);
    m_testsDock = new QDockWidget(tr("Tests"), this);
    m_testsDock->setObjectName(QStringLiteral("testsDock"));
    m_testsDock->setWidget(m_testsPanel);
    // Below the run details, right of the matrix: the matrix keeps the
    // window's full height (MainWindow::applyDefaultDockSizes).
    addDockWidget(Qt::RightDockWidgetArea, m_testsDock);
    splitDockWidget(m_detailsDock, m_testsDock, Qt::Vertical);
    m_testsPanel->setMessage(tr("Select a cell to see its tests."));
}

void MainWindow::connectTests()
{
    connect(m_tests, &TestResultsController::fetching, this,
            [this](qint64, const QString& what) { m_testsPanel->setLoading(what); });
    connect(m_tests, &TestResultsController::loaded, this, &MainWindow::onTestsLoaded);
    connect(m_tests, &TestResultsController::loadFailed, this,
            [this](qint64, const QString& reason) {
                m_testsPanel->setMessage(tr("Cannot show this run's tests: %1").arg(reason));
                m_testsReadFailed = true;
                emit testsFailed(reason);
            });
    connect(m_testsPanel, &TestsPanel::tracebackRequested, this,
            [this](qint64 textId) { m_tests->loadText(m_testsLoad, textId); });
    connect(
        m_tests, &TestResultsController::textLoaded, this,
        [this](qint64 loadId, qint64 textId, const QString& text, bool cut, const QString& full) {
            if (loadId == m_testsLoad)
                m_testsPanel->setTraceback(textId, text, cut, full);
        });
    connect(m_testsPanel, &TestsPanel::historyRequested, this, [this](qint64 testId) {
        if (m_testsRowId != 0)
            m_tests->loadHistory(m_testsLoad, CheckRunRow{m_testsRowId}, testId);
    });
    connect(m_tests, &TestResultsController::historyLoaded, this,
            [this](qint64 loadId, const TestHistory& history) {
                if (loadId == m_testsLoad)
                    m_testsPanel->setHistory(history);
            });
    connect(m_tests, &TestResultsController::imported, this, &MainWindow::onReportImported);
    connect(m_tests, &TestResultsController::importFailed, this, [this](const QString& reason) {
        m_status->showMessage(tr("Could not open the report: %1").arg(reason));
        emit reportFailed(reason);
    });
    connect(m_sync, &SyncController::artifactsProgressed, this,
            [this](int done, int total, const QString&) {
                m_status->showSyncing(tr("test results"), done, total);
            });
    connect(m_sync, &SyncController::artifactsFinished, this, &MainWindow::onArtifactsSynced);
    connect(m_credentials, &CredentialStore::loaded, this, &MainWindow::applyCredentials);
    connect(m_credentials, &CredentialStore::saved, this, [this](const QString& error) {
        if (!error.isEmpty())
            m_status->showMessage(tr("The keychain did not keep the tokens: %1").arg(error));
        applyCredentials();
    });
}

ArtifactAccess MainWindow::artifactAccess() const
{
    return {artifactSettings(m_config.settings), m_credentials->credentials()};
}

// Tokens arrive from the keychain after start: hand them to both workers.
void MainWindow::applyCredentials()
{
    m_tests->setAccess(m_config.settings.effectiveCachePath().toStdString(), artifactAccess());
    configureSync();
    applyTeamSettings(); // the team server's password is the keychain's too
}

void MainWindow::showTestsFor(std::int64_t rowId)
{
    m_testsRowId = rowId;
    m_testsCheckRunId = {};
    if (rowId == 0) {
        m_tests->clear();
        m_testsLoad = m_tests->currentLoad();
        return;
    }
    m_testsPanel->setLoading(tr("Reading test results…"));
    m_testsLoad = m_tests->loadRun(CheckRunRow{rowId}, true);
}

void MainWindow::onTestsLoaded(const std::shared_ptr<const TestsPanelData>& loaded)
{
    if (loaded->loadId != m_testsLoad)
        return;
    m_testsReadFailed = false;
    m_testsBase = loaded->triageBase;
    m_testsCheckRunId = loaded->checkRunId;
    m_testsPanel->setData(loaded);
    int failing = 0;
    for (const StoredTestResult& r : loaded->results)
        failing += isFailingOutcome(r.outcome) ? 1 : 0;
    emit testsShown(m_testsRowId, static_cast<int>(loaded->results.size()), failing,
                    static_cast<int>(loaded->histories.size()));
    // Results fetched on demand: the green's verdict mark and Coverage tab
    // were judged without them.
    if (!loaded->run.id || loaded->run.checkRunRow != CheckRunRow{m_testsRowId})
        return;
    const QModelIndex current = m_view->currentIndex();
    if (current.data(MatrixModel::RunRowIdRole).toLongLong() == m_testsRowId
        && current.data(MatrixModel::CellStateRole).toInt() == static_cast<int>(CellState::Success)
        && current.data(MatrixModel::VerdictRole).toInt()
               == static_cast<int>(MatrixModel::VerdictMark::None))
        reloadMatrix();
    const verdict::RunVerdict* judged = m_coverage->shown();
    if (m_coverage->rowId().value == m_testsRowId && m_coverage->isVisible()
        && (!judged || judged->checkRunRow.value != m_testsRowId || !judged->testRun))
        m_coverage->refresh(); // a judgement still on its way may predate the results
}

void MainWindow::onArtifactsSynced(const ArtifactSyncOutcome& outcome)
{
    // With what this pass fetched.
    m_watcher->attributeAwaitedFailures(m_config.settings.effectiveCachePath());
    if (!outcome.ok) {
        m_status->showMessage(tr("Test results: %1").arg(outcome.error));
        emit artifactsSynced();
        return;
    }
    const ArtifactSyncReport& r = outcome.report;
    if (r.runs > 0)
        m_status->showMessage(tr("Test results of %1 runs fetched (%2 expired, %3 failed)")
                                  .arg(r.stored)
                                  .arg(r.expired)
                                  .arg(r.failed + r.unauthorized));
    if (!r.errors.empty())
        m_status->showMessage(tr("Test results: %1").arg(toQString(r.errors.front())));
    if (r.jobLogsLeft > 0 || r.runsLeft > 0) // only a cancelled pass leaves some
        m_status->showMessage(tr("Left %1 failed jobs' logs unread and %2 runs' test results "
                                 "unfetched; the next sync reads them")
                                  .arg(r.jobLogsLeft)
                                  .arg(r.runsLeft));
    if (r.stored > 0) {
        reloadClusters();
        reloadMatrix(); // greens with new results get their verdict marks
        if (m_coverage->rowId())
            m_coverage->refresh();
    }
    // The shown run may have just received its results; or its own fetch
    // failed meanwhile (the pass held the cache): read, or fetch, again.
    if (m_testsRowId != 0 && (r.stored > 0 || m_testsReadFailed))
        m_testsLoad = m_tests->loadRun(CheckRunRow{m_testsRowId}, true);
    // Job logs read: the doctor's tested-SHA check has new evidence.
    if (r.jobLogs > 0 || r.checkoutLogs > 0) {
        m_backendsStale = true;
        reloadBackends();
        m_doctorStale = true;
        reloadDoctor();
    }
    emit artifactsSynced();
}

void MainWindow::showOpenReportDialog(bool folder)
{
    const QString start = QStandardPaths::writableLocation(QStandardPaths::DownloadLocation);
    QStringList paths;
    if (folder) {
        const QString dir =
            QFileDialog::getExistingDirectory(this, tr("Open a folder of reports"), start);
        if (!dir.isEmpty())
            paths << dir;
    } else {
        paths = QFileDialog::getOpenFileNames(
            this, tr("Open test reports"), start,
            tr("Test reports and artifacts (*.xml *.xml.gz *.zip *.tar *.tar.gz *.tgz);;"
               "All files (*)"));
    }
    if (!paths.isEmpty())
        openReports(paths);
}

void MainWindow::openReports(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_status->showMessage(
        tr("Reading %n report path(s)…", nullptr, static_cast<int>(paths.size())));
    m_tests->importPaths(paths);
}

void MainWindow::onReportImported(qint64 testRunId, const QString& label, const QString& summary)
{
    auto* window = new ReportWindow(m_config.settings.effectiveCachePath().toStdString(),
                                    TestRunId{testRunId}, label, summary);
    m_lastReport = window;
    window->show();
    m_status->showMessage(tr("Opened %1: %2").arg(label, summary));
    emit reportOpened(window);
}

ReportWindow* MainWindow::lastReportWindow() const { return m_lastReport.data(); }

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QMimeData* mime = event->mimeData();
    if (mime->hasUrls())
        for (const QUrl& url : mime->urls())
            if (url.isLocalFile()) {
                event->acceptProposedAction();
                return;
            }
}

void MainWindow::dropEvent(QDropEvent* event)
{
    QStringList paths;
    for (const QUrl& url : event->mimeData()->urls())
        if (url.isLocalFile())
            paths << url.toLocalFile();
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    openPaths(paths);
}

} // namespace relayhud::ui
