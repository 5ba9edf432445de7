#pragma once
// A commit a job's actions/checkout step (or torch-spyre's checkout-pytorch
// action) says it checked out, read from the
// job's GitHub log (logs/checkout_scan.h), kept in the cache
// (CheckoutStore::putLogCheckouts) and judged by the integration doctor against the
// SHA the relay dispatched (doctor/runtime_health.h, check `tested-sha`).
#include <cstdint>
#include <string>

namespace relayhud {

struct LogCheckout {
    // "pytorch/pytorch", as the step's "Syncing repository:" line named it;
    // "" when no such line came since the previous checkout (cannot say whose).
    std::string repository;
    // Lowercase hex, 40 (SHA-1) or 64 (SHA-256) digits; for torch-spyre's
    // checkout-pytorch, the abbreviation `git log -1 --oneline` printed when
    // FETCH_REF named a branch (7 or more digits), "" when it printed none.
    std::string sha;
    std::uint64_t line = 0; // the line of the SHA in the raw log, from 1
    // torch-spyre's checkout-pytorch: its `FETCH_REF <ref>` as printed (a SHA
    // or "release/X.Y"); "" for actions/checkout.
    std::string fetchRef{};
    bool operator==(const LogCheckout&) const = default;
};

} // namespace relayhud
