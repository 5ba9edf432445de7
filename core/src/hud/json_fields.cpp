#include "hud/json_fields.h"

#include "relayhud/hud/hud_client.h"
#include "relayhud/util/json_guard.h"
#include "relayhud/util/time.h"

#include <cctype>
#include <charconv>
#include <cmath>

namespace relayhud::hud {
namespace {

using nlohmann::json;

Error wrongType(const char* name, const json& value, const char* expected)
{
    std::string shown = value.dump();
    if (shown.size() > 40)
        shown = shown.substr(0, 40) + "...";
    return makeError(std::string("field '") + name + "' should be " + expected + " but is "
                     + shown);
}

std::optional<std::int64_t> parseInteger(const std::string& text)
{
    std::int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || text.empty())
        return std::nullopt;
    return value;
}

std::string htmlTitle(const std::string& body)
{
    const auto open = body.find("<title>");
    const auto close = body.find("</title>");
    if (open == std::string::npos || close == std::string::npos || close < open)
        return "no title";
    return body.substr(open + 7, std::min<std::size_t>(close - open - 7, 120));
}

} // namespace

Result<std::string> stringField(const json& row, const char* name, std::string fallback)
{
    const auto it = row.find(name);
    if (it == row.end() || it->is_null())
        return fallback;
    if (it->is_string())
        return it->get<std::string>();
    if (it->is_number_integer())
        return std::to_string(it->get<std::int64_t>());
    if (it->is_number_unsigned())
        return std::to_string(it->get<std::uint64_t>());
    return wrongType(name, *it, "a string");
}

Result<std::int64_t> intField(const json& row, const char* name, std::int64_t fallback)
{
    const auto it = row.find(name);
    if (it == row.end() || it->is_null())
        return fallback;
    if (it->is_number_integer())
        return it->get<std::int64_t>();
    if (it->is_number_float()) {
        const double d = it->get<double>();
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9e15)
            return static_cast<std::int64_t>(d);
    }
    if (it->is_string()) {
        if (const auto v = parseInteger(it->get<std::string>()))
            return *v;
        if (it->get<std::string>().empty())
            return fallback;
    }
    return wrongType(name, *it, "an integer");
}

Result<std::optional<double>> optDoubleField(const json& row, const char* name)
{
    const auto it = row.find(name);
    if (it == row.end() || it->is_null())
        return std::optional<double>{};
    if (it->is_number())
        return std::optional<double>{it->get<double>()};
    if (it->is_string()) {
        const std::string text = it->get<std::string>();
        if (text.empty())
            return std::optional<double>{};
        char* end = nullptr;
        const double d = std::strtod(text.c_str(), &end);
        if (end == text.c_str() + text.size() && std::isfinite(d))
            return std::optional<double>{d};
    }
    return wrongType(name, *it, "a number");
}

Result<std::optional<std::int64_t>> optTimeField(const json& row, const char* name)
{
    auto text = stringField(row, name);
    if (!text)
        return text.error();
    // The zero DateTime parses to nullopt too; only garbage is an error.
    if (text->empty() || text->rfind("1970-01-01", 0) == 0)
        return std::optional<std::int64_t>{};
    if (auto t = parseTimestamp(*text))
        return std::optional<std::int64_t>{*t};
    return makeError(std::string("field '") + name
                     + "' is not a timestamp: " + text->substr(0, 40));
}

Result<json> parseJsonBody(const std::string& body, const std::string& url)
{
    std::size_t first = 0;
    while (first < body.size() && std::isspace(static_cast<unsigned char>(body[first])))
        ++first;
    if (first == body.size())
        return makeError("empty answer from " + url + " (expected JSON)");
    if (body[first] == '<')
        return makeError("expected JSON from " + url + " but got an HTML page (" + htmlTitle(body)
                         + ")");
    if (auto bounded = checkJsonBounds(body, {kMaxJsonDepth, kMaxHudAnswerBytes}); !bounded)
        return makeError("refused the answer from " + url + ": " + bounded.message());
    json doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded())
        return makeError("invalid JSON from " + url + " (" + std::to_string(body.size())
                         + " bytes; truncated or not JSON)");
    return doc;
}

} // namespace relayhud::hud
