#include "relayhud/ui/sync/sync_worker.h"

#include "relayhud/hud/hud_client.h"
#include "relayhud/net/http_client.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/util/paths.h"
#include "relayhud/util/time.h"

#include "relayhud/ui/common/format.h"

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
        auto opened = Database::open(request.cachePath);
        if (!opened)
            return makeError("cannot open the cache " + request.cachePath + ": "
                             + opened.message());
        m_cache = std::move(*opened);
        m_cachePath = request.cachePath;
        m_fetcher.reset();
        m_blobs.reset();
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
        outcome.relayHealth = cachedRelayHealth(*m_cache);
    } else {
        outcome.error = toQString(report.message());
    }
    const bool synced = outcome.ok;
    emit finished(outcome);
    if (synced && request.artifactOptions.policy != ArtifactPolicy::OnDemand && !m_cancel.load())
        syncArtifacts(request);
}

// A fetcher per pass: the settings or tokens may have changed since the last.
void SyncWorker::syncArtifacts(const SyncRequest& request)
{
    ArtifactSyncOutcome outcome;
    if (!m_blobs) {
        auto blobs = ContentCache::open(blobRootFor(request.cachePath));
        if (!blobs) {
            outcome.error = toQString(blobs.message());
            emit artifactsFinished(outcome);
            return;
        }
        m_blobs = std::make_unique<ContentCache>(std::move(*blobs));
    }
    HttpOptions options;
    options.cancel = &m_cancel;
    options.totalTimeout = std::chrono::minutes(5);
    m_artifactHttp = std::make_unique<HttpClient>(options);
    m_fetcher = std::make_unique<ArtifactFetcher>(
        *m_artifactHttp, *m_blobs, request.artifacts.settings, request.artifacts.credentials);
    ArtifactSync sync(*m_cache, *m_fetcher, request.artifacts.settings);
    auto report = sync.run(
        request.artifactOptions,
        [this](const ArtifactSyncProgress& p) {
            emit artifactsProgressed(p.done, p.total, toQString(p.current));
        },
        &m_cancel);
    if (report) {
        outcome.ok = true;
        outcome.report = std::move(*report);
        (void)m_blobs->evictToFit();
    } else {
        outcome.error = toQString(report.message());
    }
    emit artifactsFinished(outcome);
}

} // namespace relayhud::ui
