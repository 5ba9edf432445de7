#pragma once
// Pulls the HUD into the cache: the allowlist, then each backend's dashboard
// pages (PRs) and nightly rows, then what the HUD knows around them (PR and
// nightly titles, dispatch-time levels, summaries, the relay's health). One
// transaction per backend, so a failure part-way leaves that backend's cached
// rows as they were; pages that answer 304 to their stored ETag cost no parsing.
//
// It works around the real HUD's limits (../shared/specs/hud-read-api.md):
// a dashboard page over the host's 4.5 MB cap answers 500 on every try, so
// the page is halved (down to one PR) and the size that worked is remembered
// per backend (R1); a failing allowlist falls back on the cached one (R2); a
// batch lookup the HUD answers 500 for is bisected (R10); repos that report
// without being at L2+ in the allowlist are found through crcr_summary (R3);
// the relay's probe repo is read as relay health, not as a backend (R11).
#include "relayhud/hud/hud_client.h"
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/util/result.h"

#include <atomic>
#include <functional>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {

class Database;

struct SyncOptions {
    int days = 14;
    int perPage = 50;                  // PR numbers per crcr_backend_dashboard page, at most
    int maxPages = 2000;               // safety bound per backend
    std::vector<std::string> backends; // empty: every backend at L2 and above, and every
                                       // repo crcr_summary says reports
    bool fetchPrInfo = true;           // PR titles and authors, nightly titles
    bool fetchSummaries = true;        // crcr_summary, backend summaries, relay health, levels
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
    int commits = 0;                      // distinct upstream SHAs in the answers
    std::vector<std::string> errors;      // per-backend failures; the rest still landed
    std::vector<std::string> warnings;    // rows skipped, lookups that failed
    std::vector<std::string> workarounds; // HUD limits met and how they were worked around
};

class HudSync {
public:
    HudSync(HudClient& hud, Database& cache);

    using ProgressFn = std::function<void(const SyncProgress&)>;

    // Err when nothing could be synced (the HUD is unreachable, the allowlist
    // fails and none is cached); per-backend failures are listed in SyncReport::errors.
    Result<SyncReport> run(const SyncOptions& options, const ProgressFn& progress = {},
                           const std::atomic<bool>* cancel = nullptr);

private:
    Result<std::vector<Backend>> readAllowlist(SyncReport& result);
    // Repos crcr_summary says report but the allowlist does not list at L2+.
    std::vector<std::string> addReportingRepos(const SyncOptions& options,
                                               std::vector<Backend>& backends, SyncReport& result);
    // The answers kept as the HUD gives them (its aggregates, the relay's
    // health): asked all at once, beside the backends' pages, and kept
    // (keepAnswers) when those are applied.
    struct KeptAsk;
    std::vector<KeptAsk> askKeptAnswers(const SyncOptions& options);
    void keepAnswers(std::vector<KeptAsk>& asks, SyncReport& result);
    void fetchTitles(SyncReport& result);
    void fetchDispatchLevels(const std::vector<PrNumber>& prs, SyncReport& result);
    void keepAnswer(const std::string& query, const nlohmann::json& params,
                    const nlohmann::json& rows);

    HudClient& m_hud;
    Database& m_cache;
};

// The relay's health as the HUD's /crcr cards judge it, from the answers the
// last sync kept; nullopt when no sync has read them.
std::optional<RelayHealth> cachedRelayHealth(const Database& cache);

// The HUD's own aggregates of a window of `days` as the last sync kept them
// (hud-read-api.md R12: in the HUD's definitions), read for the views that
// show them beside RelayHUD's own numbers. Each *Answered is false when no
// sync kept that answer for this window, or it no longer reads as rows.
// The event types whose crcr_success_rate series a sync keeps, in the order
// views list them.
inline constexpr const char* kKeptDailyEvents[] = {"pull_request", "nightly", "push", "periodic"};

struct KeptAggregates {
    std::vector<RepoSummary> repos; // crcr_summary
    bool reposAnswered = false;
    std::map<std::string, NightlySummary> nightly; // crcr_nightly_summary, by repo
    bool nightlyAnswered = false;
    // crcr_success_rate, by repo, then event type (pull_request, nightly,
    // push, periodic), oldest day first.
    std::map<std::string, std::map<std::string, std::vector<DailyRate>>> daily;
    bool dailyAnswered = false;
};
KeptAggregates cachedAggregates(const Database& cache, int days);

// The cache's key for a kept answer's parameters (stable JSON text).
std::string answerKey(const nlohmann::json& params);

} // namespace relayhud
