#pragma once
// Small helpers every bench section uses: a clock, medians, and sizes that
// the environment can override.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

namespace relayhud::bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point start)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

inline double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0.0 : values[values.size() / 2];
}

// A positive number from the environment (e.g. RELAYHUD_BENCH_CASES), or
// `fallback` when it is unset or not a positive number.
inline int envNumber(const char* name, int fallback)
{
    const char* text = std::getenv(name);
    const long value = text ? std::strtol(text, nullptr, 10) : 0;
    return value > 0 && value <= 1'000'000'000 ? static_cast<int>(value) : fallback;
}

} // namespace relayhud::bench
