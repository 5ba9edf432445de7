#include "relayhud/sync/hud_sync.h"

#include "relayhud/store/database.h"
#include "relayhud/store/hud_answer_store.h"
#include "relayhud/store/run_store.h"

#include "relayhud/util/json_guard.h"
#include "relayhud/util/time.h"
#include "sync/cancel.h"

#include <algorithm>
#include <charconv>
#include <future>
#include <map>
#include <set>

namespace relayhud {
namespace {

using sync::cancelled;

using nlohmann::json;
using ValidatorMap = std::map<std::string, HttpValidator>;

// crcr_nightly_dashboard ends in ORDER BY started_at DESC LIMIT 500 with only a
// lower bound on started_at (test-infra @61a77570 torchci/clickhouse_queries/
// crcr_nightly_dashboard/query.sql:24-43): narrowing `days` cannot reach older
// rows, so a full answer means the oldest nightlies of the window are cut (R4).
constexpr std::size_t kNightlyRowLimit = 500;
// The HUD's nightly health card reads 14 days of the probe's nightlies (index.tsx:692-701).
constexpr int kProbeNightlyDays = 14;
// PRs per crcr_hud_results call: it returns every L3/L4 row of those PRs, all
// attempts and backends, with no window.
constexpr std::size_t kLevelBatch = 20;

std::string perPageKey(const std::string& repo) { return "hud_per_page:" + repo; }

// Everything fetched for one backend; applied as one batch or not at all.
struct BackendFetch {
    std::string repo;
    SyncBatch batch;
    int pages = 0;
    int pagesNotModified = 0;
    int perPage = 0;             // the page size that worked last
    std::size_t largestBody = 0; // the biggest answer read, in bytes
    std::vector<std::string> warnings;
    std::vector<std::string> workarounds;
    std::optional<json> summary; // crcr_backend_summary's rows
    std::optional<std::string> error;
};

// Folds one answered page into the fetch; returns the page's unit count.
std::int64_t absorb(BackendFetch& fetch, HudPage& page, const ValidatorMap& known)
{
    ++fetch.pages;
    fetch.warnings.insert(fetch.warnings.end(), page.warnings.begin(), page.warnings.end());
    fetch.largestBody = std::max(fetch.largestBody, page.bodyBytes);
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

// The dashboard pages of one backend, halving the page on a 500 or an
// answer near the host's cap (R1).
void fetchDashboard(HudClient& hud, BackendFetch& fetch, const SyncOptions& options,
                    const ValidatorMap& known, int perPage, const std::atomic<bool>* cancel)
{
    int offset = 0;
    std::optional<std::pair<int, std::string>> first; // page 0's size and ETag
    for (int page = 0; page < options.maxPages; ++page) {
        if (cancelled(cancel)) {
            fetch.error = "cancelled";
            return;
        }
        const auto url = hud.backendDashboardUrl(fetch.repo, options.days, perPage, offset);
        // At one PR a page cannot shrink: a 500 then is retried and reported.
        auto answer = hud.backendDashboard(fetch.repo, options.days, perPage, offset,
                                           etagFor(known, url), perPage > 1);
        if (!answer) {
            fetch.error = fetch.repo + ": " + answer.message();
            return;
        }
        if (answer->serverError) {
            const int smaller = std::max(1, perPage / 2);
            fetch.workarounds.push_back(fetch.repo + ": " + *answer->serverError + " at "
                                        + std::to_string(perPage)
                                        + " PRs per page (over the HUD's 4.5 MB answer cap?); "
                                          "asked "
                                        + std::to_string(smaller) + " per page");
            perPage = smaller;
            --page;
            continue;
        }
        if (!first)
            first.emplace(perPage, answer->etag.empty() ? etagFor(known, url) : answer->etag);
        fetch.perPage = perPage;
        const auto items = absorb(fetch, *answer, known);
        if (items < perPage)
            break;
        offset += perPage;
        // Close to the cap: the next page of as many PRs may cross it.
        if (answer->bodyBytes > kHudResponseCapBytes * 3 / 4 && perPage > 1) {
            perPage = std::max(1, perPage / 2);
            fetch.workarounds.push_back(fetch.repo + ": a page of "
                                        + std::to_string(answer->bodyBytes)
                                        + " bytes neared the HUD's 4.5 MB cap; asked "
                                        + std::to_string(perPage) + " PRs per page");
        }
        if (page + 1 == options.maxPages)
            fetch.warnings.push_back(fetch.repo + ": stopped after "
                                     + std::to_string(options.maxPages)
                                     + " pages; older PRs were not read");
    }
    // Pages are offsets into a live ordering (max(started_at) DESC): a PR
    // that got a run while later pages were read moved to the front and
    // past the reader (R14). Page 0 again, conditionally, catches it.
    if (first && fetch.pages > 1 && !cancelled(cancel)) {
        auto again =
            hud.backendDashboard(fetch.repo, options.days, first->first, 0, first->second, false);
        if (again && !again->serverError && !again->notModified)
            absorb(fetch, *again, known);
    }
}

BackendFetch fetchBackend(HudClient& hud, const std::string& repo, const SyncOptions& options,
                          const ValidatorMap& known, int perPage, const std::atomic<bool>* cancel)
{
    BackendFetch fetch;
    fetch.repo = repo;
    fetch.perPage = perPage;
    fetchDashboard(hud, fetch, options, known, perPage, cancel);
    if (fetch.error)
        return fetch;
    const auto url = hud.nightlyDashboardUrl(repo, options.days);
    auto nightly = hud.nightlyDashboard(repo, options.days, etagFor(known, url));
    if (!nightly) {
        fetch.error = repo + " (nightly): " + nightly.message();
        return fetch;
    }
    if (nightly->rawRows >= kNightlyRowLimit && !nightly->runs.empty()) {
        EpochSeconds oldest = 0;
        for (const auto& run : nightly->runs)
            if (const auto t = run.reported.startedAt; t && (oldest == 0 || *t < oldest))
                oldest = *t;
        fetch.workarounds.push_back(
            repo
            + ": the HUD serves at most 500 nightly rows, newest first; nightlies started "
              "before "
            + formatIso(oldest)
            + " are cut from its answer (those synced "
              "earlier stay in the cache)");
    }
    absorb(fetch, *nightly, known);
    fetch.batch.commits = commitsFromRuns(fetch.batch.runs);
    if (options.fetchSummaries) {
        auto summary =
            hud.savedQuery("crcr_backend_summary", json{{"repo", repo}, {"days", options.days}});
        if (summary)
            fetch.summary = std::move(*summary);
        else
            fetch.warnings.push_back(repo + " (summary): " + summary.message());
    }
    return fetch;
}

int rememberedPerPage(const Database& cache, const std::string& repo, int fallback)
{
    auto stored = cache.meta(perPageKey(repo));
    if (!stored || !*stored)
        return fallback;
    int value = 0;
    const auto& text = **stored;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 1)
        return fallback;
    return std::min(value, fallback);
}

// The next sync starts from the size that worked, and grows back when the
// answers were far below the cap.
int nextPerPage(const BackendFetch& fetch, int most)
{
    if (fetch.largestBody > 0 && fetch.largestBody < kHudResponseCapBytes / 4)
        return std::min(most, fetch.perPage * 2);
    return std::min(most, fetch.perPage);
}

// What a sync fetches: the backends asked for, or every allowlisted one (L1
// repos are dispatched to but never report; the probe is relay health) and
// those crcr_summary says report; with each allowlisted one's level.
std::vector<std::string> syncTargets(const SyncOptions& options,
                                     const std::vector<Backend>& backends,
                                     const std::vector<std::string>& reporting,
                                     std::map<std::string, Level>& levels)
{
    std::vector<std::string> targets = options.backends;
    for (const auto& b : backends) {
        levels[b.repo] = b.level;
        if (options.backends.empty() && b.allowlisted && !isProbeRepo(b.repo))
            targets.push_back(b.repo);
    }
    targets.insert(targets.end(), reporting.begin(), reporting.end());
    return targets;
}

// A backend's fetch in the report, whatever came of it: pages, warnings and
// workarounds.
void countFetch(const BackendFetch& fetch, SyncReport& result)
{
    result.pages += fetch.pages;
    result.pagesNotModified += fetch.pagesNotModified;
    result.warnings.insert(result.warnings.end(), fetch.warnings.begin(), fetch.warnings.end());
    result.workarounds.insert(result.workarounds.end(), fetch.workarounds.begin(),
                              fetch.workarounds.end());
}

} // namespace

std::string answerKey(const json& params) { return params.dump(); }

HudSync::HudSync(HudClient& hud, Database& cache) : m_hud(hud), m_cache(cache) {}

void HudSync::keepAnswer(const std::string& query, const json& params, const json& rows)
{
    (void)HudAnswerStore(m_cache).setHudAnswer(query, answerKey(params), rows.dump(), nowSeconds());
}

Result<std::vector<Backend>> HudSync::readAllowlist(SyncReport& result)
{
    auto allowlist = m_hud.allowlist();
    if (allowlist) {
        for (auto& b : allowlist->backends)
            b.allowlisted = b.level >= Level::L2;
        if (allowlist->stale)
            result.workarounds.push_back(
                "the HUD could not refresh the allowlist from GitHub and served its older copy "
                "(X-Cache: STALE)");
        if (auto r = RunStore(m_cache).apply(SyncBatch{allowlist->backends, {}, {}, {}}); !r)
            return r.error();
        return std::move(allowlist->backends);
    }
    // The allowlist's failure leaves the query endpoints working (R2).
    auto cached = RunStore(m_cache).backends();
    if (!cached || cached->empty())
        return allowlist.error();
    std::vector<Backend> known;
    for (const auto& b : *cached)
        if (b.allowlisted)
            known.push_back(b);
    if (known.empty())
        return allowlist.error();
    const auto since = m_cache.meta("last_sync");
    result.workarounds.push_back("the allowlist failed (" + allowlist.message()
                                 + "); used the cached one"
                                 + (since && *since ? " from " + **since : std::string()));
    return known;
}

std::vector<std::string> HudSync::addReportingRepos(const SyncOptions& options,
                                                    std::vector<Backend>& backends,
                                                    SyncReport& result)
{
    const json params{{"days", options.days}};
    auto rows = m_hud.savedQuery("crcr_summary", params);
    if (!rows) {
        result.warnings.push_back("repos reporting outside the allowlist: " + rows.message());
        return {};
    }
    keepAnswer("crcr_summary", params, *rows);
    auto summaries = mapRepoSummaries(*rows);
    if (!summaries) {
        result.warnings.push_back(summaries.message());
        return {};
    }
    std::set<std::string> listed;
    for (const auto& b : backends)
        if (b.allowlisted)
            listed.insert(b.repo);
    std::vector<Backend> found;
    for (const auto& s : *summaries) {
        if (listed.count(s.repo) || isProbeRepo(s.repo))
            continue;
        Backend b{s.repo, s.level, {}, false};
        for (const auto& known : backends)
            if (known.repo == s.repo) // at L1 in the allowlist: keep its on-calls
                b.oncalls = known.oncalls;
        found.push_back(b);
        result.workarounds.push_back(s.repo
                                     + " reports rows but is not at L2+ in the allowlist "
                                       "(found through crcr_summary); synced");
    }
    if (found.empty())
        return {};
    if (auto r = RunStore(m_cache).apply(SyncBatch{found, {}, {}, {}}); !r) {
        result.warnings.push_back(r.message());
        return {};
    }
    std::vector<std::string> repos;
    for (auto& b : found) {
        repos.push_back(b.repo);
        auto it = std::find_if(backends.begin(), backends.end(),
                               [&](const Backend& k) { return k.repo == b.repo; });
        if (it != backends.end())
            *it = b;
        else
            backends.push_back(b);
    }
    return repos;
}

struct HudSync::KeptAsk {
    std::string query;
    json params;
    std::string what; // a failure's warning starts with it
    std::future<Result<json>> answer;
};

std::vector<HudSync::KeptAsk> HudSync::askKeptAnswers(const SyncOptions& options)
{
    std::vector<KeptAsk> asks;
    // The relay's health from the probe repo's PRs and nightlies.
    asks.push_back(
        {"crcr_health_last_prs", json{{"count", kProbeHealthCount}}, "relay health", {}});
    asks.push_back({"crcr_nightly_dashboard",
                    json{{"repo", kProbeRepo}, {"days", kProbeNightlyDays}},
                    "relay health (nightly)",
                    {}});
    // The HUD's own daily and per-repo counts, kept for the views that show
    // them beside ours. crcr_success_rate is the only place push and
    // periodic runs appear at all (hud-read-api.md §1b, §4).
    asks.push_back(
        {"crcr_nightly_summary", json{{"days", options.days}}, "crcr_nightly_summary", {}});
    for (const char* event : kKeptDailyEvents)
        asks.push_back({"crcr_success_rate",
                        json{{"days", options.days}, {"event_type", event}},
                        "crcr_success_rate",
                        {}});
    // Each its own transfer (the client is shared across threads, as the
    // backends' fetches share it); nothing here touches the cache.
    for (KeptAsk& ask : asks)
        ask.answer = std::async(std::launch::async, [this, query = ask.query, params = ask.params] {
            return m_hud.savedQuery(query, params);
        });
    return asks;
}

void HudSync::keepAnswers(std::vector<KeptAsk>& asks, SyncReport& result)
{
    for (KeptAsk& ask : asks) {
        if (auto rows = ask.answer.get())
            keepAnswer(ask.query, ask.params, *rows);
        else
            result.warnings.push_back(ask.what + ": " + rows.message());
    }
}

Result<SyncReport> HudSync::run(const SyncOptions& options, const ProgressFn& progress,
                                const std::atomic<bool>* cancel)
{
    auto report = [&](std::string phase, int done, int total) {
        if (progress)
            progress(SyncProgress{std::move(phase), done, total});
    };
    SyncReport result;
    report("allowlist", 0, 1);
    auto backends = readAllowlist(result);
    if (!backends)
        return backends.error();
    std::vector<KeptAsk> kept;
    if (options.fetchSummaries)
        kept = askKeptAnswers(options);
    std::vector<std::string> reporting;
    if (options.backends.empty() && options.fetchSummaries)
        reporting = addReportingRepos(options, *backends, result);
    auto stored = RunStore(m_cache).validators();
    if (!stored)
        return stored.error();
    const ValidatorMap known(stored->begin(), stored->end());

    std::map<std::string, Level> levels;
    const std::vector<std::string> targets = syncTargets(options, *backends, reporting, levels);
    // Fetch backends in parallel (each its own HTTP transfers); apply here, in order.
    std::vector<std::future<BackendFetch>> futures;
    for (const auto& repo : targets)
        futures.push_back(std::async(std::launch::async, fetchBackend, std::ref(m_hud), repo,
                                     std::cref(options), std::cref(known),
                                     rememberedPerPage(m_cache, repo, options.perPage), cancel));
    std::set<std::string> shas;
    std::set<PrNumber> trustedPrs; // PRs of L3/L4 runs read now
    for (std::size_t i = 0; i < futures.size(); ++i) {
        BackendFetch fetch = futures[i].get();
        report(fetch.repo, static_cast<int>(i), static_cast<int>(targets.size()));
        countFetch(fetch, result);
        if (fetch.error) {
            result.errors.push_back(*fetch.error);
            continue;
        }
        if (auto r = RunStore(m_cache).apply(fetch.batch); !r) {
            result.errors.push_back(fetch.repo + ": " + r.message());
            continue;
        }
        (void)m_cache.setMeta(perPageKey(fetch.repo),
                              std::to_string(nextPerPage(fetch, options.perPage)));
        if (fetch.summary)
            keepAnswer("crcr_backend_summary", json{{"repo", fetch.repo}, {"days", options.days}},
                       *fetch.summary);
        ++result.backends;
        result.runs += static_cast<int>(fetch.batch.runs.size());
        for (const auto& c : fetch.batch.commits)
            shas.insert(c.sha.value);
        if (levels[fetch.repo] >= Level::L3)
            for (const auto& run : fetch.batch.runs)
                if (run.prNumber)
                    trustedPrs.insert(run.prNumber);
    }
    result.commits = static_cast<int>(shas.size());
    report("done", static_cast<int>(targets.size()), static_cast<int>(targets.size()));
    keepAnswers(kept, result); // waits for those still on their way
    if (cancelled(cancel))
        return makeError("sync cancelled");
    if (!targets.empty() && result.backends == 0)
        return makeError(result.errors.front());
    if (options.fetchSummaries)
        fetchDispatchLevels({trustedPrs.begin(), trustedPrs.end()}, result);
    if (options.fetchPrInfo)
        fetchTitles(result);
    (void)m_cache.setMeta("last_sync", formatIso(nowSeconds()));
    (void)m_cache.setMeta("hud_url", m_hud.baseUrl());
    return result;
}

void HudSync::fetchDispatchLevels(const std::vector<PrNumber>& prs, SyncReport& result)
{
    // Newest PRs first, at most 500 a sync (25 calls).
    std::vector<PrNumber> wanted(prs.rbegin(), prs.rend());
    if (wanted.size() > 500)
        wanted.resize(500);
    std::vector<DispatchLevel> levels;
    for (std::size_t start = 0; start < wanted.size(); start += kLevelBatch) {
        const auto end = std::min(wanted.size(), start + kLevelBatch);
        std::vector<std::int64_t> numbers;
        for (std::size_t i = start; i < end; ++i)
            numbers.push_back(wanted[i].value);
        const json params{{"prNums", numbers}};
        auto rows = m_hud.savedQuery("crcr_hud_results", params);
        if (!rows) {
            result.warnings.push_back("dispatch-time levels: " + rows.message());
            return;
        }
        auto mapped = mapRunLevels(*rows);
        if (!mapped) {
            result.warnings.push_back("dispatch-time levels: " + mapped.message());
            return;
        }
        levels.insert(levels.end(), mapped->begin(), mapped->end());
    }
    if (auto r = RunStore(m_cache).applyDispatchLevels(levels); !r)
        result.warnings.push_back("dispatch-time levels: " + r.message());
}

void HudSync::fetchTitles(SyncReport& result)
{
    if (auto prs = RunStore(m_cache).prNumbersWithoutTitle(500); prs && !prs->empty()) {
        auto infos = m_hud.prInfo(*prs);
        if (auto r = RunStore(m_cache).applyPrInfo(infos.rows); !r)
            result.warnings.push_back("PR titles: " + r.message());
        for (const auto& e : infos.errors)
            result.warnings.push_back("PR titles: " + e);
        if (!infos.failed.empty()) {
            std::string list;
            for (const auto pr : infos.failed)
                list += (list.empty() ? "#" : ", #") + std::to_string(pr.value);
            result.workarounds.push_back("pr-info answered 500 for batches holding " + list
                                         + "; asked the rest apart, every other title kept");
        }
    }
    if (auto shas = RunStore(m_cache).nightlyShasWithoutTitle(200); shas && !shas->empty()) {
        auto infos = m_hud.commitInfo(*shas);
        SyncBatch batch;
        // A nightly's SHA is a main commit (real-backends.md section 2): the
        // rows gave its branch; commit-info only titles it ("" keeps it).
        for (const auto& info : infos.rows)
            batch.commits.push_back(
                UpstreamCommit{info.sha, 0, "", EventType::Nightly, 0, info.title, info.author});
        if (auto r = RunStore(m_cache).apply(batch); !r)
            result.warnings.push_back("nightly titles: " + r.message());
        for (const auto& e : infos.errors)
            result.warnings.push_back("nightly titles: " + e);
    }
}

KeptAggregates cachedAggregates(const Database& cache, int days)
{
    KeptAggregates out;
    const auto rows = [&](const char* query, const json& params) -> std::optional<json> {
        auto answer = HudAnswerStore(cache).hudAnswer(query, answerKey(params));
        if (!answer || !*answer)
            return std::nullopt;
        return parseJsonOrDiscarded((*answer)->body);
    };
    if (auto doc = rows("crcr_summary", json{{"days", days}}))
        if (auto mapped = mapRepoSummaries(*doc)) {
            out.repos = std::move(*mapped);
            out.reposAnswered = true;
        }
    if (auto doc = rows("crcr_nightly_summary", json{{"days", days}}))
        if (auto mapped = mapNightlySummaries(*doc)) {
            for (NightlySummary& s : *mapped)
                out.nightly.emplace(s.repo, std::move(s));
            out.nightlyAnswered = true;
        }
    for (const char* event : kKeptDailyEvents) {
        const auto doc = rows("crcr_success_rate", json{{"days", days}, {"event_type", event}});
        if (!doc)
            continue;
        auto mapped = mapDailyRates(*doc);
        if (!mapped)
            continue;
        out.dailyAnswered = true;
        for (DailyRate& d : *mapped) // the query orders by day
            out.daily[d.repo][event].push_back(std::move(d));
    }
    return out;
}

std::optional<RelayHealth> cachedRelayHealth(const Database& cache)
{
    auto prs = HudAnswerStore(cache).hudAnswer("crcr_health_last_prs",
                                               answerKey(json{{"count", kProbeHealthCount}}));
    auto nightly = HudAnswerStore(cache).hudAnswer(
        "crcr_nightly_dashboard",
        answerKey(json{{"repo", kProbeRepo}, {"days", kProbeNightlyDays}}));
    if ((!prs || !*prs) && (!nightly || !*nightly))
        return std::nullopt;
    std::vector<ProbePr> probePrs;
    if (prs && *prs) {
        const json doc = parseJsonOrDiscarded((*prs)->body);
        if (auto mapped = mapProbePrs(doc))
            probePrs = std::move(*mapped);
    }
    std::vector<CheckRun> runs;
    if (nightly && *nightly) {
        const json doc = parseJsonOrDiscarded((*nightly)->body);
        const RowContext context{kProbeRepo, EventType::Nightly, {}, 0, "crcr_nightly_dashboard"};
        if (doc.is_array())
            for (const auto& row : doc)
                if (auto run = mapCheckRunRow(row, context))
                    runs.push_back(std::move(*run));
    }
    return judgeRelayHealth(probePrs, runs);
}

} // namespace relayhud
