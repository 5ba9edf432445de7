#pragma once
// Pulls the HUD into the cache: the allowlist, then each followed backend's
// dashboard pages (PRs) and nightly rows. One transaction per backend, so a
// failure part-way leaves that backend's cached rows as they were; pages that
// answer 304 to their stored ETag cost no parsing.
#include "relayhud/hud/hud_client.h"
#include "relayhud/store/cache.h"
#include "relayhud/util/result.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace relayhud {

struct SyncOptions {
    int days = 14;
    int perPage = 50;                  // PR numbers per crcr_backend_dashboard page
    int maxPages = 200;                // safety bound
    std::vector<std::string> backends; // empty: every backend at L2 and above
    bool fetchPrInfo = true;           // PR titles and authors
};

struct SyncProgress {
    std::string phase; // "allowlist", "org/repo", "pr-info"
    int done = 0;
    int total = 0;
};

struct SyncReport {
    int backends = 0;
    int pages = 0;
    int pagesNotModified = 0;
    int runs = 0;
    int commits = 0;                   // distinct upstream SHAs in the answers
    std::vector<std::string> errors;   // per-backend failures; the rest still landed
    std::vector<std::string> warnings; // rows skipped
};

class HudSync {
public:
    HudSync(HudClient& hud, Cache& cache);

    using ProgressFn = std::function<void(const SyncProgress&)>;

    // Err when nothing could be synced (the HUD is unreachable, the allowlist
    // is garbage); per-backend failures are listed in SyncReport::errors.
    Result<SyncReport> run(const SyncOptions& options, const ProgressFn& progress = {},
                           const std::atomic<bool>* cancel = nullptr);

private:
    void fetchTitles(SyncReport& result);

    HudClient& m_hud;
    Cache& m_cache;
};

} // namespace relayhud
