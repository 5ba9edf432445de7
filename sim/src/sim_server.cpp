#include "relayhud/sim/sim_server.h"

#include "relayhud/sim/httplib_quiet.h"
#include "relayhud/sim/sim_artifacts.h"
#include "sim_artifact_routes.h"
#include "sim_encoding.h"
#include "sim_faults.h"
#include "sim_http.h"
#include "sim_routes.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace relayhud::sim {
namespace {

constexpr std::size_t kMaxCachedAnswers = 4096;
// Threads serving connections (see SimServer::start).
constexpr std::size_t kServerThreads = 64;

ApiRequest toApiRequest(const httplib::Request& req)
{
    ApiRequest out;
    out.method = req.method;
    out.path = req.path;
    for (const auto& [key, value] : req.params)
        out.params.emplace(key, value); // emplace keeps the first of repeated keys
    return out;
}

std::string cacheKey(const ApiRequest& request)
{
    std::string key = request.path;
    for (const auto& [name, value] : request.params)
        key += '\n' + name + '=' + value;
    return key;
}

std::string lowerCase(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// cpp-httplib 0.11 slices every answer, errors included, by the request's
// Range header; the stores answer Range themselves (206, Content-Range, 416),
// so the parsed ranges are dropped before the handler runs. The Request
// object is the server's own non-const one, handed to handlers as const.
void takeOverRanges(const httplib::Request& req)
{
    const_cast<httplib::Request&>(req).ranges.clear();
}

SimRequest toSimRequest(const httplib::Request& req)
{
    SimRequest out;
    out.method = req.method;
    out.path = req.path;
    const std::size_t question = req.target.find('?');
    out.rawPath = req.target.substr(0, question);
    out.rawQuery = question == std::string::npos ? "" : req.target.substr(question + 1);
    for (const auto& [key, value] : req.params)
        out.params.emplace(key, value); // emplace keeps the first of repeated keys
    for (const auto& [name, value] : req.headers)
        out.headers.emplace(lowerCase(name), value);
    return out;
}

// httplib encodes text answers on its own (brotli at quality 11 when the
// client accepts br). Neither S3, GitHub's log storage nor the HUD's error
// pages do: they serve the stored bytes. Only the JSON the server gzips itself
// (as the HUD's host does) goes out encoded. Same non-const object as above.
void serveBodiesAsStored(const httplib::Request& req)
{
    const_cast<httplib::Request&>(req).headers.erase("Accept-Encoding");
}

void write(httplib::Response& res, const ApiResponse& answer)
{
    res.status = answer.status;
    for (const auto& [name, value] : answer.headers)
        res.set_header(name.c_str(), value);
    if (answer.status != 304)
        res.set_content(answer.body, answer.contentType.c_str());
}

} // namespace

struct SimServer::Impl {
    Impl(SimDataset data, const FaultConfig& faults, SimStoreSettings stores)
        : dataset(std::move(data)), routes(dataset), storeSettings(std::move(stores)),
          artifactRoutes(dataset, storeSettings, clock, base)
    {
        injector.configure(faults);
        const auto serve = [this](const httplib::Request& req, httplib::Response& res) {
            handle(req, res);
        };
        server.Get(".*", serve);
        // Only so the allowlist can answer them 405 (allowlist.ts); every
        // other route treats them as it treats a GET.
        server.Post(".*", serve);
        server.Put(".*", serve);
        server.Patch(".*", serve);
        server.Delete(".*", serve);
    }

    void handle(const httplib::Request& req, httplib::Response& res);
    ApiResponse answer(const ApiRequest& request, const FaultConfig& faults);
    RouteFaults routeFaults(const ApiRequest& request, const FaultConfig& faults);
    ApiResponse hudAnswer(const httplib::Request& req, const FaultConfig& faults);
    void rebaseArtifactUrls();

    SimDataset dataset;
    SimRoutes routes; // refers to dataset, so declared after it
    SimStoreSettings storeSettings;
    SimClock clock;
    std::string base; // set by start(), before the first request
    ArtifactRoutes artifactRoutes;
    FaultInjector injector;
    httplib::Server server;
    std::thread thread;
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::int64_t> allowlistGets{0};
    int port = -1;
    bool stopped = false;
    std::mutex cacheMutex;
    std::unordered_map<std::string, ApiResponse> cache;
};

// The allowlist's fetch from GitHub fails once it has answered N GETs.
RouteFaults SimServer::Impl::routeFaults(const ApiRequest& request, const FaultConfig& faults)
{
    RouteFaults out;
    out.prInfoFail = faults.prInfoFail;
    if (request.path == "/api/crcr/allowlist" && request.method == "GET") {
        const std::int64_t served = allowlistGets++;
        const auto after = [served](int n) { return n >= 0 && served >= n; };
        const bool fails = after(faults.allowlistFailAfter);
        const bool stale = after(faults.allowlistStaleAfter);
        if (fails && (!stale || faults.allowlistFailAfter <= faults.allowlistStaleAfter))
            out.allowlist = AllowlistFetch::Fails;
        else if (stale)
            out.allowlist = AllowlistFetch::FailsWithCache;
    }
    return out;
}

// The dataset never changes, so a query answer computed once serves every
// later identical request (benchmarks hammer the same pages). The
// /api/crcr/* answers depend on faults and counters: never cached.
ApiResponse SimServer::Impl::answer(const ApiRequest& request, const FaultConfig& faults)
{
    if (!SimRoutes::isQuery(request.path))
        return routes.handle(request, routeFaults(request, faults));
    const std::string key = cacheKey(request);
    {
        std::lock_guard lock(cacheMutex);
        if (const auto it = cache.find(key); it != cache.end())
            return it->second;
    }
    ApiResponse out = routes.handle(request);
    std::lock_guard lock(cacheMutex);
    if (cache.size() >= kMaxCachedAnswers)
        cache.clear();
    cache.emplace(key, out);
    return out;
}

// HUD answers carry a strong ETag of the full body; If-None-Match gets 304.
// A body over the Vercel cap never leaves the function.
ApiResponse SimServer::Impl::hudAnswer(const httplib::Request& req, const FaultConfig& faults)
{
    ApiResponse out = answer(toApiRequest(req), faults);
    if (faults.maxResponseBytes > 0 && out.body.size() > faults.maxResponseBytes)
        return payloadTooLarge();
    if (out.status != 200)
        return out;
    const std::string etag = quotedHash(out.body);
    out.headers.emplace_back("ETag", etag);
    if (matchesEtag(req.get_header_value("If-None-Match"), etag))
        return ApiResponse{304, {}, out.contentType, {{"ETag", etag}}};
    return out;
}

void SimServer::Impl::handle(const httplib::Request& req, httplib::Response& res)
{
    takeOverRanges(req);
    const std::uint64_t number = ++requests;
    const FaultConfig faults = injector.config();
    if (faults.latencyMs > 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(faults.latencyMs));
    FaultKind fault = FaultInjector::decide(faults, number);
    if (fault == FaultKind::Drop) {
        if (dropConnection(req.local_port, req.remote_port))
            return;
        fault = FaultKind::Error; // no socket to cut: fail loudly instead
    }
    if (fault == FaultKind::TooMany || fault == FaultKind::Error) {
        serveBodiesAsStored(req);
        write(res, faultResponse(fault, faults.htmlErrors));
        return;
    }
    ApiResponse out = ArtifactRoutes::owns(req.path) ? artifactRoutes.handle(toSimRequest(req))
                                                     : hudAnswer(req, faults);
    // A cut made on the way keeps the headers (the ETag of the full answer
    // too): a client that stores it for a body it could not parse is told 304.
    if (out.status == 200 && fault == FaultKind::Truncate)
        out.body.resize(out.body.size() / 2);
    if (out.contentType == kJsonContentType && out.status != 304) {
        out.headers.emplace_back("Vary", "Accept-Encoding");
        if (acceptsGzip(req.get_header_value("Accept-Encoding"))) {
            out.body = gzip(out.body);
            out.headers.emplace_back("Content-Encoding", "gzip");
        }
    }
    serveBodiesAsStored(req);
    write(res, out);
}

// HTTPS-file artifact_urls name the server, whose port is known only now.
void SimServer::Impl::rebaseArtifactUrls()
{
    const std::string_view unbound = kSimUnboundBaseUrl;
    for (SimRow& row : dataset.rows) {
        std::string& url = row.run.reported.artifactUrl;
        if (url.compare(0, unbound.size(), unbound) == 0)
            url = base + url.substr(unbound.size());
    }
}

SimServer::SimServer(SimDataset dataset, FaultConfig faults, SimStoreSettings stores)
    : m_impl(std::make_unique<Impl>(std::move(dataset), faults, std::move(stores)))
{
}

SimServer::~SimServer() { stop(); }

int SimServer::start(int port)
{
    Impl& d = *m_impl;
    if (d.thread.joinable())
        return d.port;
    if (d.stopped)
        return -1; // httplib servers are not restartable
    d.port = port == 0 ? d.server.bind_to_any_port("127.0.0.1")
                       : (d.server.bind_to_port("127.0.0.1", port) ? port : -1);
    if (d.port <= 0)
        return d.port = -1;
    d.base = baseUrl();
    d.rebaseArtifactUrls();
    // httplib serves with a pool of max(8, cores - 1) threads, and a kept-alive
    // connection holds its thread until it idles out (5 s). A client with more
    // connections open than that (a sync's parallel pages and queries, as the
    // real HUD's host takes them) then waited 5 s for a thread; the HUD and
    // GitHub serve far more connections at once than any client opens.
    d.server.new_task_queue = [] { return new httplib::ThreadPool(kServerThreads); };
    d.thread = std::thread([&d] { d.server.listen_after_bind(); });
    // stop() only interrupts a server that is already in its accept loop.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!d.server.is_running() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    return d.port;
}

void SimServer::stop()
{
    Impl& d = *m_impl;
    if (!d.thread.joinable())
        return;
    d.server.stop();
    d.thread.join();
    d.stopped = true;
}

std::string SimServer::baseUrl() const
{
    return "http://127.0.0.1:" + std::to_string(m_impl->port);
}

const SimDataset& SimServer::dataset() const { return m_impl->dataset; }

void SimServer::setFaults(const FaultConfig& faults) { m_impl->injector.configure(faults); }

std::uint64_t SimServer::requestCount() const { return m_impl->requests.load(); }

std::string SimServer::githubApiUrl() const { return baseUrl() + "/api/v3"; }

std::string SimServer::s3Endpoint() const { return baseUrl() + "/s3"; }

const SimStoreSettings& SimServer::storeSettings() const { return m_impl->storeSettings; }

const std::string& SimServer::githubToken() const { return m_impl->storeSettings.githubToken; }

const std::string& SimServer::s3AccessKeyId() const { return m_impl->storeSettings.s3AccessKeyId; }

const std::string& SimServer::s3SecretAccessKey() const
{
    return m_impl->storeSettings.s3SecretAccessKey;
}

void SimServer::advanceClock(std::int64_t seconds) { m_impl->clock.advance(seconds); }

} // namespace relayhud::sim
