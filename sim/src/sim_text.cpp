#include "sim_text.h"

#include <charconv>
#include <cstdio>
#include <ctime>

namespace relayhud::sim {
namespace {

std::tm utc(std::int64_t t)
{
    const auto seconds = static_cast<std::time_t>(t);
    std::tm out{};
    gmtime_r(&seconds, &out);
    return out;
}

void appendPadded(std::string& out, std::uint64_t value, int width)
{
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    for (auto digits = end - buf; digits < width; ++digits)
        out.push_back('0');
    out.append(buf, end);
}

} // namespace

void appendInt(std::string& out, std::int64_t value)
{
    char buf[24];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
    out.append(buf, end);
}

void appendSeconds(std::string& out, std::uint64_t micros, int decimals)
{
    std::uint64_t scale = 1;
    for (int i = decimals; i < 6; ++i)
        scale *= 10;
    const std::uint64_t units = (micros + scale / 2) / scale; // rounded to `decimals`
    std::uint64_t one = 1;
    for (int i = 0; i < decimals; ++i)
        one *= 10;
    appendInt(out, static_cast<std::int64_t>(units / one));
    if (decimals > 0) {
        out.push_back('.');
        appendPadded(out, units % one, decimals);
    }
}

void appendXmlEscaped(std::string& out, std::string_view text, bool attribute)
{
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': attribute ? out += "&quot;" : out += c; break;
        case '\n': attribute ? out += "&#10;" : out += c; break;
        case '\r': out += "&#13;"; break;
        case '\t': attribute ? out += "&#9;" : out += c; break;
        default: out.push_back(c);
        }
    }
}

std::string githubTime(std::int64_t epochSeconds)
{
    const std::tm tm = utc(epochSeconds);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02dZ", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
    return buf;
}

void appendLogTimestamp(std::string& out, std::uint64_t ticks)
{
    const std::tm tm = utc(static_cast<std::int64_t>(ticks / 10'000'000));
    appendPadded(out, static_cast<std::uint64_t>(tm.tm_year + 1900), 4);
    out.push_back('-');
    appendPadded(out, static_cast<std::uint64_t>(tm.tm_mon + 1), 2);
    out.push_back('-');
    appendPadded(out, static_cast<std::uint64_t>(tm.tm_mday), 2);
    out.push_back('T');
    appendPadded(out, static_cast<std::uint64_t>(tm.tm_hour), 2);
    out.push_back(':');
    appendPadded(out, static_cast<std::uint64_t>(tm.tm_min), 2);
    out.push_back(':');
    appendPadded(out, static_cast<std::uint64_t>(tm.tm_sec), 2);
    out.push_back('.');
    appendPadded(out, ticks % 10'000'000, 7);
    out += "Z ";
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::string base64(std::string_view bytes)
{
    static constexpr char kAlphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    for (std::size_t i = 0; i < bytes.size(); i += 3) {
        const auto byte = [&](std::size_t k) -> unsigned {
            return k < bytes.size() ? static_cast<unsigned char>(bytes[k]) : 0U;
        };
        const unsigned chunk = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
        out.push_back(kAlphabet[chunk >> 18 & 63]);
        out.push_back(kAlphabet[chunk >> 12 & 63]);
        out.push_back(i + 1 < bytes.size() ? kAlphabet[chunk >> 6 & 63] : '=');
        out.push_back(i + 2 < bytes.size() ? kAlphabet[chunk & 63] : '=');
    }
    return out;
}

} // namespace relayhud::sim
