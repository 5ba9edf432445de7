#pragma once
// The simulator's only source of randomness: splitmix64, seeded explicitly.
// std::random_device and the <random> distributions are avoided on purpose:
// their output differs between standard libraries, and the dataset must be
// identical for a given seed on every machine.
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace relayhud::sim {

inline std::uint64_t splitmix64Step(std::uint64_t& state)
{
    state += 0x9E3779B97F4A7C15ULL;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Folds several values into one seed, so independent streams (one per
// backend and commit, one per request) do not shift when another stream
// draws more or fewer numbers.
inline std::uint64_t mixSeed(std::initializer_list<std::uint64_t> parts)
{
    std::uint64_t state = 0x243F6A8885A308D3ULL;
    std::uint64_t out = 0;
    for (std::uint64_t part : parts) {
        state ^= part;
        out = splitmix64Step(state);
    }
    return out;
}

class SplitMix64 {
public:
    explicit SplitMix64(std::uint64_t seed) : m_state(seed) {}

    std::uint64_t next() { return splitmix64Step(m_state); }

    // Uniform in [0, 1).
    double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

    bool chance(double p) { return unit() < p; }

    // Uniform in [0, n); n > 0. The modulo bias is irrelevant at these sizes.
    std::uint64_t below(std::uint64_t n) { return next() % n; }

    // Uniform in [lo, hi], both inclusive.
    std::int64_t range(std::int64_t lo, std::int64_t hi)
    {
        const auto span = static_cast<std::uint64_t>(hi - lo) + 1U;
        return lo + static_cast<std::int64_t>(below(span));
    }

    std::size_t index(std::size_t size) { return static_cast<std::size_t>(below(size)); }

    template <class T>
    const T& pick(const std::vector<T>& items)
    {
        return items[index(items.size())];
    }

    // count lowercase hex digits.
    std::string hex(std::size_t count)
    {
        static constexpr char kDigits[] = "0123456789abcdef";
        std::string out;
        out.reserve(count);
        std::uint64_t bits = 0;
        for (std::size_t i = 0; i < count; ++i) {
            if (i % 16 == 0)
                bits = next();
            out.push_back(kDigits[bits & 0xFU]);
            bits >>= 4;
        }
        return out;
    }

private:
    std::uint64_t m_state;
};

} // namespace relayhud::sim
