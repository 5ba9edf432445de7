#include "relayhud/ui/sync/sync_controller.h"

#include <algorithm>

namespace relayhud::ui {

SyncController::SyncController(QObject* parent)
    : QObject(parent), m_worker(new SyncWorker(m_cancel))
{
    qRegisterMetaType<SyncOutcome>();
    qRegisterMetaType<ArtifactSyncOutcome>();
    m_thread.setObjectName(QStringLiteral("relayhud-sync"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &SyncWorker::progressed, this, &SyncController::progressed);
    connect(m_worker, &SyncWorker::finished, this, &SyncController::onFinished);
    connect(m_worker, &SyncWorker::artifactsProgressed, this, &SyncController::artifactsProgressed);
    connect(m_worker, &SyncWorker::artifactsFinished, this, &SyncController::artifactsFinished);
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &SyncController::syncNow);
    m_thread.start();
}

SyncController::~SyncController() { shutdown(); }

void SyncController::setRequest(const SyncRequest& request) { m_request = request; }

void SyncController::setInterval(std::chrono::minutes interval)
{
    m_interval = std::max(interval, std::chrono::minutes(1));
}

void SyncController::syncNow()
{
    if (m_shutDown)
        return;
    if (m_running) {
        m_pending = true;
        return;
    }
    m_timer.stop();
    m_running = true;
    emit started();
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, request = m_request] { worker->run(request); },
        Qt::QueuedConnection);
}

void SyncController::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    m_timer.stop();
    m_cancel = true;
    m_thread.quit();
    m_thread.wait();
}

std::chrono::seconds SyncController::backoff(int failures, std::chrono::seconds cap)
{
    const int doublings = std::clamp(failures - 1, 0, 10);
    return std::min(std::chrono::seconds(30) * (1 << doublings), cap);
}

void SyncController::onFinished(const SyncOutcome& outcome)
{
    m_running = false;
    if (m_shutDown)
        return;
    if (outcome.ok) {
        m_failures = 0;
        emit succeeded(outcome);
        scheduleIn(m_interval);
    } else {
        ++m_failures;
        const auto delay = backoff(m_failures, m_interval);
        emit failed(outcome.error, static_cast<int>(delay.count()));
        scheduleIn(delay);
    }
    if (m_pending) {
        m_pending = false;
        syncNow();
    }
}

void SyncController::scheduleIn(std::chrono::seconds delay) { m_timer.start(delay); }

} // namespace relayhud::ui
