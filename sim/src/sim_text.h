#pragma once
// Small, allocation-free appenders for the generators that write megabytes of
// XML and log text per request.
#include <cstdint>
#include <string>
#include <string_view>

namespace relayhud::sim {

void appendInt(std::string& out, std::int64_t value);
// Fixed-point seconds from microseconds: appendSeconds(out, 12345, 3) -> "0.012".
void appendSeconds(std::string& out, std::uint64_t micros, int decimals);
// XML character data; in an attribute also quotes and line breaks (&#10;).
void appendXmlEscaped(std::string& out, std::string_view text, bool attribute);
// GitHub's "2026-05-04T10:12:33Z".
std::string githubTime(std::int64_t epochSeconds);
// A raw log's "2026-05-04T10:12:33.1234567Z " from 100 ns ticks since the epoch.
void appendLogTimestamp(std::string& out, std::uint64_t ticks);
// Base64 (RFC 4648, with padding), as GitHub sends node ids and file contents.
std::string base64(std::string_view bytes);
// `text` without leading and trailing spaces and tabs (HTTP header values).
std::string_view trim(std::string_view text);

} // namespace relayhud::sim
