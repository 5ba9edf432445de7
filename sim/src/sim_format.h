#pragma once
// Wire formats of the HUD's ClickHouse answers (date_time_output_format=iso,
// output_format_json_quote_64bit_integers=0), written here rather than borrowed
// from the client's parsers: the simulator is the oracle the client is tested
// against, so it must not share the client's mistakes.
#include "relayhud/model/types.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace relayhud::sim {

// DateTime64(9): "2026-05-04T20:48:28.123456000Z" (the callbacks send
// microseconds, so the last three digits are always 0).
std::string clickhouseIso(EpochSeconds t, int micros = 0);
// The zero DateTime64(9) that an unfinished row carries as completed_at.
inline constexpr std::string_view kZeroDateTime = "1970-01-01T00:00:00.000000000Z";
// "2026-05-04"
std::string isoDate(EpochSeconds t);

// Float64 as ClickHouse prints it: 3600 rather than 3600.0.
nlohmann::ordered_json float64(double value);

std::string_view wireStatus(RunStatus status);
std::string_view wireConclusion(Conclusion conclusion);
std::string_view wireEventType(EventType type);
std::string_view wireLevel(Level level);

} // namespace relayhud::sim
