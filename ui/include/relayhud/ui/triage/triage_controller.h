#pragma once
// Triage's side of the cache for the GUI, on a worker thread with its own
// connection: writes and undoes tags, exports and imports them, and builds
// failure clusters. The GUI shows a tag at once (it knows what it asked for);
// the write follows, and a failed one is reported so the view can re-read.
#include "relayhud/model/triage_tags.h"
#include "relayhud/triage/cluster.h"
#include "relayhud/util/result.h"

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThread>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::ui {

// Failing tests of the window, their clusters and the tags known for them.
struct ClustersData {
    qint64 requestId = 0;
    std::vector<FailureRecord> failures;
    std::vector<triage::FailureCluster> clusters;
    std::vector<TriageTag> tags; // on the failures' SHAs
    double seconds = 0.0;        // read + build
};

class TriageWorker : public QObject {
    Q_OBJECT
public:
    explicit TriageWorker(const std::atomic<bool>& shutdown, QObject* parent = nullptr);
    ~TriageWorker() override;

    void write(qint64 requestId, const std::string& cachePath, const std::vector<TriageTag>& tags);
    void restore(qint64 requestId, const std::string& cachePath,
                 const std::vector<TriageTarget>& targets,
                 const std::vector<std::optional<TriageTag>>& previous);
    void exportTo(const std::string& cachePath, const QString& path);
    void importFrom(const std::string& cachePath, const QString& path);
    void loadClusters(qint64 requestId, const std::string& cachePath, const FailureQuery& query);

signals:
    // `error` is empty on success.
    void written(qint64 requestId, const QString& error);
    void exported(const QString& path, qint64 count, const QString& error);
    // A summary line, and one line per conflict.
    void imported(const QString& path, const QString& summary, const QStringList& conflicts,
                  const QString& error);
    void clustersLoaded(const std::shared_ptr<const relayhud::ui::ClustersData>& data);
    void clustersFailed(qint64 requestId, const QString& error);

private:
    Result<Database*> open(const std::string& cachePath);

    const std::atomic<bool>& m_shutdown;
    std::unique_ptr<Database> m_cache;
    std::string m_cachePath;
};

class TriageController : public QObject {
    Q_OBJECT
public:
    explicit TriageController(QObject* parent = nullptr);
    ~TriageController() override;

    void setCachePath(const std::string& cachePath) { m_cachePath = cachePath; }
    // Each returns the id its written() answer carries.
    qint64 write(std::vector<TriageTag> tags);
    qint64 restore(std::vector<TriageTarget> targets,
                   std::vector<std::optional<TriageTag>> previous);
    void exportTo(const QString& path);
    void importFrom(const QString& path);
    qint64 loadClusters(const FailureQuery& query);
    void shutdown();

signals:
    void written(qint64 requestId, const QString& error);
    void exported(const QString& path, qint64 count, const QString& error);
    void imported(const QString& path, const QString& summary, const QStringList& conflicts,
                  const QString& error);
    void clustersLoaded(const std::shared_ptr<const relayhud::ui::ClustersData>& data);
    void clustersFailed(qint64 requestId, const QString& error);

private:
    std::atomic<bool> m_shutdownFlag{false};
    QThread m_thread;
    TriageWorker* m_worker;
    std::string m_cachePath;
    qint64 m_lastRequest = 0;
    qint64 m_lastClusters = 0;
    bool m_shutDown = false;
};

} // namespace relayhud::ui

Q_DECLARE_METATYPE(std::shared_ptr<const relayhud::ui::ClustersData>)
