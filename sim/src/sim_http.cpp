#include "sim_http.h"
#include "sim_text.h"

#include <charconv>
#include <cstdio>
#include <ctime>
#include <optional>

namespace relayhud::sim {
namespace {

std::optional<std::uint64_t> number(std::string_view text)
{
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

struct ByteRange {
    std::uint64_t first = 0;
    std::uint64_t last = 0;
};

enum class RangeKind : std::uint8_t { Whole, Partial, Unsatisfiable };

// One range of "bytes=first-last", "bytes=first-" or "bytes=-suffix"; a
// malformed or multi-range header is ignored (the whole body), as S3 does.
RangeKind parseRange(std::string_view header, std::uint64_t size, ByteRange& out)
{
    header = trim(header);
    if (header.substr(0, 6) != "bytes=" || header.find(',') != std::string_view::npos)
        return RangeKind::Whole;
    header.remove_prefix(6);
    const std::size_t dash = header.find('-');
    if (dash == std::string_view::npos)
        return RangeKind::Whole;
    const auto first = number(trim(header.substr(0, dash)));
    const auto last = number(trim(header.substr(dash + 1)));
    if (!first && last) { // suffix: the last N bytes
        if (*last == 0 || size == 0)
            return RangeKind::Unsatisfiable;
        out = {size - std::min(*last, size), size - 1};
        return RangeKind::Partial;
    }
    if (!first || (last && *last < *first))
        return RangeKind::Whole;
    if (*first >= size)
        return RangeKind::Unsatisfiable;
    out = {*first, last ? std::min(*last, size - 1) : size - 1};
    return RangeKind::Partial;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

} // namespace

const std::string& SimRequest::header(const std::string& lowerName) const
{
    static const std::string kEmpty;
    const auto it = headers.find(lowerName);
    return it == headers.end() ? kEmpty : it->second;
}

const std::string& SimRequest::param(const std::string& name) const
{
    static const std::string kEmpty;
    const auto it = params.find(name);
    return it == params.end() ? kEmpty : it->second;
}

std::string quotedHash(std::string_view body)
{
    std::uint64_t hash = 0xCBF29CE484222325ULL;
    for (char c : body) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001B3ULL;
    }
    char buf[24];
    std::snprintf(buf, sizeof buf, "\"%016llx\"", static_cast<unsigned long long>(hash));
    return buf;
}

bool matchesEtag(const std::string& header, const std::string& etag)
{
    std::size_t start = 0;
    while (start < header.size()) {
        const std::size_t comma = std::min(header.find(',', start), header.size());
        std::string_view tag = trim(std::string_view(header).substr(start, comma - start));
        if (tag.substr(0, 2) == "W/")
            tag.remove_prefix(2);
        if (tag == "*" || tag == etag)
            return true;
        start = comma + 1;
    }
    return false;
}

std::string httpDate(EpochSeconds t)
{
    const auto seconds = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[64];
    std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    return buf;
}

ApiResponse serveObject(const SimRequest& request, const std::string& body,
                        const std::string& contentType, const std::string& etag,
                        EpochSeconds lastModified)
{
    ApiResponse out{200, {}, contentType, {}};
    out.headers = {
        {"ETag", etag}, {"Last-Modified", httpDate(lastModified)}, {"Accept-Ranges", "bytes"}};
    if (matchesEtag(request.header("if-none-match"), etag)) {
        out.status = 304;
        return out;
    }
    const std::string& ifRange = request.header("if-range");
    ByteRange range;
    const RangeKind kind = !ifRange.empty() && ifRange != etag
                               ? RangeKind::Whole // changed since: the whole new body
                               : parseRange(request.header("range"), body.size(), range);
    if (kind == RangeKind::Unsatisfiable) {
        out.status = 416;
        out.headers.emplace_back("Content-Range", "bytes */" + std::to_string(body.size()));
        return out;
    }
    if (kind == RangeKind::Whole) {
        out.body = body;
        return out;
    }
    out.status = 206;
    out.body = body.substr(range.first, range.last - range.first + 1);
    out.headers.emplace_back("Content-Range", "bytes " + std::to_string(range.first) + "-"
                                                  + std::to_string(range.last) + "/"
                                                  + std::to_string(body.size()));
    return out;
}

std::string uriEncode(std::string_view text, bool keepSlash)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (char c : text) {
        const auto u = static_cast<unsigned char>(c);
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')
                                || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'
                                || c == '~';
        if (unreserved || (keepSlash && c == '/')) {
            out.push_back(c);
            continue;
        }
        out.push_back('%');
        out.push_back(kHex[u >> 4]);
        out.push_back(kHex[u & 0xF]);
    }
    return out;
}

std::string percentDecode(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const int hi = i + 2 < text.size() && text[i] == '%' ? hexValue(text[i + 1]) : -1;
        const int lo = hi >= 0 ? hexValue(text[i + 2]) : -1;
        if (hi >= 0 && lo >= 0) {
            out.push_back(static_cast<char>(hi * 16 + lo));
            i += 2;
        } else {
            out.push_back(text[i]);
        }
    }
    return out;
}

} // namespace relayhud::sim
