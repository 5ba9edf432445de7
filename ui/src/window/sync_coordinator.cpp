#include "relayhud/ui/window/sync_coordinator.h"

#include "relayhud/store/database.h"
#include "relayhud/ui/common/cache_reader.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/filter_bar.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/sync/snapshot_loader.h"
#include "relayhud/ui/sync/sync_controller.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/util/time.h"

namespace relayhud::ui {

SyncCoordinator::SyncCoordinator(Frame frame, QObject* parent) : QObject(parent), m_frame(frame)
{
    SyncController* sync = m_frame.sync;
    SyncStatusWidget* status = m_frame.status;
    connect(m_frame.loader, &SnapshotLoader::loaded, this, &SyncCoordinator::onSnapshot);
    connect(m_frame.loader, &SnapshotLoader::failed, this, &SyncCoordinator::showCacheError);
    connect(sync, &SyncController::started, this, [this] {
        m_frame.status->showSyncing({}, 0, 0);
        updateEmptyText();
    });
    connect(m_frame.proxy, &MatrixFilterProxy::filtersChanged, this,
            &SyncCoordinator::updateEmptyText);
    connect(sync, &SyncController::progressed, status, &SyncStatusWidget::showSyncing);
    connect(sync, &SyncController::succeeded, this, &SyncCoordinator::onSucceeded);
    connect(sync, &SyncController::failed, this, &SyncCoordinator::onFailed);
    connect(sync, &SyncController::artifactsProgressed, status,
            [status](int done, int total, const QString&) {
                status->showSyncing(tr("test results"), done, total);
            });
    connect(sync, &SyncController::artifactsFinished, this, &SyncCoordinator::onArtifacts);
}

void SyncCoordinator::openCache()
{
    const QString path = m_frame.settings->effectiveCachePath();
    m_frame.status->setCachePath(path);
    m_frame.loader->setCachePath(path.toStdString());
    // The first open makes the cache (its folder, its schema) on a worker.
    m_frame.reader->read<std::optional<std::string>>(
        [](const Database& cache) { return cache.meta("last_sync"); },
        [this](const Result<std::optional<std::string>>& last) {
            if (!last) // the matrix says why too, whichever read finds the damage first
                showCacheError(toQString(last.message()));
            else if (*last)
                m_frame.status->showLastSync(parseTimestamp(**last).value_or(0));
        });
}

void SyncCoordinator::showCacheError(const QString& reason)
{
    m_cacheError = reason;
    m_frame.status->showCacheError(reason);
    updateEmptyText();
}

void SyncCoordinator::configure(const ArtifactAccess& access)
{
    const AppSettings& s = *m_frame.settings;
    SyncRequest request;
    request.hudUrl = s.hudUrl.toStdString();
    request.cachePath = s.effectiveCachePath().toStdString();
    request.options.days = s.historyDays;
    for (const QString& backend : s.backends)
        request.options.backends.push_back(backend.toStdString());
    request.artifacts = access;
    request.artifactOptions.policy = s.artifactPolicy;
    request.artifactOptions.days = s.historyDays;
    for (const QString& file : s.ruleFiles)
        request.artifactOptions.ruleFiles.push_back(file.toStdString());
    m_frame.sync->setRequest(request);
    m_frame.sync->setInterval(std::chrono::minutes(s.syncIntervalMinutes));
}

void SyncCoordinator::syncNow() { m_frame.sync->syncNow(); }

MatrixQuery matrixQuery(const AppSettings& settings)
{
    MatrixQuery query;
    query.latestAttemptOnly = !settings.showFirstAttempt;
    return query;
}

void SyncCoordinator::reloadMatrix() { m_frame.loader->request(matrixQuery(*m_frame.settings)); }

void SyncCoordinator::updateEmptyText()
{
    QString text;
    if (m_frame.model->rowCount() == 0 && !m_frame.model->commits().rows.empty()
        && m_frame.proxy->filters().view == CommitView::PullRequests)
        text = tr("No pull request in the cache yet: only pushes and scheduled runs, which carry "
                  "no PR number.");
    else if (m_frame.model->rowCount() > 0 && m_frame.proxy->rowCount() == 0
             && m_frame.proxy->filters().view == CommitView::Release
             && rowsInView(m_frame.model->commits(), CommitView::Release) == 0)
        text = tr("No commit is known to aim at a release/* branch: the HUD's rows do not say "
                  "which branch a pull request targets.");
    else if (m_frame.model->rowCount() > 0 && m_frame.proxy->rowCount() == 0
             && m_frame.proxy->filters().view == CommitView::Scheduled
             && rowsInView(m_frame.model->commits(), CommitView::Scheduled) == 0)
        text = tr("No nightly or periodic run in the cache yet.");
    else if (m_frame.model->rowCount() > 0 && m_frame.proxy->rowCount() == 0)
        text = tr("No commit matches the filters.");
    else if (m_frame.model->rowCount() > 0 && m_frame.proxy->columnCount() == 0)
        text = tr("No job column matches the filters.");
    else if (m_frame.model->rowCount() == 0 && !m_cacheError.isEmpty())
        text = tr("The cache cannot be read:\n%1").arg(m_cacheError);
    else if (m_frame.status->isOffline())
        text = tr("Nothing cached yet, and the HUD cannot be reached:\n%1").arg(m_lastSyncError);
    else if (m_frame.sync->isRunning())
        text = tr("Nothing cached yet. Syncing from %1…").arg(m_frame.settings->hudUrl);
    else
        text = tr("Nothing cached yet. Sync with File › Sync now (Ctrl+R).");
    m_frame.view->setEmptyText(text);
}

// Results fetched on demand for this run: a green's verdict mark judged
// without them is judged again.
void SyncCoordinator::resultsRead(qint64 runRowId)
{
    const QModelIndex current = m_frame.view->currentIndex();
    if (current.data(MatrixModel::RunRowIdRole).toLongLong() == runRowId
        && current.data(MatrixModel::CellStateRole).toInt() == static_cast<int>(CellState::Success)
        && current.data(MatrixModel::VerdictRole).toInt()
               == static_cast<int>(MatrixModel::VerdictMark::None))
        reloadMatrix();
}

void SyncCoordinator::onSnapshot(const std::shared_ptr<MatrixSnapshot>& snapshot)
{
    m_cacheError.clear();
    emit snapshotArriving(*snapshot);
    // A sync never takes the cell away: a job whose other shards just
    // arrived opens its new group rather than fold the cell into it.
    MatrixModel* model = m_frame.model;
    m_frame.matrix->changeKeepingCurrent([&] { model->merge(std::move(*snapshot)); }, true);
    updateEmptyText();
    m_frame.filterBar->refreshChoices();
    emit matrixRefreshed(model->rowCount(), model->columnCount());
}

void SyncCoordinator::onSucceeded(const SyncOutcome& outcome)
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
    m_frame.status->showSynced(outcome.finishedAt, summary,
                               notes.isEmpty() ? QString() : summary % u"\n\n" % notes.join(u'\n'));
    emit synced(outcome);
    if (outcome.relayHealth)
        m_frame.status->showRelayHealth(
            static_cast<int>(outcome.relayHealth->overall()),
            tr("relay %1").arg(toQString(toString(outcome.relayHealth->overall()))),
            toQString(outcome.relayHealth->summary())
                % tr("\n(from the relay's probe repo %1, as the HUD's /crcr "
                     "page judges it)")
                      .arg(QString::fromLatin1(kProbeRepo)));
    reloadMatrix();
    emit syncSucceeded();
}

void SyncCoordinator::onFailed(const QString& reason, int retryInSeconds)
{
    if (m_cacheError.isEmpty())
        m_frame.status->showOffline(reason, retryInSeconds);
    else // the cache is the problem, whatever else the sync met
        m_frame.status->showCacheError(m_cacheError);
    m_lastSyncError = reason;
    updateEmptyText();
    emit syncFailed(reason);
}

void SyncCoordinator::onArtifacts(const ArtifactSyncOutcome& outcome)
{
    emit artifactsRead(outcome);
    if (!outcome.ok) {
        m_frame.status->showMessage(tr("Test results: %1").arg(outcome.error));
        emit artifactsSynced();
        return;
    }
    const ArtifactSyncReport& r = outcome.report;
    if (r.runs > 0)
        m_frame.status->showMessage(tr("Test results of %1 runs fetched (%2 expired, %3 failed)")
                                        .arg(r.stored)
                                        .arg(r.expired)
                                        .arg(r.failed + r.unauthorized));
    if (!r.errors.empty())
        m_frame.status->showMessage(tr("Test results: %1").arg(toQString(r.errors.front())));
    if (r.jobLogsLeft > 0 || r.runsLeft > 0) // only a cancelled pass leaves some
        m_frame.status->showMessage(tr("Left %1 failed jobs' logs unread and %2 runs' test results "
                                       "unfetched; the next sync reads them")
                                        .arg(r.jobLogsLeft)
                                        .arg(r.runsLeft));
    if (r.stored > 0)
        reloadMatrix(); // greens with new results get their verdict marks
    emit artifactsSynced();
}

} // namespace relayhud::ui
