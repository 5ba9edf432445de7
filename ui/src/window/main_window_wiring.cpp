// MainWindow: the wiring between its parts, artifact credentials, and files
// dropped on the window.
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/coverage/coverage_panel.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/sync_controller.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/backends_coordinator.h"
#include "relayhud/ui/window/config_coordinator.h"
#include "relayhud/ui/window/coverage_coordinator.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/gating_coordinator.h"
#include "relayhud/ui/window/links_coordinator.h"
#include "relayhud/ui/window/logs_coordinator.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/side_column.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"
#include "relayhud/ui/window/triage_coordinator.h"
#include "window/watch_coordinator.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QMimeData>

namespace relayhud::ui {

// What one part tells the others: the window's wiring.
void MainWindow::connectParts()
{
    connect(m_sync, &SyncCoordinator::snapshotArriving, m_watcher,
            &WatchCoordinator::snapshotArrived);
    connect(m_sync, &SyncCoordinator::matrixRefreshed, m_links, &LinksCoordinator::matrixLoaded);
    connect(m_sync, &SyncCoordinator::synced, m_watcher, &WatchCoordinator::syncArrived);
    connect(m_sync, &SyncCoordinator::synced, m_backends, &BackendsCoordinator::reload);
    // A change while the Charts tab is hidden is read when it is next seen.
    connect(m_sync, &SyncCoordinator::syncSucceeded, m_coverage,
            &CoverageCoordinator::reloadCharts);
    connect(m_sync, &SyncCoordinator::syncSucceeded, m_gating, &GatingCoordinator::reload);
    connect(m_sync, &SyncCoordinator::artifactsRead, this, &MainWindow::onArtifactsRead);
    connect(m_credentials, &CredentialStore::loaded, this, &MainWindow::applyCredentials);
    connect(m_credentials, &CredentialStore::saved, this, [this](const QString& error) {
        if (!error.isEmpty())
            m_status->showMessage(tr("The keychain did not keep the tokens: %1").arg(error));
        applyCredentials();
    });
    // The panels follow the current cell (none: each says what to select).
    connect(m_matrix, &MatrixCoordinator::currentRunChanged, this, [this](const QModelIndex& cell) {
        if (!cell.isValid())
            return;
        m_sideColumn->growForSelection(m_layoutRestored);
        m_watcher->visited(cell.data(MatrixModel::RunRowIdRole).toLongLong());
    });
    connect(m_matrix, &MatrixCoordinator::currentRunChanged, m_tests, &TestsCoordinator::follow);
    connect(m_matrix, &MatrixCoordinator::currentRunChanged, m_coverage,
            &CoverageCoordinator::follow);
    connect(m_matrix, &MatrixCoordinator::currentRunChanged, m_details,
            &DetailsCoordinator::follow);
    connect(m_view, &MatrixView::cellActivated, this, [this](const QModelIndex& index) {
        if (!index.isValid())
            return;
        m_details->raise();
        m_matrix->follow(index);
    });
    connect(m_tests, &TestsCoordinator::runResultsRead, m_sync, &SyncCoordinator::resultsRead);
    connect(m_tests, &TestsCoordinator::runResultsRead, m_coverage,
            &CoverageCoordinator::resultsRead);
    connect(m_tests->panel(), &TestsPanel::openInConfigRequested, m_configs,
            &ConfigCoordinator::openTest);
    connect(m_coverage->coveragePanel(), &CoveragePanel::missingTestActivated, m_configs,
            [this](const QString& path, const QString& name) {
                m_configs->openMissingMandatoryTest(path, name);
            });
    connect(m_triage, &TriageCoordinator::triageWritten, m_coverage,
            &CoverageCoordinator::reloadCharts);
    connect(m_triage, &TriageCoordinator::triageImported, m_coverage,
            &CoverageCoordinator::reloadCharts);
}

ArtifactAccess MainWindow::artifactAccess() const
{
    return {artifactSettings(m_config.settings), m_credentials->credentials()};
}

// Tokens arrive from the keychain after start: hand them to both workers.
void MainWindow::applyCredentials()
{
    const ArtifactAccess access = artifactAccess();
    m_tests->controller()->setAccess(m_config.settings.effectiveCachePath().toStdString(), access);
    m_sync->configure(access);
    m_triage->applyTeamSettings(); // the team server's password is the keychain's too
}

// An artifact pass ended: the views that read its results and logs read again.
void MainWindow::onArtifactsRead(const ArtifactSyncOutcome& outcome)
{
    // With what this pass fetched.
    m_watcher->attributeAwaitedFailures(m_config.settings.effectiveCachePath());
    if (!outcome.ok)
        return;
    const ArtifactSyncReport& r = outcome.report;
    if (r.stored > 0) {
        m_triage->reloadClusters();
        m_coverage->resultsStored();
    }
    // The shown run may have just received its results; or its own fetch
    // failed meanwhile (the pass held the cache): read, or fetch, again.
    m_tests->reloadAfterArtifacts(r.stored > 0);
    // Job logs read: the doctor's tested-SHA check has new evidence.
    if (r.jobLogs > 0 || r.checkoutLogs > 0)
        m_backends->reload();
}

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
    m_logs->openPaths(paths);
}

} // namespace relayhud::ui
