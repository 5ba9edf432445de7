#include "relayhud/ui/sync/snapshot_loader.h"

#include "relayhud/store/cache.h"
#include "relayhud/ui/format.h"

#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

namespace relayhud::ui {

namespace {

struct LoadResult {
    std::shared_ptr<MatrixSnapshot> snapshot;
    QString error;
};

LoadResult loadSnapshot(const std::string& path, const MatrixQuery& query)
{
    auto cache = Cache::open(path);
    if (!cache)
        return {nullptr, toQString(cache.message())};
    auto matrix = (*cache)->loadMatrix(query);
    if (!matrix)
        return {nullptr, toQString(matrix.message())};
    return {std::make_shared<MatrixSnapshot>(std::move(*matrix)), {}};
}

} // namespace

SnapshotLoader::SnapshotLoader(QObject* parent) : QObject(parent) {}

void SnapshotLoader::request(const MatrixQuery& query)
{
    const std::uint64_t job = ++m_latestJob;
    QtConcurrent::run(loadSnapshot, m_cachePath, query)
        .then(this, [this, job](const LoadResult& result) {
            if (job != m_latestJob)
                return; // a newer request is on its way
            m_delivered = job;
            if (result.snapshot)
                emit loaded(result.snapshot);
            else
                emit failed(result.error);
        });
}

} // namespace relayhud::ui
