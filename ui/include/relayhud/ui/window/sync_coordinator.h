#pragma once
// The cache, the sync and the matrix's snapshot (issue 38). The HUD is synced
// by the SyncController on its interval and on File › Sync now; each
// snapshot, read by the SnapshotLoader off the GUI thread, is merged into the
// matrix with its place kept; the status bar and the matrix's empty text say
// what the cache and the sync are doing, or why not. The other views follow
// its signals.
#include "relayhud/model/matrix_snapshot.h"

#include <QObject>
#include <QString>

#include <memory>

namespace relayhud::ui {

struct AppSettings;
struct ArtifactAccess;
struct ArtifactSyncOutcome;
class CacheReader;
class FilterBar;
class MatrixCoordinator;
class MatrixFilterProxy;
class MatrixModel;
class MatrixView;
class SnapshotLoader;
class SyncController;
struct SyncOutcome;
class SyncStatusWidget;

// The snapshot the settings ask for (newest attempts, or first ones).
MatrixQuery matrixQuery(const AppSettings& settings);

class SyncCoordinator : public QObject {
    Q_OBJECT
public:
    // What of the window it works with; all outlive it. The loader is the
    // window's, asked for the first snapshot before the window is built.
    struct Frame {
        const AppSettings* settings = nullptr;
        CacheReader* reader = nullptr; // the cache's last sync, read on opening
        SnapshotLoader* loader = nullptr;
        SyncController* sync = nullptr;
        MatrixModel* model = nullptr;
        MatrixFilterProxy* proxy = nullptr;
        MatrixView* view = nullptr; // its empty text
        FilterBar* filterBar = nullptr;
        SyncStatusWidget* status = nullptr;
        MatrixCoordinator* matrix = nullptr; // the place kept through a merge
    };
    explicit SyncCoordinator(Frame frame, QObject* parent = nullptr);

    // The settings' cache (the reader is on it): its last sync, or why it
    // cannot be read, in the status bar.
    void openCache();
    // The settings and these artifact credentials, to the sync.
    void configure(const ArtifactAccess& access);
    void syncNow();
    // Rebuilds the snapshot from the cache (worker) and merges it.
    void reloadMatrix();
    // This run's results were just fetched: the current cell's green, if it
    // is this run's and had no verdict mark, gets one.
    void resultsRead(qint64 runRowId);

signals:
    // A snapshot is about to be merged (the watch compares it with the shown one).
    void snapshotArriving(const MatrixSnapshot& next);
    void matrixRefreshed(int rows, int columns);
    // A sync ended well: the outcome first, for the views that read it.
    void synced(const relayhud::ui::SyncOutcome& outcome);
    void syncSucceeded();
    void syncFailed(const QString& reason);
    // An artifact pass ended (results and job logs read, or an error):
    // the outcome first, for the views that read them ...
    void artifactsRead(const relayhud::ui::ArtifactSyncOutcome& outcome);
    // ... which were then asked to reload.
    void artifactsSynced();

private:
    void onSnapshot(const std::shared_ptr<MatrixSnapshot>& snapshot);
    void onSucceeded(const SyncOutcome& outcome);
    void onFailed(const QString& reason, int retryInSeconds);
    void onArtifacts(const ArtifactSyncOutcome& outcome);
    void showCacheError(const QString& reason);
    void updateEmptyText();

    Frame m_frame;
    QString m_lastSyncError;
    QString m_cacheError; // why the last snapshot could not be read (a damaged cache)
};

} // namespace relayhud::ui
