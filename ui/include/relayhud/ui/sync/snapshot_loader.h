#pragma once
// Builds the matrix snapshot from the cache on a pool thread (its own Database
// connection per job) and hands it back on the GUI thread. Only the newest
// request's result is delivered; older ones are dropped by job id.
#include "relayhud/model/matrix_snapshot.h"
#include "relayhud/verdict/verdict.h"

#include <QObject>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

namespace relayhud::ui {

class VerdictMarker;

class SnapshotLoader : public QObject {
    Q_OBJECT
public:
    explicit SnapshotLoader(QObject* parent = nullptr);

    void setCachePath(const std::string& path) { m_cachePath = path; }
    // The configs greens are judged against (verdict marks); the next
    // request judges every green again.
    void setVerdictSources(verdict::VerdictSources sources);
    void request(const MatrixQuery& query);
    bool isLoading() const { return m_delivered != m_latestJob; }
    // Results wait until release(): a window that asks for its matrix
    // before it has built (and connected) what shows it loses nothing, even
    // when something processes events while it builds.
    void hold() { m_held = true; }
    void release();

signals:
    void loaded(std::shared_ptr<relayhud::MatrixSnapshot> snapshot);
    void failed(const QString& reason);

private:
    std::string m_cachePath;
    std::shared_ptr<VerdictMarker> m_verdicts; // shared with the pool jobs
    std::uint64_t m_latestJob = 0;
    std::uint64_t m_delivered = 0;
    bool m_held = false;
    std::optional<std::pair<std::shared_ptr<MatrixSnapshot>, QString>> m_waiting; // while held
    void deliver(const std::shared_ptr<MatrixSnapshot>& snapshot, const QString& error);
};

} // namespace relayhud::ui
