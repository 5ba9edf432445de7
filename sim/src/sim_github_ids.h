#pragma once
// What every simulated GitHub object shares: the web root of its html_url and
// its numeric id, stable per name (GitHub's ids are opaque numbers; ours are a
// hash of the object's name above a per-kind base).
#include "relayhud/util/hash.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace relayhud::sim {

inline constexpr std::string_view kGitHubWeb = "https://github.com/";

inline std::string gitHubWebUrl(std::string_view path)
{
    return std::string(kGitHubWeb) + std::string(path);
}

inline std::int64_t gitHubIdOf(std::string_view text, std::int64_t base)
{
    return base + static_cast<std::int64_t>(fnv1a(text) % 900'000'000);
}

} // namespace relayhud::sim
