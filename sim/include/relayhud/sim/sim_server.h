#pragma once
// relayhud-sim's HTTP server (cpp-httplib on loopback), usable in-process by
// tests: serves the HUD read API from a SimDataset with the real shapes, and
// injects faults on request. Every 200 carries a strong ETag (a hash of the
// uncompressed body) and If-None-Match gets 304; JSON is gzipped when the
// client accepts gzip (never brotli). Errors are the real HUD's: every
// /api/clickhouse failure is Next.js's 500 text/plain "Internal Server
// Error", an unknown route is Next.js's HTML 404, and {"error": ...} JSON
// comes only from /api/crcr/* as their handlers send it.
//
// Beside the HUD it plays the downstream artifact stores (sim_artifacts.h):
//   {base}/api/v3  GitHub's REST API (GitHub Enterprise style): workflow runs,
//                  jobs, job logs and artifacts, with rate-limit headers,
//                  ETag/304, Link pagination and token auth on downloads;
//   {base}/blob/   the short-lived signed URLs the API redirects to;
//   {base}/s3      an S3-compatible bucket that verifies SigV4 signatures;
//   {base}/files/  plain HTTPS report files.
#include "relayhud/sim/sim_dataset.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

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
    // Vercel's cap on a function's response body (4.5 MB on the real HUD):
    // a HUD answer whose uncompressed body is larger becomes a 500
    // FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE. 0 = no cap.
    std::uint64_t maxResponseBytes = 0;
    // /api/crcr/allowlist answers normally this many times, then as when the
    // GitHub raw fetch fails: 502 {"error": ...} on an instance with nothing
    // cached (allowlistFailAfter), or 200 + X-Database: STALE with the last data
    // (allowlistStaleAfter). -1 = never. When both are set, the smaller wins.
    int allowlistFailAfter = -1;
    int allowlistStaleAfter = -1;
    // PR numbers whose GraphQL lookup fails: any pr-info batch holding one
    // answers 500 for the whole batch (pr-info.ts runs one query).
    std::vector<PrNumber> prInfoFail{};
};

// Credentials and limits of the simulated stores.
struct SimStoreSettings {
    std::string githubToken = "ghs_relayhudSimulatorToken0000000000";
    std::string s3AccessKeyId = "RELAYHUDSIMULATOR";
    std::string s3SecretAccessKey = "relayhud/simulator/secret";
    std::string s3Region = "us-east-1";
    int githubRateLimit = 5000;        // API requests per hour with the token
    int githubAnonymousRateLimit = 60; // per hour without one
    int signedUrlSeconds = 60;         // lifetime of the URLs downloads redirect to
};

class SimServer {
public:
    SimServer(SimDataset dataset, FaultConfig faults = {}, SimStoreSettings stores = {});
    ~SimServer();
    SimServer(const SimServer&) = delete;
    SimServer& operator=(const SimServer&) = delete;

    // Binds 127.0.0.1:port (0 = any free port) and serves on a background
    // thread. Returns the bound port, or -1 on failure. A server starts once;
    // after stop() make a new one.
    int start(int port = 0);
    void stop();
    std::string baseUrl() const; // "http://127.0.0.1:PORT"
    // Once started, HTTPS-file artifact_urls in the dataset carry baseUrl().
    const SimDataset& dataset() const;

    std::string githubApiUrl() const; // baseUrl() + "/api/v3"
    std::string s3Endpoint() const;   // baseUrl() + "/s3"
    const SimStoreSettings& storeSettings() const;
    const std::string& githubToken() const;
    const std::string& s3AccessKeyId() const;
    const std::string& s3SecretAccessKey() const;
    // Moves the server's clock forward: signed URLs expire, rate-limit
    // windows reset. The dataset's `now` does not move.
    void advanceClock(std::int64_t seconds);

    // Change faults while running (tests turn an outage on and off).
    void setFaults(const FaultConfig& faults);
    std::uint64_t requestCount() const;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace relayhud::sim
