#include "relayhud/ui/sync/sync_worker.h"

#include "relayhud/hud/hud_client.h"
#include "relayhud/net/http_client.h"
#include "relayhud/store/cache.h"
#include "relayhud/util/time.h"

#include "relayhud/ui/format.h"

namespace relayhud::ui {

SyncWorker::SyncWorker(const std::atomic<bool>& cancel, QObject* parent)
    : QObject(parent), m_cancel(cancel)
{
}

SyncWorker::~SyncWorker() = default;

Result<void> SyncWorker::prepare(const SyncRequest& request)
{
    if (!m_cache || m_cachePath != request.cachePath) {
        m_cache.reset();
        auto opened = Cache::open(request.cachePath);
        if (!opened)
            return makeError("cannot open the cache " + request.cachePath + ": "
                             + opened.message());
        m_cache = std::move(*opened);
        m_cachePath = request.cachePath;
    }
    if (!m_hud || m_hudUrl != request.hudUrl) {
        m_hud.reset();
        HttpOptions options;
        options.cancel = &m_cancel;
        m_http = std::make_unique<HttpClient>(options);
        m_hud = std::make_unique<HudClient>(*m_http, request.hudUrl);
        m_hudUrl = request.hudUrl;
    }
    return {};
}

void SyncWorker::run(const SyncRequest& request)
{
    SyncOutcome outcome;
    if (auto ready = prepare(request); !ready) {
        outcome.error = toQString(ready.message());
        emit finished(outcome);
        return;
    }
    HudSync sync(*m_hud, *m_cache);
    auto report = sync.run(
        request.options,
        [this](const SyncProgress& p) { emit progressed(toQString(p.phase), p.done, p.total); },
        &m_cancel);
    outcome.finishedAt = nowSeconds();
    if (report) {
        outcome.ok = true;
        outcome.report = std::move(*report);
    } else {
        outcome.error = toQString(report.message());
    }
    emit finished(outcome);
}

} // namespace relayhud::ui
