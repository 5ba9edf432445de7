#pragma once
// Fault injection: which misbehaviour request n gets, decided from (seed, n)
// alone so a failing test replays the same way; the error bodies a failing
// backend or a proxy in front of it sends; and cutting a connection dead.
#include "relayhud/sim/sim_server.h"
#include "sim_routes.h"

#include <cstdint>
#include <mutex>
#include <string>

namespace relayhud::sim {

enum class FaultKind : std::uint8_t {
    None,
    Drop,     // connection closed, not one byte of answer
    TooMany,  // 429 with Retry-After: 1
    Error,    // 500
    Truncate, // 200 whose body stops halfway (Content-Length matches the cut body)
};

class FaultInjector {
public:
    void configure(const FaultConfig& config);
    FaultConfig config() const;
    // requestNumber counts from 1.
    FaultKind decide(std::uint64_t requestNumber) const;
    static FaultKind decide(const FaultConfig& config, std::uint64_t requestNumber);

private:
    mutable std::mutex m_mutex;
    FaultConfig m_config;
};

// The 429 or 500 answer, as JSON or as a proxy's HTML page.
ApiResponse faultResponse(FaultKind kind, bool html);

// Closes the server side of the connection between this server's local port
// and the client's port, so the handler's answer goes nowhere. Returns false
// when the socket could not be found.
bool dropConnection(int localPort, int remotePort);

} // namespace relayhud::sim
