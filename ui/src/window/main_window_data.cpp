// MainWindow: the cache, sync, snapshot merging and the details panel.
#include "relayhud/store/run_store.h"
#include "relayhud/ui/window/main_window.h"

#include "relayhud/ui/common/cache_reader.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/coverage/coverage_panel.h"
#include "relayhud/ui/details/run_details.h"
#include "relayhud/ui/details/run_details_loader.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/filter_bar.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/results/test_results_controller.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/settings/settings_dialog.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/snapshot_loader.h"
#include "relayhud/ui/sync/sync_controller.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/triage/triage_controller.h"
#include "relayhud/ui/watch/watch_controller.h"
#include "relayhud/util/time.h"

#include <QDockWidget>
#include <QSettings>
#include <QUndoStack>

namespace relayhud::ui {

void MainWindow::openCache()
{
    const QString path = m_config.settings.effectiveCachePath();
    m_status->setCachePath(path);
    m_reader->setCachePath(path.toStdString());
    m_settingsAsked = false; // an answer from the old cache is dropped
    m_loader->setCachePath(path.toStdString());
    m_detailsLoader->setCachePath(path.toStdString());
    // The first open makes the cache (its folder, its schema) on a worker.
    m_reader->read<std::optional<std::string>>(
        [](const Database& cache) { return cache.meta("last_sync"); },
        [this](const Result<std::optional<std::string>>& last) {
            if (!last) {
                // The matrix says why too, whichever of this read and the
                // snapshot's finds the damage first.
                m_cacheError = toQString(last.message());
                m_status->showCacheError(m_cacheError);
                updateEmptyText();
            } else if (*last)
                m_status->showLastSync(parseTimestamp(**last).value_or(0));
        });
}

void MainWindow::configureSync()
{
    const AppSettings& s = m_config.settings;
    SyncRequest request;
    request.hudUrl = s.hudUrl.toStdString();
    request.cachePath = s.effectiveCachePath().toStdString();
    request.options.days = s.historyDays;
    for (const QString& backend : s.backends)
        request.options.backends.push_back(backend.toStdString());
    request.artifacts = artifactAccess();
    request.artifactOptions.policy = s.artifactPolicy;
    request.artifactOptions.days = s.historyDays;
    for (const QString& file : s.ruleFiles)
        request.artifactOptions.ruleFiles.push_back(file.toStdString());
    m_sync->setRequest(request);
    m_sync->setInterval(std::chrono::minutes(s.syncIntervalMinutes));
}

void MainWindow::applySettings(const AppSettings& next)
{
    const AppSettings previous = m_config.settings;
    if (next == previous)
        return;
    m_config.settings = next;
    if (m_config.persistSettings) {
        QSettings store;
        saveSettings(store, next);
    }
    const bool cacheMoved = next.effectiveCachePath() != previous.effectiveCachePath();
    if (cacheMoved) {
        openCache();
        m_triage->setCachePath(next.effectiveCachePath().toStdString());
        m_undo->clear(); // its tags live in the old cache
    }
    applyCredentials(); // the artifact endpoints may have changed
    const bool coverageChanged = next.outcomeConfigs != previous.outcomeConfigs
                                 || next.shrinkPercent != previous.shrinkPercent;
    if (cacheMoved || coverageChanged)
        applyCoverageSettings();
    if (coverageChanged && !cacheMoved)
        reloadMatrix(); // the greens' marks
    if (cacheMoved) {
        reloadMatrix();
        reloadClusters();
    }
    if (cacheMoved || next.hudUrl != previous.hudUrl || next.backends != previous.backends
        || next.historyDays != previous.historyDays)
        syncNow();
}

// The allowlist the dialog offers is read off the GUI thread first; a cache
// that cannot be read offers none (backends can still be typed in).
void MainWindow::showSettingsDialog()
{
    if (m_settingsAsked)
        return; // a second press while the allowlist is read opens one dialog
    m_settingsAsked = true;
    m_reader->read<std::vector<Backend>>(
        [](const Database& cache) { return RunStore(cache).backends(); },
        [this](const Result<std::vector<Backend>>& backends) {
            m_settingsAsked = false;
            if (!backends)
                m_status->showMessage(
                    tr("The allowlist cannot be read: %1").arg(toQString(backends.message())));
            runSettingsDialog(backends ? *backends : std::vector<Backend>{});
        });
}

void MainWindow::runSettingsDialog(const std::vector<Backend>& allowlist)
{
    SettingsDialog dialog(m_config.settings, allowlist, m_credentials->stored(),
                          m_credentials->keychainProblem(), this);
    if (dialog.exec() != QDialog::Accepted)
        return;
    applySettings(dialog.settings());
    if (dialog.credentialsChanged())
        m_credentials->save(dialog.credentials()); // applied when the keychain answers
}

void MainWindow::syncNow() { m_sync->syncNow(); }

void MainWindow::reloadMatrix()
{
    MatrixQuery query;
    query.latestAttemptOnly = !m_config.settings.showFirstAttempt;
    m_loader->request(query);
}

void MainWindow::updateEmptyText()
{
    QString text;
    if (m_model->rowCount() == 0 && !m_model->commits().rows.empty()
        && m_proxy->filters().view == CommitView::PullRequests)
        text = tr("No pull request in the cache yet: only pushes and scheduled runs, which carry "
                  "no PR number.");
    else if (m_model->rowCount() > 0 && m_proxy->rowCount() == 0
             && m_proxy->filters().view == CommitView::Release
             && rowsInView(m_model->commits(), CommitView::Release) == 0)
        text = tr("No commit is known to aim at a release/* branch: the HUD's rows do not say "
                  "which branch a pull request targets.");
    else if (m_model->rowCount() > 0 && m_proxy->rowCount() == 0
             && m_proxy->filters().view == CommitView::Scheduled
             && rowsInView(m_model->commits(), CommitView::Scheduled) == 0)
        text = tr("No nightly or periodic run in the cache yet.");
    else if (m_model->rowCount() > 0 && m_proxy->rowCount() == 0)
        text = tr("No commit matches the filters.");
    else if (m_model->rowCount() > 0 && m_proxy->columnCount() == 0)
        text = tr("No job column matches the filters.");
    else if (m_model->rowCount() == 0 && !m_cacheError.isEmpty())
        text = tr("The cache cannot be read:\n%1").arg(m_cacheError);
    else if (m_status->isOffline())
        text = tr("Nothing cached yet, and the HUD cannot be reached:\n%1").arg(m_lastSyncError);
    else if (m_sync->isRunning())
        text = tr("Nothing cached yet. Syncing from %1…").arg(m_config.settings.hudUrl);
    else
        text = tr("Nothing cached yet. Sync with File › Sync now (Ctrl+R).");
    m_view->setEmptyText(text);
}

void MainWindow::onSnapshot(const std::shared_ptr<MatrixSnapshot>& snapshot)
{
    m_cacheError.clear();
    m_watcher->snapshotArrived(*snapshot);
    // A sync never takes the cell away: a job whose other shards just
    // arrived opens its new group rather than fold the cell into it.
    changeKeepingCurrent([&] { m_model->merge(std::move(*snapshot)); }, true);
    updateEmptyText();
    m_filterBar->refreshChoices();
    emit matrixRefreshed(m_model->rowCount(), m_model->columnCount());
}

void MainWindow::onSyncSucceeded(const SyncOutcome& outcome)
{
    const SyncReport& r = outcome.report;
    QString summary = tr("Synced %1 backends, %2 runs").arg(r.backends).arg(r.runs);
    if (!r.errors.empty())
        summary += tr(" · %n backend(s) failed", nullptr, static_cast<int>(r.errors.size()));
    QStringList notes;
    for (const auto& w : r.workarounds)
        notes << toQString(w);
    if (!notes.isEmpty())
        summary += tr(" · worked around %n HUD limit(s)", nullptr, static_cast<int>(notes.size()));
    m_status->showSynced(outcome.finishedAt, summary,
                         notes.isEmpty() ? QString() : summary % u"\n\n" % notes.join(u'\n'));
    m_watcher->expectSync();
    m_backendsStale = true;
    reloadBackends();
    m_doctorStale = true;
    reloadDoctor();
    if (outcome.relayHealth)
        m_watcher->relayHealthArrived(static_cast<int>(outcome.relayHealth->overall()),
                                      toQString(outcome.relayHealth->summary()));
    if (outcome.relayHealth)
        m_status->showRelayHealth(
            static_cast<int>(outcome.relayHealth->overall()),
            tr("relay %1").arg(toQString(toString(outcome.relayHealth->overall()))),
            toQString(outcome.relayHealth->summary())
                % tr("\n(from the relay's probe repo %1, as the HUD's /crcr "
                     "page judges it)")
                      .arg(QString::fromLatin1(kProbeRepo)));
    reloadMatrix();
    emit syncSucceeded();
}

void MainWindow::onSyncFailed(const QString& reason, int retryInSeconds)
{
    if (m_cacheError.isEmpty())
        m_status->showOffline(reason, retryInSeconds);
    else // the cache is the problem, whatever else the sync met
        m_status->showCacheError(m_cacheError);
    m_lastSyncError = reason;
    updateEmptyText();
    emit syncFailed(reason);
}

void MainWindow::onCurrentChanged(const QModelIndex& current)
{
    if (m_keepingCurrent)
        return; // changeKeepingCurrent() puts the cell back, then the panels follow
    if (!current.isValid()) {
        m_shownRowId = 0;
        m_coverage->setMessage(tr("Select a cell to see what its run covered."));
        m_details->showMessage(tr("Select a cell to see its run."));
        showTestsFor(0);
        m_testsPanel->setMessage(tr("Select a cell to see its tests."));
        return;
    }
    growDocksForSelection();
    const auto rowId = current.data(MatrixModel::RunRowIdRole).toLongLong();
    m_shownRowId = rowId;
    m_watcher->visited(rowId);
    if (rowId != m_testsRowId)
        showTestsFor(rowId);
    if (rowId != m_coverage->rowId().value)
        showCoverageFor(rowId);
    if (rowId == 0) {
        m_testsPanel->setMessage(tr("No run here."));
        m_details->showMessage(tr("No run of %1 for %2.")
                                   .arg(current.data(MatrixModel::JobRole).toString(),
                                        current.data(MatrixModel::ShortShaRole).toString()));
        return;
    }
    showRunDetails(rowId, m_proxy->mapToSource(current));
}

void MainWindow::showRunDetails(std::int64_t rowId, const QModelIndex& sourceIndex)
{
    // Taken now: by the time the read is back, a sync may have moved the cell.
    m_detailsContext = {};
    // A PR row's cell may hold a run of an earlier head: that head is its commit.
    if (const UpstreamCommit* commit =
            m_model->runCommitAt(sourceIndex.row(), sourceIndex.column()))
        m_detailsContext.commit = *commit;
    if (const MatrixColumn* column = m_model->columnAt(sourceIndex.column())) {
        m_detailsContext.level = column->level;
        m_detailsContext.backend = column->backend;
    }
    m_detailsLoader->load(CheckRunRow{rowId});
}

void MainWindow::onRunDetailsLoaded(const RunDetails& loaded)
{
    if (loaded.rowId.value != m_shownRowId)
        return; // the user moved on
    RunDetails details = loaded;
    if (m_detailsContext.commit)
        details.commit = m_detailsContext.commit;
    if (details.level == Level::Unknown)
        details.level = m_detailsContext.level;
    m_details->showDetails(details, runLinks(details, m_config.settings.hudUrl));
    emit runDetailsShown(details.rowId.value);
}

void MainWindow::onCellActivated(const QModelIndex& index)
{
    if (!index.isValid())
        return;
    m_detailsDock->show();
    m_detailsDock->raise();
    onCurrentChanged(index);
}

bool MainWindow::selectInterestingCell()
{
    QModelIndex best;
    int bestRank = 0;
    // A failure with artifacts shows the most: its failing tests.
    for (int row = 0; row < m_proxy->rowCount() && bestRank < 4; ++row) {
        for (int column = 0; column < m_proxy->columnCount(); ++column) {
            const QModelIndex index = m_proxy->index(row, column);
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
    m_view->selectionModel()->setCurrentIndex(best, QItemSelectionModel::ClearAndSelect);
    m_view->scrollTo(best, QAbstractItemView::EnsureVisible);
    return true;
}

} // namespace relayhud::ui
