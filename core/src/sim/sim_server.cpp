#include "relayhud/sim/sim_server.h"

#include "sim_encoding.h"
#include "sim_faults.h"
#include "sim_routes.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#include <httplib.h>
#pragma GCC diagnostic pop

#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace relayhud::sim {
namespace {

constexpr std::size_t kMaxCachedAnswers = 4096;

// A strong validator for the exact bytes of the body (FNV-1a, 64 bit).
std::string quotedHash(const std::string& body)
{
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (char c : body) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ULL;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(hash));
    return buf;
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

// If-None-Match holds "*" or a comma-separated list of (maybe weak) tags.
bool matchesEtag(const std::string& header, const std::string& etag)
{
    std::size_t start = 0;
    while (start < header.size()) {
        const std::size_t comma = std::min(header.find(',', start), header.size());
        std::string_view tag = trim(std::string_view(header).substr(start, comma - start));
        if (tag.substr(0, 2) == "W/")
            tag.remove_prefix(2);
        if (tag == "*" || tag == etag)
            return true;
        start = comma + 1;
    }
    return false;
}

ApiRequest toApiRequest(const httplib::Request& req)
{
    ApiRequest out;
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

void write(httplib::Response& res, const ApiResponse& answer)
{
    res.status = answer.status;
    for (const auto& [name, value] : answer.headers)
        res.set_header(name.c_str(), value);
    res.set_content(answer.body, answer.contentType.c_str());
}

} // namespace

struct SimServer::Impl {
    Impl(SimDataset data, const FaultConfig& faults) : dataset(std::move(data)), routes(dataset)
    {
        injector.configure(faults);
        server.Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
            handle(req, res);
        });
    }

    void handle(const httplib::Request& req, httplib::Response& res);
    ApiResponse answer(const ApiRequest& request);

    SimDataset dataset;
    SimRoutes routes; // refers to dataset, so declared after it
    FaultInjector injector;
    httplib::Server server;
    std::thread thread;
    std::atomic<std::uint64_t> requests{0};
    int port = -1;
    bool stopped = false;
    std::mutex cacheMutex;
    std::unordered_map<std::string, ApiResponse> cache;
};

// The dataset never changes, so an answer computed once serves every later
// identical request (benchmarks hammer the same pages).
ApiResponse SimServer::Impl::answer(const ApiRequest& request)
{
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

void SimServer::Impl::handle(const httplib::Request& req, httplib::Response& res)
{
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
        write(res, faultResponse(fault, faults.htmlErrors));
        return;
    }
    ApiResponse out = answer(toApiRequest(req));
    if (out.status == 200) {
        // The validator of the full answer, also on a truncated one: a cut
        // made on the way keeps the headers, and a client that stores the
        // ETag of a body it could not parse will be told 304 next time.
        const std::string etag = quotedHash(out.body);
        out.headers.emplace_back("ETag", etag);
        if (matchesEtag(req.get_header_value("If-None-Match"), etag)) {
            res.status = 304;
            res.set_header("ETag", etag);
            return;
        }
        if (fault == FaultKind::Truncate)
            out.body.resize(out.body.size() / 2);
    }
    if (out.contentType == kJsonContentType) {
        out.headers.emplace_back("Vary", "Accept-Encoding");
        if (acceptsGzip(req.get_header_value("Accept-Encoding"))) {
            out.body = gzip(out.body);
            out.headers.emplace_back("Content-Encoding", "gzip");
        }
    }
    write(res, out);
}

SimServer::SimServer(SimDataset dataset, FaultConfig faults)
    : m_impl(std::make_unique<Impl>(std::move(dataset), faults))
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

} // namespace relayhud::sim
