#pragma once
// Runs HudSync on a worker thread. The worker owns its own Database (one SQLite
// connection per thread), HttpClient and HudClient, re-created only when the
// cache path or HUD URL changes. Lives in a QThread; talk to it by queued
// calls and signals only.
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/sync/hud_sync.h"
#include "relayhud/ui/results/test_results_worker.h"

#include <QMetaType>
#include <QObject>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <string>

namespace relayhud {
class Database;
class HttpClient;
class HudClient;
class ContentCache;
class ArtifactFetcher;
} // namespace relayhud

namespace relayhud::ui {

struct SyncRequest {
    std::string hudUrl;
    std::string cachePath;
    SyncOptions options;
    // After the HUD: the artifacts of finished runs, unless OnDemand.
    ArtifactAccess artifacts;
    ArtifactSyncOptions artifactOptions;
};

struct SyncOutcome {
    bool ok = false;
    std::optional<RelayHealth> relayHealth; // from the answers this sync kept
    QString error;                          // when !ok: why nothing could be synced
    SyncReport report;                      // when ok; per-backend errors inside
    qint64 finishedAt = 0;
};

struct ArtifactSyncOutcome {
    bool ok = false;
    QString error;
    ArtifactSyncReport report;
};

class SyncWorker : public QObject {
    Q_OBJECT
public:
    // `cancel` outlives the worker and is set by the GUI thread on quit.
    explicit SyncWorker(const std::atomic<bool>& cancel, QObject* parent = nullptr);
    ~SyncWorker() override;

    // Runs in the worker thread (call through a queued invocation).
    void run(const SyncRequest& request);

signals:
    void progressed(const QString& phase, int done, int total);
    void finished(const relayhud::ui::SyncOutcome& outcome);
    // The artifact pass that follows a successful HUD sync.
    void artifactsProgressed(int done, int total, const QString& current);
    void artifactsFinished(const relayhud::ui::ArtifactSyncOutcome& outcome);

private:
    Result<void> prepare(const SyncRequest& request);
    void syncArtifacts(const SyncRequest& request);

    const std::atomic<bool>& m_cancel;
    std::unique_ptr<Database> m_cache;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<HudClient> m_hud;
    std::unique_ptr<ContentCache> m_blobs;
    std::unique_ptr<HttpClient> m_artifactHttp;
    std::unique_ptr<ArtifactFetcher> m_fetcher;
    std::string m_cachePath;
    std::string m_hudUrl;
};

} // namespace relayhud::ui

Q_DECLARE_METATYPE(relayhud::ui::SyncOutcome)
Q_DECLARE_METATYPE(relayhud::ui::ArtifactSyncOutcome)
