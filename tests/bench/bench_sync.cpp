// Sync speed: 10,000+ check-run rows from the simulator into an empty cache,
// then a re-sync with nothing new. Reference: fetching the very same URLs
// without parsing or storing (the transport floor); for the re-sync, asked
// with the ETags the sync stored, as the sync asks them (304s).
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/sim/sim_server.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/hud_sync.h"

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace relayhud::bench {
namespace {

// A dataset with at least `rows` rows, growing the job matrix as needed.
sim::SimDataset datasetWithRows(std::size_t rows)
{
    sim::SimConfig config;
    config.seed = 11;
    for (config.jobsScale = 1;; ++config.jobsScale) {
        auto dataset = sim::buildDataset(config);
        if (dataset.rows.size() >= rows || config.jobsScale >= 16)
            return dataset;
    }
}

// The allowlist and every page the sync stored a validator for, with its ETag.
std::vector<std::pair<std::string, std::string>> pageUrls(HudClient& hud, Database& cache)
{
    std::vector<std::pair<std::string, std::string>> urls{
        {hud.baseUrl() + "/api/crcr/allowlist", ""}};
    auto stored = RunStore(cache).validators();
    if (stored)
        for (const auto& [url, v] : *stored)
            urls.emplace_back(url, v.etag);
    return urls;
}

double fetchRaw(HttpClient& http, const std::vector<std::pair<std::string, std::string>>& urls,
                bool conditional)
{
    std::vector<HttpRequest> requests;
    for (const auto& [url, etag] : urls)
        requests.push_back(HttpRequest{url, {}, conditional ? etag : std::string()});
    const auto start = Clock::now();
    for (const auto& r : http.getAll(requests))
        if (!r)
            std::fprintf(stderr, "reference fetch failed: %s\n", r.message().c_str());
    return msSince(start);
}

} // namespace

void benchSync(Report& report)
{
    const auto dataset = datasetWithRows(10'000);
    sim::SimServer server(dataset);
    if (server.start(0) <= 0) {
        std::fprintf(stderr, "could not start the simulator\n");
        return;
    }
    const auto dir = std::filesystem::temp_directory_path() / "relayhud-bench-sync";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    auto cache = Database::open((dir / "cache.sqlite").string());
    if (!cache) {
        std::fprintf(stderr, "%s\n", cache.message().c_str());
        return;
    }
    HttpClient http;
    HudClient hud(http, server.baseUrl());
    HudSync sync(hud, **cache);
    SyncOptions options;
    options.days = 30;

    auto start = Clock::now();
    auto first = sync.run(options);
    const double firstMs = msSince(start);
    if (!first) {
        std::fprintf(stderr, "sync failed: %s\n", first.message().c_str());
        return;
    }
    std::printf("  dataset: %zu rows; synced %d check runs in %d pages\n", dataset.rows.size(),
                first->runs, first->pages);
    const auto urls = pageUrls(hud, **cache);
    const double rawMs = fetchRaw(http, urls, false);
    report.add({"sync " + std::to_string(first->runs) + " rows into an empty cache", firstMs, "ms",
                2000, "raw HTTP GET of the same " + std::to_string(urls.size()) + " URLs", rawMs});

    start = Clock::now();
    auto again = sync.run(options);
    const double againMs = msSince(start);
    if (again)
        report.add(
            {"re-sync, nothing new (" + std::to_string(again->pagesNotModified) + " pages 304)",
             againMs, "ms", 200, "raw conditional GET of the same URLs",
             fetchRaw(http, urls, true)});
    std::filesystem::remove_all(dir);
}

} // namespace relayhud::bench
