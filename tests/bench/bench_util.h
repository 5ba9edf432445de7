#pragma once
// Small helpers every bench section uses: a clock, medians, and sizes that
// the environment can override.
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
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

// The median of `rounds` timed calls of `run`, in milliseconds.
template <class F>
double medianMs(int rounds, F&& run)
{
    std::vector<double> times;
    for (int i = 0; i < rounds; ++i) {
        const auto start = Clock::now();
        run();
        times.push_back(msSince(start));
    }
    return median(times);
}

// A positive number from the environment (e.g. RELAYHUD_BENCH_CASES), or
// `fallback` when it is unset or not a positive number.
inline int envNumber(const char* name, int fallback)
{
    const char* text = std::getenv(name);
    const long value = text ? std::strtol(text, nullptr, 10) : 0;
    return value > 0 && value <= 1'000'000'000 ? static_cast<int>(value) : fallback;
}

// This process's resident memory (VmRSS), in MB; 0 where /proc has none.
inline double residentMb()
{
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            double kb = 0;
            status >> kb;
            return kb / 1024.0;
        }
        status.ignore(1 << 12, '\n');
    }
    return 0;
}

// Runs SQL on a raw connection (the benches' reference reads and setup);
// false, with SQLite's message on stderr, when it fails.
inline bool execOk(sqlite3* db, const char* sql)
{
    char* error = nullptr;
    if (sqlite3_exec(db, sql, nullptr, nullptr, &error) == SQLITE_OK)
        return true;
    std::fprintf(stderr, "sqlite: %s\n", error ? error : "?");
    sqlite3_free(error);
    return false;
}

} // namespace relayhud::bench
