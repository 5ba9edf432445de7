#pragma once
// Turns what went wrong in one HTTP attempt into a message a user can act on
// ("connection refused: http://...", "HTTP 503 from http://...: <reason>") and
// says whether trying again could help.
#include <curl/curl.h>

#include <chrono>
#include <cstdint>
#include <string>

namespace relayhud::net {

struct Failure {
    std::string message;
    bool retryable = false;
};

// What libcurl told us about a transfer that did not produce an HTTP answer.
struct TransportFacts {
    CURLcode code = CURLE_OK;
    std::string url; // as the caller asked for it (credentials redacted later)
    // Where a redirect led when the failure came after one: the target that
    // was refused or could not be fetched; messages name it, not `url`.
    std::string redirectTarget;
    std::string curlDetail; // libcurl's error buffer, may be empty
    long osErrno = 0;
    bool connected = false;    // a connection was established before the failure
    bool bodyTooLarge = false; // our write callback refused the body
    std::chrono::milliseconds elapsed{0};
    std::chrono::milliseconds connectTimeout{0};
    std::chrono::milliseconds totalTimeout{0};
    std::int64_t received = 0;
    std::int64_t expected = -1; // Content-Length, -1 when unknown
    std::int64_t maxBodyBytes = 0;
};

Failure describeTransportFailure(const TransportFacts& facts);

// status is the final HTTP status (not 2xx/304); reason is the status line's
// reason phrase when the server sent one (HTTP/1.x only).
Failure describeHttpFailure(long status, const std::string& reason, const std::string& url,
                            const std::string& body, const std::string& contentType);

// "http://user:secret@host/x" -> "http://***@host/x": messages end up in logs.
std::string redactUrl(const std::string& url);

// 30000 ms -> "30 s", 300 ms -> "0.3 s".
std::string formatSeconds(std::chrono::milliseconds duration);

} // namespace relayhud::net
