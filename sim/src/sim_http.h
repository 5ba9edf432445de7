#pragma once
// What the artifact-store routes see of a request (headers and the raw target
// included: SigV4 signs them) and the HTTP semantics they share: strong ETags,
// If-None-Match, single byte ranges, HTTP dates.
#include "relayhud/model/types.h"
#include "sim_routes.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace relayhud::sim {

struct SimRequest {
    std::string method = "GET";
    std::string path;                           // percent-decoded
    std::string rawPath;                        // as sent
    std::string rawQuery;                       // as sent, without '?'
    std::map<std::string, std::string> params;  // decoded; the first of repeated keys
    std::map<std::string, std::string> headers; // names in lower case

    // "" when absent.
    const std::string& header(const std::string& lowerName) const;
    const std::string& param(const std::string& name) const;
    bool hasParam(const std::string& name) const { return params.count(name) != 0; }
};

// The server's sense of time: the process's clock (relayhud/util/time.h),
// which tests may move forward (signed URLs expire, rate-limit windows reset).
class SimClock {
public:
    EpochSeconds now() const { return nowSeconds() + m_offset.load(); }
    // The host's own clock, for what a client stamps with it: libcurl signs
    // SigV4 with the system time whatever --now says, and S3 compares the
    // stamp with its own real clock (RequestTimeTooSkewed past 15 minutes).
    EpochSeconds hostNow() const
    {
        const auto wall = std::chrono::system_clock::now().time_since_epoch();
        return std::chrono::duration_cast<std::chrono::seconds>(wall).count() + m_offset.load();
    }
    void advance(std::int64_t seconds) { m_offset += seconds; }

private:
    std::atomic<std::int64_t> m_offset{0};
};

// A strong validator for exact bytes (FNV-1a, 64 bit), quoted.
std::string quotedHash(std::string_view body);
// If-None-Match holds "*" or a list of (maybe weak) tags.
bool matchesEtag(const std::string& ifNoneMatch, const std::string& etag);

// "Mon, 04 May 2026 17:00:00 GMT"
std::string httpDate(EpochSeconds t);

// A stored object answered with ETag, Last-Modified, Accept-Ranges, 304 for a
// matching If-None-Match, 206 for one satisfiable byte range (If-Range
// honoured) and 416 for an unsatisfiable one.
ApiResponse serveObject(const SimRequest& request, const std::string& body,
                        const std::string& contentType, const std::string& etag,
                        EpochSeconds lastModified);

// RFC 3986 percent-encoding of everything but unreserved characters (and '/'
// when keepSlash): what SigV4's canonical forms use.
std::string uriEncode(std::string_view text, bool keepSlash);
std::string percentDecode(std::string_view text);

} // namespace relayhud::sim
