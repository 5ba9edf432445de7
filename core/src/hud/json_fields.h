#pragma once
// Lenient, typed reads of JSON fields as the HUD sends them: ClickHouse may
// quote 64-bit integers, and older rows miss columns that newer ones have.
// Each reader returns an Error naming the field when the value has the wrong
// type, and the fallback when the field is absent or null.
#include "relayhud/util/result.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace relayhud::hud {

Result<std::string> stringField(const nlohmann::json& row, const char* name,
                                std::string fallback = {});
Result<std::int64_t> intField(const nlohmann::json& row, const char* name,
                              std::int64_t fallback = 0);
Result<std::optional<double>> optDoubleField(const nlohmann::json& row, const char* name);
// A DateTime64 column: ISO text; empty, absent or the zero date is "not set".
Result<std::optional<std::int64_t>> optTimeField(const nlohmann::json& row, const char* name);

// Reads a field into `out`, or keeps the first error in `error`.
template <class T, class R>
void take(R&& result, T& out, std::optional<Error>& error)
{
    if (error)
        return;
    if (result)
        out = std::move(result.value());
    else
        error = result.error();
}

// Parses a whole HTTP body as JSON, with a short message for HTML pages and
// truncated or invalid documents.
Result<nlohmann::json> parseJsonBody(const std::string& body, const std::string& url);

} // namespace relayhud::hud
