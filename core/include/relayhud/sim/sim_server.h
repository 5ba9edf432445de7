#pragma once
// relayhud-sim's HTTP server (cpp-httplib on loopback), usable in-process by
// tests: serves the HUD read API from a SimDataset with the real shapes, and
// injects faults on request.
#include "relayhud/sim/sim_dataset.h"

#include <cstdint>
#include <memory>
#include <string>

namespace relayhud::sim {

struct FaultConfig {
    double errorRate = 0.0;       // share of requests answered 500
    int latencyMs = 0;            // added to every answer
    int tooManyEvery = 0;         // every Nth request gets 429 with Retry-After: 1
    double truncateRate = 0.0;    // share of bodies cut in half (Content-Length kept honest? no: cut)
    double dropRate = 0.0;        // share of connections closed without an answer
    bool htmlErrors = false;      // errors come as an HTML page, as a proxy would send
    std::uint64_t seed = 1;
};

class SimServer {
public:
    SimServer(SimDataset dataset, FaultConfig faults = {});
    ~SimServer();
    SimServer(const SimServer&) = delete;
    SimServer& operator=(const SimServer&) = delete;

    // Binds 127.0.0.1:port (0 = any free port) and serves on a background
    // thread. Returns the bound port, or -1 on failure.
    int start(int port = 0);
    void stop();
    std::string baseUrl() const; // "http://127.0.0.1:PORT"

    // Change faults while running (tests turn an outage on and off).
    void setFaults(const FaultConfig& faults);
    std::uint64_t requestCount() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace relayhud::sim
