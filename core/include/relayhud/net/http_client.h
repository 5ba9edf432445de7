#pragma once
// HTTP on libcurl: time-outs, retries with exponential backoff and jitter on
// 5xx and network errors, Retry-After on 429 and 503, conditional requests
// (ETag), gzip/brotli, redirects, TLS verification on, proxies from the
// environment (libcurl reads http_proxy/https_proxy/no_proxy itself),
// connections kept between requests, and bounded parallel requests.
#include "relayhud/util/result.h"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {

namespace net {
class HandlePool;
}

struct RetryPolicy {
    int maxAttempts = 4;                      // first try included
    std::chrono::milliseconds baseDelay{250}; // doubled per retry, with jitter
    std::chrono::milliseconds maxDelay{8000};
    std::chrono::milliseconds maxRetryAfter{60000}; // cap on a server's Retry-After
    // Attempts while the server paces us (429 or 503 with Retry-After): it
    // is not failing, it asks us to come back, and clients retrying together
    // may land on its limit again; those answers do not spend maxAttempts.
    int maxPacedAttempts = 10;
};

struct HttpOptions {
    std::chrono::milliseconds connectTimeout{5000};
    std::chrono::milliseconds totalTimeout{30000};
    RetryPolicy retry;
    std::string userAgent = "RelayHUD/0.1";
    int maxParallel = 4;
    std::int64_t maxBodyBytes = 256ll * 1024 * 1024; // of the decoded body; 0: no limit
    // Set by the caller to abort in-flight work (checked between transfers
    // and from libcurl's progress callback).
    const std::atomic<bool>* cancel = nullptr;
};

// Request signing with AWS Signature Version 4 by libcurl (CURLOPT_AWS_SIGV4).
// libcurl 7.88 signs the host, x-amz-date and every x-amz-* header given, and
// takes the payload hash from an x-amz-content-sha256 header when one is set;
// it does not sort the query, so give its parameters in sorted order.
struct AwsSigning {
    std::string provider; // "aws:amz:us-east-1:s3"
    std::string accessKeyId;
    std::string secretAccessKey;
};

struct HttpRequest {
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string ifNoneMatch; // ETag from an earlier response; empty: none
    // false: a 3xx is the answer (its Location header says where), so the
    // caller follows it itself, e.g. without the Authorization header.
    bool followRedirects = true;
    // true: a final 4xx other than 408/429 is an answer rather than an Error,
    // so the caller can tell 401 from 404 and read the body.
    bool statusAsAnswer = false;
    // true: a final 500 or 502 is an answer, not retried, so the caller can
    // change what it asks (a smaller page, a cached copy): the HUD's host
    // answers 500 to every try of a response over its size cap, and its
    // allowlist 502 until its GitHub fetch works again (hud-read-api.md R1, R2).
    bool serverErrorAsAnswer = false;
    std::optional<AwsSigning> awsSigning = std::nullopt;
    std::optional<std::chrono::milliseconds> totalTimeout = std::nullopt; // overrides HttpOptions'
    std::optional<std::int64_t> maxBodyBytes = std::nullopt; // overrides HttpOptions'; 0: no limit
    const std::atomic<bool>* cancel = nullptr;               // besides HttpOptions::cancel
};

struct HttpResponse {
    long status = 0;
    std::string body;                           // decoded (gzip handled)
    std::map<std::string, std::string> headers; // names lower-cased
    std::string effectiveUrl;
    int attempts = 1;
    bool notModified() const { return status == 304; }
    std::string header(const std::string& lowerName) const;
};

class HttpClient {
public:
    explicit HttpClient(HttpOptions options = {});
    ~HttpClient();
    HttpClient(const HttpClient&) = delete;
    HttpClient& operator=(const HttpClient&) = delete;

    // A GET with retries. Success means a final HTTP answer in 2xx or 304;
    // other statuses and transport failures are Errors whose message names
    // the URL and the cause ("HTTP 503 from http://...", "timed out after 30 s").
    // Retried: 5xx, 408, 429 (after its Retry-After) and network failures
    // (refused, timed out, empty or truncated reply); never other 4xx.
    // Safe to call from several threads at once.
    Result<HttpResponse> get(const HttpRequest& request);

    // Several GETs at once, at most options.maxParallel in flight (retries
    // included); results in request order. Cancellation turns every request
    // not yet finished into a "cancelled" error.
    std::vector<Result<HttpResponse>> getAll(const std::vector<HttpRequest>& requests);

    // A GET whose 2xx body goes to `file` instead of memory, resumably: a
    // partial `file` left by an earlier try or call continues with
    // `Range: bytes=N-` and `If-Range` (the answer's ETag is kept beside it in
    // `file + ".etag"`; without a strong ETag a download starts over). A 206
    // that continues those bytes appends, a 200 rewrites, a 206 for other
    // bytes or another ETag and a 416 start over once. Retries continue from
    // what arrived. The response's body is empty for a 2xx, the server's text
    // for an error answer; `file` is complete when the result is a 2xx.
    Result<HttpResponse> download(const HttpRequest& request, const std::string& file);

    const HttpOptions& options() const { return m_options; }

    // The delay before retry number `retry` (1-based) with full jitter; exposed for tests.
    static std::chrono::milliseconds backoffDelay(const RetryPolicy& policy, int retry,
                                                  std::uint64_t jitterSeed);
    // Parses a Retry-After value (delta-seconds or an HTTP date); exposed for tests.
    static std::optional<std::chrono::milliseconds> parseRetryAfter(const std::string& value);

private:
    // Retry-After when the server sent one (capped), else backoffDelay.
    std::chrono::milliseconds retryDelay(int retry,
                                         std::optional<std::chrono::milliseconds> retryAfter);

    HttpOptions m_options;
    std::atomic<std::uint64_t> m_jitterSeed;
    std::unique_ptr<net::HandlePool> m_handles; // keeps connections between requests
};

} // namespace relayhud
