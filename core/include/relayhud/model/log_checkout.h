#pragma once
// A commit a job's actions/checkout step says it checked out, read from the
// job's GitHub log (logs/checkout_scan.h), kept in the cache
// (Cache::putLogCheckouts) and judged by the integration doctor against the
// SHA the relay dispatched (doctor/runtime_health.h, check `tested-sha`).
#include <cstdint>
#include <string>

namespace relayhud {

struct LogCheckout {
    // "pytorch/pytorch", as the step's "Syncing repository:" line named it;
    // "" when no such line came since the previous checkout (cannot say whose).
    std::string repository;
    std::string sha;        // lowercase hex, 40 (SHA-1) or 64 (SHA-256) digits
    std::uint64_t line = 0; // the line of the SHA in the raw log, from 1
    bool operator==(const LogCheckout&) const = default;
};

} // namespace relayhud
