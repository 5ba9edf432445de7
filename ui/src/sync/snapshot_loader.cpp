#include "relayhud/ui/sync/snapshot_loader.h"

#include "relayhud/store/checkout_store.h"
#include "relayhud/store/database.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/sync/verdict_marks.h"

#include <QFuture>
#include <QtConcurrent/QtConcurrentRun>

namespace relayhud::ui {

namespace {

struct LoadResult {
    std::shared_ptr<MatrixSnapshot> snapshot;
    QString error;
};

bool failed(const MatrixCell& cell)
{
    return cell.status == RunStatus::Completed
           && (cell.conclusion == Conclusion::Failure || cell.conclusion == Conclusion::TimedOut
               || cell.conclusion == Conclusion::Cancelled);
}

// The triage marks of failed cells: one query for all of them.
Result<void> markTriage(const Database& cache, MatrixSnapshot& matrix)
{
    std::vector<CheckRunRow> rows;
    std::vector<std::size_t> cells;
    for (std::size_t i = 0; i < matrix.cells.size(); ++i)
        if (!matrix.cells[i].empty() && failed(matrix.cells[i])) {
            rows.push_back(matrix.cells[i].runRowId);
            cells.push_back(i);
        }
    if (rows.empty())
        return {};
    auto progress = TriageStore(cache).triageProgress(rows);
    if (!progress)
        return progress.error();
    for (std::size_t i = 0; i < cells.size() && i < progress->size(); ++i)
        matrix.cells[cells[i]].flags |=
            (*progress)[i].allTriaged() ? MatrixCell::Triaged : MatrixCell::Untriaged;
    return {};
}

LoadResult loadSnapshot(const std::string& path, const MatrixQuery& query,
                        const std::shared_ptr<VerdictMarker>& verdicts)
{
    auto cache = Database::open(path);
    if (!cache)
        return {nullptr, toQString(cache.message())};
    auto matrix = MatrixStore(**cache).loadMatrix(query);
    if (!matrix)
        return {nullptr, toQString(matrix.message())};
    if (auto marked = markTriage(**cache, *matrix); !marked)
        return {nullptr, toQString(marked.message())};
    if (auto judged = verdicts->mark(**cache, *matrix); !judged)
        return {nullptr, toQString(judged.message())};
    std::vector<CheckRunRow> runs;
    for (const MatrixCell& cell : matrix->cells)
        if (!cell.empty())
            runs.push_back(cell.runRowId);
    auto tested = CheckoutStore(**cache).testedCommits(runs);
    if (!tested)
        return {nullptr, toQString(tested.message())};
    matrix->tested = std::move(*tested);
    return {std::make_shared<MatrixSnapshot>(std::move(*matrix)), {}};
}

} // namespace

SnapshotLoader::SnapshotLoader(QObject* parent)
    : QObject(parent), m_verdicts(std::make_shared<VerdictMarker>())
{
}

void SnapshotLoader::setVerdictSources(verdict::VerdictSources sources)
{
    m_verdicts->setSources(std::move(sources));
}

void SnapshotLoader::request(const MatrixQuery& query)
{
    const std::uint64_t job = ++m_latestJob;
    QtConcurrent::run(loadSnapshot, m_cachePath, query, m_verdicts)
        .then(this, [this, job](const LoadResult& result) {
            if (job != m_latestJob)
                return; // a newer request is on its way
            m_delivered = job;
            if (m_held)
                m_waiting.emplace(result.snapshot, result.error);
            else
                deliver(result.snapshot, result.error);
        });
}

void SnapshotLoader::release()
{
    m_held = false;
    // From the event loop, as an unheld result comes: whoever connects
    // right after the window is made still hears it.
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (m_held || !m_waiting)
                return;
            auto [snapshot, error] = std::move(*m_waiting);
            m_waiting.reset();
            deliver(snapshot, error);
        },
        Qt::QueuedConnection);
}

void SnapshotLoader::deliver(const std::shared_ptr<MatrixSnapshot>& snapshot, const QString& error)
{
    if (snapshot)
        emit loaded(snapshot);
    else
        emit failed(error);
}

} // namespace relayhud::ui
