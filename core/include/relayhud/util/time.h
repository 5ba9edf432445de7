#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relayhud {

// Seconds since the Unix epoch, UTC.
using EpochSeconds = std::int64_t;

inline constexpr EpochSeconds kSecondsPerHour = 3600;
inline constexpr EpochSeconds kSecondsPerDay = 86400;

// Parses the timestamp shapes the HUD and GitHub emit, always UTC:
// "2026-05-04T20:48:28Z", "2026-05-04T20:48:28.000000000Z" (ClickHouse iso),
// "2026-05-04 20:48:28" and "2026-05-04 20:48:28.123" (ClickHouse simple).
// The ClickHouse zero value ("1970-01-01 00:00:00") means "not set": nullopt.
std::optional<EpochSeconds> parseTimestamp(std::string_view text);

// "2026-05-04T20:48:28Z"
std::string formatIso(EpochSeconds t);

EpochSeconds nowSeconds();
// Milliseconds since the Unix epoch, UTC.
std::int64_t nowMilliseconds();

} // namespace relayhud
