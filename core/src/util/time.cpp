#include "relayhud/util/time.h"

#include <algorithm>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cstdio>

namespace relayhud {
namespace {

bool readDigits(std::string_view text, std::size_t pos, std::size_t count, int& out)
{
    if (pos + count > text.size())
        return false;
    int value = 0;
    for (std::size_t i = pos; i < pos + count; ++i) {
        const char c = text[i];
        if (c < '0' || c > '9')
            return false;
        value = value * 10 + (c - '0');
    }
    out = value;
    return true;
}

// Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar.
std::int64_t daysFromCivil(int y, int m, int d)
{
    y -= m <= 2 ? 1 : 0;
    const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
    const auto yoe = static_cast<std::int64_t>(y - era * 400);
    const std::int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const std::int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

} // namespace

std::optional<EpochSeconds> parseTimestamp(std::string_view text)
{
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
    if (!readDigits(text, 0, 4, y) || text.size() < 19 || text[4] != '-'
        || !readDigits(text, 5, 2, mo) || text[7] != '-' || !readDigits(text, 8, 2, d)
        || (text[10] != 'T' && text[10] != ' ') || !readDigits(text, 11, 2, h) || text[13] != ':'
        || !readDigits(text, 14, 2, mi) || text[16] != ':' || !readDigits(text, 17, 2, s))
        return std::nullopt;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60)
        return std::nullopt;
    std::size_t pos = 19;
    if (pos < text.size() && text[pos] == '.') {
        ++pos;
        while (pos < text.size() && text[pos] >= '0' && text[pos] <= '9')
            ++pos;
    }
    std::int64_t offset = 0;
    if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) {
        int oh = 0, om = 0;
        if (!readDigits(text, pos + 1, 2, oh))
            return std::nullopt;
        const std::size_t mpos = text.size() > pos + 3 && text[pos + 3] == ':' ? pos + 4 : pos + 3;
        readDigits(text, mpos, 2, om);
        offset = (text[pos] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
        pos = text.size();
    } else if (pos < text.size() && text[pos] == 'Z') {
        ++pos;
    }
    if (pos != text.size())
        return std::nullopt;
    const EpochSeconds t = daysFromCivil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offset;
    if (t <= 0)
        return std::nullopt; // ClickHouse's zero DateTime: "not set"
    return t;
}

std::string formatIso(EpochSeconds t)
{
    std::int64_t days = t / 86400;
    std::int64_t rem = t % 86400;
    if (rem < 0) {
        rem += 86400;
        --days;
    }
    // civil_from_days
    days += 719468;
    const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
    const std::int64_t doe = days - era * 146097;
    const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const std::int64_t mp = (5 * doy + 2) / 153;
    const std::int64_t d = doy - (153 * mp + 2) / 5 + 1;
    const std::int64_t m = mp < 10 ? mp + 3 : mp - 9;
    const std::int64_t y = yoe + era * 400 + (m <= 2 ? 1 : 0);
    char buf[96];
    std::snprintf(buf, sizeof buf, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ",
                  static_cast<long long>(y), static_cast<long long>(m), static_cast<long long>(d),
                  static_cast<long long>(rem / 3600), static_cast<long long>(rem / 60 % 60),
                  static_cast<long long>(rem % 60));
    return buf;
}

std::optional<EpochSeconds> parseInstant(std::string_view text)
{
    const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
        return c >= '0' && c <= '9';
    });
    if (!digits)
        return parseTimestamp(text);
    EpochSeconds value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

namespace {

// What a pinned clock adds to the system clock's reading.
std::atomic<std::int64_t> g_pinOffsetMs{0};

std::int64_t systemMilliseconds()
{
    using namespace std::chrono;
    return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

} // namespace

std::int64_t nowMilliseconds()
{
    return systemMilliseconds() + g_pinOffsetMs.load(std::memory_order_relaxed);
}

EpochSeconds nowSeconds()
{
    const std::int64_t ms = nowMilliseconds();
    return ms >= 0 ? ms / 1000 : (ms - 999) / 1000; // floor, before 1970 too
}

void pinClock(EpochSeconds at)
{
    g_pinOffsetMs.store(at * 1000 - systemMilliseconds(), std::memory_order_relaxed);
}

} // namespace relayhud
