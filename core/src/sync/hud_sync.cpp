#include "relayhud/sync/hud_sync.h"

#include "relayhud/util/time.h"

#include <algorithm>
#include <future>
#include <map>
#include <set>

namespace relayhud {
namespace {

using ValidatorMap = std::map<std::string, HttpValidator>;

// Everything fetched for one backend; applied as one batch or not at all.
struct BackendFetch {
    std::string repo;
    SyncBatch batch;
    int pages = 0;
    int pagesNotModified = 0;
    std::vector<std::string> warnings;
    std::optional<std::string> error;
};

bool cancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

// Folds one answered page into the fetch; returns the page's unit count.
std::int64_t absorb(BackendFetch& fetch, HudPage& page, const ValidatorMap& known)
{
    ++fetch.pages;
    fetch.warnings.insert(fetch.warnings.end(), page.warnings.begin(), page.warnings.end());
    if (page.notModified) {
        ++fetch.pagesNotModified;
        const auto it = known.find(page.url);
        return it == known.end() ? 0 : it->second.items;
    }
    const auto items = static_cast<std::int64_t>(page.prNumbers);
    if (!page.etag.empty())
        fetch.batch.validators.emplace_back(page.url, HttpValidator{page.etag, items});
    std::move(page.runs.begin(), page.runs.end(), std::back_inserter(fetch.batch.runs));
    return items;
}

std::string etagFor(const ValidatorMap& known, const std::string& url)
{
    const auto it = known.find(url);
    return it == known.end() ? std::string() : it->second.etag;
}

BackendFetch fetchBackend(HudClient& hud, const std::string& repo, const SyncOptions& options,
                          const ValidatorMap& known, const std::atomic<bool>* cancel)
{
    BackendFetch fetch;
    fetch.repo = repo;
    for (int page = 0; page < options.maxPages; ++page) {
        if (cancelled(cancel)) {
            fetch.error = "cancelled";
            return fetch;
        }
        const int offset = page * options.perPage;
        const auto url = hud.backendDashboardUrl(repo, options.days, options.perPage, offset);
        auto answer =
            hud.backendDashboard(repo, options.days, options.perPage, offset, etagFor(known, url));
        if (!answer) {
            fetch.error = repo + ": " + answer.message();
            return fetch;
        }
        if (absorb(fetch, *answer, known) < options.perPage)
            break;
    }
    const auto url = hud.nightlyDashboardUrl(repo, options.days);
    auto nightly = hud.nightlyDashboard(repo, options.days, etagFor(known, url));
    if (!nightly) {
        fetch.error = repo + " (nightly): " + nightly.message();
        return fetch;
    }
    absorb(fetch, *nightly, known);
    fetch.batch.commits = commitsFromRuns(fetch.batch.runs);
    return fetch;
}

std::vector<std::string> targetsOf(const std::vector<Backend>& allowlist,
                                   const SyncOptions& options)
{
    if (!options.backends.empty())
        return options.backends;
    std::vector<std::string> out;
    for (const auto& b : allowlist)
        if (b.level >= Level::L2) // L1 repos are dispatched to but never report
            out.push_back(b.repo);
    return out;
}

} // namespace

HudSync::HudSync(HudClient& hud, Cache& cache) : m_hud(hud), m_cache(cache) {}

Result<SyncReport> HudSync::run(const SyncOptions& options, const ProgressFn& progress,
                                const std::atomic<bool>* cancel)
{
    auto report = [&](std::string phase, int done, int total) {
        if (progress)
            progress(SyncProgress{std::move(phase), done, total});
    };
    report("allowlist", 0, 1);
    auto allowlist = m_hud.allowlist();
    if (!allowlist)
        return allowlist.error();
    if (auto r = m_cache.apply(SyncBatch{*allowlist, {}, {}, {}}); !r)
        return r.error();
    auto stored = m_cache.validators();
    if (!stored)
        return stored.error();
    const ValidatorMap known(stored->begin(), stored->end());

    const auto targets = targetsOf(*allowlist, options);
    // Fetch backends in parallel (each its own HTTP transfers); apply here, in order.
    std::vector<std::future<BackendFetch>> futures;
    for (const auto& repo : targets)
        futures.push_back(std::async(std::launch::async, fetchBackend, std::ref(m_hud), repo,
                                     std::cref(options), std::cref(known), cancel));
    SyncReport result;
    std::set<std::string> shas;
    for (std::size_t i = 0; i < futures.size(); ++i) {
        BackendFetch fetch = futures[i].get();
        report(fetch.repo, static_cast<int>(i), static_cast<int>(targets.size()));
        result.pages += fetch.pages;
        result.pagesNotModified += fetch.pagesNotModified;
        result.warnings.insert(result.warnings.end(), fetch.warnings.begin(), fetch.warnings.end());
        if (fetch.error) {
            result.errors.push_back(*fetch.error);
            continue;
        }
        if (auto r = m_cache.apply(fetch.batch); !r) {
            result.errors.push_back(fetch.repo + ": " + r.message());
            continue;
        }
        ++result.backends;
        result.runs += static_cast<int>(fetch.batch.runs.size());
        for (const auto& c : fetch.batch.commits)
            shas.insert(c.sha.value);
    }
    result.commits = static_cast<int>(shas.size());
    report("done", static_cast<int>(targets.size()), static_cast<int>(targets.size()));
    if (cancelled(cancel))
        return makeError("sync cancelled");
    if (!targets.empty() && result.backends == 0)
        return makeError(result.errors.front());
    if (options.fetchPrInfo)
        fetchTitles(result);
    (void)m_cache.setMeta("last_sync", formatIso(nowSeconds()));
    (void)m_cache.setMeta("hud_url", m_hud.baseUrl());
    return result;
}

void HudSync::fetchTitles(SyncReport& result)
{
    auto prs = m_cache.prNumbersWithoutTitle(500);
    if (!prs || prs->empty())
        return;
    auto infos = m_hud.prInfo(*prs);
    if (!infos) {
        result.warnings.push_back("PR titles: " + infos.message());
        return;
    }
    if (auto r = m_cache.applyPrInfo(*infos); !r)
        result.warnings.push_back("PR titles: " + r.message());
}

} // namespace relayhud
