#include "relayhud/ui/details/run_details_loader.h"

#include "relayhud/store/database.h"
#include "relayhud/ui/common/format.h"

#include <QtConcurrent/QtConcurrentRun>

#include <utility>

namespace relayhud::ui {

namespace {

struct Read {
    std::optional<RunDetails> details;
    QString error;
};

// On a worker: a connection of its own (SQLite connections are not shared
// across threads here), a few indexed reads, closed again.
Read readDetails(const std::string& cachePath, CheckRunRow rowId)
{
    auto cache = Database::open(cachePath);
    if (!cache)
        return {std::nullopt, toQString(cache.message())};
    auto details = loadRunDetails(**cache, rowId);
    if (!details)
        return {std::nullopt, toQString(details.message())};
    return {std::move(*details), {}};
}

} // namespace

RunDetailsLoader::RunDetailsLoader(QObject* parent) : QObject(parent) {}

void RunDetailsLoader::setCachePath(std::string path)
{
    m_cachePath = std::move(path);
    cancel();
}

void RunDetailsLoader::load(CheckRunRow rowId)
{
    const std::uint64_t request = ++m_request;
    if (m_cachePath.empty()) {
        emit failed(rowId, tr("The cache is not open."));
        return;
    }
    QtConcurrent::run(readDetails, m_cachePath, rowId)
        .then(this, [this, request, rowId](const Read& read) {
            if (request != m_request)
                return; // superseded
            if (!read.details) {
                emit failed(rowId, read.error);
                return;
            }
            emit loaded(*read.details);
        });
}

void RunDetailsLoader::cancel() { ++m_request; }

} // namespace relayhud::ui
