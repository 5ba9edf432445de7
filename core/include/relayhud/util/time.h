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

// An instant as a user or a test gives it: seconds since the epoch
// ("1777914000") or a timestamp parseTimestamp reads ("2026-05-04T17:00:00Z").
std::optional<EpochSeconds> parseInstant(std::string_view text);

// "Now", for every judgement that depends on it: a window of days, a stale
// run, a retry or a rate-limit reset that is due, the time of a tag. This is
// the one reading of the wall clock. It is the system clock unless pinned: a
// pinned clock reads `at` at the moment it is pinned and advances with the
// system clock from there, so durations and order stay real while the
// instant is chosen. Each test process pins it (no result may depend on when
// the tests run); `--now` pins it in the apps and the simulator, to replay a
// world as of then. Any thread may read it; pin it before starting threads.
EpochSeconds nowSeconds();
// Milliseconds since the Unix epoch, UTC.
std::int64_t nowMilliseconds();
void pinClock(EpochSeconds at);

} // namespace relayhud
