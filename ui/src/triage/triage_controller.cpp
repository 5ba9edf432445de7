#include "relayhud/ui/triage/triage_controller.h"

#include "relayhud/store/database.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/triage/triage_exchange.h"
#include "relayhud/ui/common/format.h"

#include <QMetaObject>

#include <chrono>
#include <set>

namespace relayhud::ui {

namespace {

QString conflictLine(const triage::MergeConflict& conflict)
{
    const TriageTarget& t = conflict.local.target;
    const QString where = toQString(t.repo) % u" · " % toQString(t.job) % u" · "
                          % toQString(t.sha.value.substr(0, 7))
                          % (t.test.empty() ? QString() : u" · " % toQString(t.test));
    return QObject::tr("%1: here %2, imported %3 — %4")
        .arg(where, toQString(triage::failureClassName(conflict.local.cls)),
             toQString(triage::failureClassName(conflict.imported.cls)), toQString(conflict.why));
}

} // namespace

TriageWorker::TriageWorker(const std::atomic<bool>& shutdown, QObject* parent)
    : QObject(parent), m_shutdown(shutdown)
{
}

TriageWorker::~TriageWorker() = default;

Result<Database*> TriageWorker::open(const std::string& cachePath)
{
    if (!m_cache || m_cachePath != cachePath) {
        m_cache.reset();
        auto opened = Database::open(cachePath);
        if (!opened)
            return makeError("cannot open the cache " + cachePath + ": " + opened.message());
        m_cache = std::move(*opened);
        m_cachePath = cachePath;
    }
    return m_cache.get();
}

void TriageWorker::write(qint64 requestId, const std::string& cachePath,
                         const std::vector<TriageTag>& tags)
{
    auto cache = open(cachePath);
    if (!cache) {
        emit written(requestId, toQString(cache.message()));
        return;
    }
    auto done = TriageStore(**cache).setTriageTags(tags);
    emit written(requestId, done ? QString() : toQString(done.message()));
}

void TriageWorker::restore(qint64 requestId, const std::string& cachePath,
                           const std::vector<TriageTarget>& targets,
                           const std::vector<std::optional<TriageTag>>& previous)
{
    auto cache = open(cachePath);
    if (!cache) {
        emit written(requestId, toQString(cache.message()));
        return;
    }
    auto done = TriageStore(**cache).restoreTriageTags(targets, previous);
    emit written(requestId, done ? QString() : toQString(done.message()));
}

void TriageWorker::exportTo(const std::string& cachePath, const QString& path)
{
    auto cache = open(cachePath);
    if (!cache) {
        emit exported(path, 0, toQString(cache.message()));
        return;
    }
    auto count = triage::exportTriageFile(**cache, path.toStdString());
    emit exported(path, count ? static_cast<qint64>(*count) : 0,
                  count ? QString() : toQString(count.message()));
}

void TriageWorker::importFrom(const std::string& cachePath, const QString& path)
{
    auto cache = open(cachePath);
    if (!cache) {
        emit imported(path, {}, {}, toQString(cache.message()));
        return;
    }
    auto report = triage::importTriageFile(**cache, path.toStdString());
    if (!report) {
        emit imported(path, {}, {}, toQString(report.message()));
        return;
    }
    const QString summary = tr("%1 added, %2 updated, %3 unchanged, %4 kept (newer here), "
                               "%n conflict(s)",
                               nullptr, static_cast<int>(report->conflicts.size()))
                                .arg(report->added)
                                .arg(report->updated)
                                .arg(report->unchanged)
                                .arg(report->keptLocal);
    QStringList conflicts;
    for (const triage::MergeConflict& conflict : report->conflicts)
        conflicts << conflictLine(conflict);
    emit imported(path, summary, conflicts, QString());
}

void TriageWorker::loadClusters(qint64 requestId, const std::string& cachePath,
                                const FailureQuery& query)
{
    if (m_shutdown.load())
        return;
    const auto started = std::chrono::steady_clock::now();
    auto cache = open(cachePath);
    if (!cache) {
        emit clustersFailed(requestId, toQString(cache.message()));
        return;
    }
    auto data = std::make_shared<ClustersData>();
    data->requestId = requestId;
    auto failures = TriageStore(**cache).failuresForClustering(query);
    if (!failures) {
        emit clustersFailed(requestId, toQString(failures.message()));
        return;
    }
    data->failures = std::move(*failures);
    std::set<Sha> shas;
    for (const FailureRecord& failure : data->failures)
        shas.insert(failure.sha);
    auto tags = TriageStore(**cache).triageTags(std::vector<Sha>(shas.begin(), shas.end()));
    if (!tags) {
        emit clustersFailed(requestId, toQString(tags.message()));
        return;
    }
    data->tags = std::move(*tags);
    data->clusters = triage::buildClusters(data->failures, data->tags);
    data->seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    emit clustersLoaded(data);
}

TriageController::TriageController(QObject* parent)
    : QObject(parent), m_worker(new TriageWorker(m_shutdownFlag))
{
    qRegisterMetaType<std::shared_ptr<const ClustersData>>();
    m_thread.setObjectName(QStringLiteral("triage"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    connect(m_worker, &TriageWorker::written, this, &TriageController::written);
    connect(m_worker, &TriageWorker::exported, this, &TriageController::exported);
    connect(m_worker, &TriageWorker::imported, this, &TriageController::imported);
    connect(m_worker, &TriageWorker::clustersLoaded, this,
            [this](const std::shared_ptr<const ClustersData>& data) {
                if (data->requestId == m_lastClusters) // a newer load supersedes it
                    emit clustersLoaded(data);
            });
    connect(m_worker, &TriageWorker::clustersFailed, this, &TriageController::clustersFailed);
    m_thread.start();
}

TriageController::~TriageController() { shutdown(); }

void TriageController::shutdown()
{
    if (m_shutDown)
        return;
    m_shutDown = true;
    m_shutdownFlag = true;
    m_thread.quit();
    m_thread.wait();
}

qint64 TriageController::write(std::vector<TriageTag> tags)
{
    const qint64 id = ++m_lastRequest;
    QMetaObject::invokeMethod(m_worker,
                              [worker = m_worker, id, cache = m_cachePath, tags = std::move(tags)] {
                                  worker->write(id, cache, tags);
                              });
    return id;
}

qint64 TriageController::restore(std::vector<TriageTarget> targets,
                                 std::vector<std::optional<TriageTag>> previous)
{
    const qint64 id = ++m_lastRequest;
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, id, cache = m_cachePath, targets = std::move(targets),
         previous = std::move(previous)] { worker->restore(id, cache, targets, previous); });
    return id;
}

void TriageController::exportTo(const QString& path)
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, cache = m_cachePath, path] {
        worker->exportTo(cache, path);
    });
}

void TriageController::importFrom(const QString& path)
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, cache = m_cachePath, path] {
        worker->importFrom(cache, path);
    });
}

qint64 TriageController::loadClusters(const FailureQuery& query)
{
    const qint64 id = ++m_lastClusters;
    QMetaObject::invokeMethod(m_worker, [worker = m_worker, id, cache = m_cachePath, query] {
        worker->loadClusters(id, cache, query);
    });
    return id;
}

} // namespace relayhud::ui
