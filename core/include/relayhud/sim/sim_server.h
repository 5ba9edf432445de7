#pragma once
// relayhud-sim's HTTP server (cpp-httplib on loopback), usable in-process by
// tests: serves the HUD read API from a SimDataset with the real shapes, and
// injects faults on request. Every 200 carries a strong ETag (a hash of the
// uncompressed body) and If-None-Match gets 304; JSON is gzipped when the
// client accepts gzip (never brotli).
#include "relayhud/sim/sim_dataset.h"

#include <cstdint>
#include <memory>
#include <string>

namespace relayhud::sim {

// Which request gets which fault depends only on (seed, request number), so
// a run replays identically. Rates are shares in [0, 1].
struct FaultConfig {
    double errorRate = 0.0;    // share of requests answered 500
    int latencyMs = 0;         // added to every answer
    int tooManyEvery = 0;      // every Nth request gets 429 with Retry-After: 1
    double truncateRate = 0.0; // share of 200 answers whose body stops halfway; status,
                               // ETag and a Content-Length matching the cut body are kept
    double dropRate = 0.0;     // share of connections closed without an answer
    bool htmlErrors = false;   // injected 429/500 come as an HTML page, as a proxy sends
    std::uint64_t seed = 1;
};

class SimServer {
public:
    SimServer(SimDataset dataset, FaultConfig faults = {});
    ~SimServer();
    SimServer(const SimServer&) = delete;
    SimServer& operator=(const SimServer&) = delete;

    // Binds 127.0.0.1:port (0 = any free port) and serves on a background
    // thread. Returns the bound port, or -1 on failure. A server starts once;
    // after stop() make a new one.
    int start(int port = 0);
    void stop();
    std::string baseUrl() const; // "http://127.0.0.1:PORT"
    const SimDataset& dataset() const;

    // Change faults while running (tests turn an outage on and off).
    void setFaults(const FaultConfig& faults);
    std::uint64_t requestCount() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace relayhud::sim
