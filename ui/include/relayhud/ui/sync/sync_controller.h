#pragma once
// Owns the sync worker's thread and decides when to sync: now, every
// interval after a success, and with backoff after a failure (the app then
// keeps showing the cache and says it is offline). Cancels and joins on
// shutdown.
#include "relayhud/ui/sync/sync_worker.h"

#include <QObject>
#include <QThread>
#include <QTimer>

#include <atomic>
#include <chrono>

namespace relayhud::ui {

class SyncController : public QObject {
    Q_OBJECT
public:
    explicit SyncController(QObject* parent = nullptr);
    ~SyncController() override;

    void setRequest(const SyncRequest& request);
    const SyncRequest& request() const { return m_request; }
    void setInterval(std::chrono::minutes interval);

    // Starts a sync now, or right after the running one.
    void syncNow();
    // Cancels in-flight work and joins the worker thread. Idempotent.
    void shutdown();
    bool isRunning() const { return m_running; }
    int consecutiveFailures() const { return m_failures; }

    // Delay before retry number `failures` (1-based): 30 s doubling, capped.
    static std::chrono::seconds backoff(int failures, std::chrono::seconds cap);

signals:
    void started();
    void progressed(const QString& phase, int done, int total);
    void succeeded(const relayhud::ui::SyncOutcome& outcome);
    void failed(const QString& reason, int retryInSeconds);
    void artifactsProgressed(int done, int total, const QString& current);
    void artifactsFinished(const relayhud::ui::ArtifactSyncOutcome& outcome);

private:
    void onFinished(const SyncOutcome& outcome);
    void scheduleIn(std::chrono::seconds delay);

    std::atomic<bool> m_cancel{false};
    QThread m_thread;
    SyncWorker* m_worker;
    QTimer m_timer;
    SyncRequest m_request;
    std::chrono::minutes m_interval{15};
    bool m_running = false;
    bool m_pending = false;
    bool m_shutDown = false;
    int m_failures = 0;
};

} // namespace relayhud::ui
