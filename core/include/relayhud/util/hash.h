#pragma once
// FNV-1a, 64 bit: a fast, stable hash for keys that are not adversarial
// (test identities, simulator seeds). Stable across runs and builds, so it
// may be stored.
#include <cstdint>
#include <string_view>

namespace relayhud {

inline constexpr std::uint64_t kFnv1aOffset = 0xCBF29CE484222325ULL;

constexpr std::uint64_t fnv1a(std::string_view bytes, std::uint64_t hash = kFnv1aOffset)
{
    for (const char c : bytes) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ULL;
    }
    return hash;
}

} // namespace relayhud
