#include "relayhud/net/failure_text.h"

#include "relayhud/net/body_summary.h"
#include "relayhud/util/read_file.h" // byteSizeText

#include <algorithm>
#include <cerrno>
#include <memory>

namespace relayhud::net {
namespace {

std::string hostOf(const std::string& url)
{
    std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> parsed(curl_url(), &curl_url_cleanup);
    char* host = nullptr;
    if (!parsed || curl_url_set(parsed.get(), CURLUPART_URL, url.c_str(), 0) != CURLUE_OK
        || curl_url_get(parsed.get(), CURLUPART_HOST, &host, 0) != CURLUE_OK)
        return url;
    std::string result(host);
    curl_free(host);
    return result;
}

// libcurl's own words, when it has any, as a parenthesised detail.
std::string detailOf(const TransportFacts& facts)
{
    if (facts.curlDetail.empty())
        return {};
    return " (" + facts.curlDetail + ")";
}

std::string connectFailure(const TransportFacts& facts, const std::string& url)
{
    switch (facts.osErrno) {
    case ECONNREFUSED: return "connection refused: " + url + " (is the server running?)";
    case ENETUNREACH:
    case EHOSTUNREACH: return "network unreachable: " + url;
    default: return "could not connect to " + url + detailOf(facts);
    }
}

std::string timeoutText(const TransportFacts& facts, const std::string& url)
{
    if (!facts.connected) {
        const auto limit = std::min(facts.connectTimeout, facts.totalTimeout);
        return "timed out after " + formatSeconds(limit) + " connecting to " + url;
    }
    // Ending well before the total limit means the low-speed guard fired.
    if (facts.elapsed + std::chrono::milliseconds(500) < facts.totalTimeout)
        return "transfer stalled (no data for a long time) fetching " + url;
    return "timed out after " + formatSeconds(facts.totalTimeout) + " fetching " + url;
}

std::string truncatedText(const TransportFacts& facts, const std::string& url)
{
    std::string text = "truncated response from " + url;
    if (facts.expected > 0)
        text += ": got " + std::to_string(facts.received) + " of " + std::to_string(facts.expected)
                + " bytes";
    return text;
}

std::string tooLargeText(const TransportFacts& facts, const std::string& url)
{
    return "response from " + url + " is larger than the limit of "
           + byteSizeText(static_cast<std::uint64_t>(facts.maxBodyBytes));
}

// Failures where the network or the server may do better on a later try.
Failure transientFailure(const TransportFacts& facts, const std::string& url)
{
    switch (facts.code) {
    case CURLE_COULDNT_RESOLVE_HOST:
        return {"could not resolve host " + hostOf(url) + " (fetching " + url + ")", true};
    case CURLE_COULDNT_RESOLVE_PROXY:
        return {"could not resolve the proxy for " + url + " (check https_proxy/http_proxy)", true};
    case CURLE_COULDNT_CONNECT: return {connectFailure(facts, url), true};
    case CURLE_OPERATION_TIMEDOUT: return {timeoutText(facts, url), true};
    case CURLE_GOT_NOTHING:
        return {"empty reply from " + url + " (the server closed the connection)", true};
    case CURLE_PARTIAL_FILE: return {truncatedText(facts, url), true};
    case CURLE_SSL_CONNECT_ERROR:
        return {"TLS handshake with " + hostOf(url) + " failed" + detailOf(facts), true};
    default: return {"connection lost while fetching " + url + detailOf(facts), true};
    }
}

bool isTransient(CURLcode code)
{
    switch (code) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_HTTP2:
    case CURLE_HTTP2_STREAM: return true;
    default: return false;
    }
}

Failure describeAt(const TransportFacts& facts, const std::string& url);

} // namespace

// The failure in the words of the URL it happened at: a redirect's target
// when the transfer followed one (issue 35: naming the original misled).
Failure describeTransportFailure(const TransportFacts& facts)
{
    if (facts.redirectTarget.empty() || facts.redirectTarget == facts.url)
        return describeAt(facts, redactUrl(facts.url));
    Failure failure = describeAt(facts, redactUrl(facts.redirectTarget));
    failure.message += " (redirected from " + redactUrl(facts.url) + ")";
    return failure;
}

namespace {

Failure describeAt(const TransportFacts& facts, const std::string& url)
{
    if (isTransient(facts.code))
        return transientFailure(facts, url);
    switch (facts.code) {
    case CURLE_ABORTED_BY_CALLBACK: return {"cancelled", false};
    case CURLE_FILESIZE_EXCEEDED: return {tooLargeText(facts, url), false};
    case CURLE_WRITE_ERROR:
        if (facts.bodyTooLarge)
            return {tooLargeText(facts, url), false};
        break;
    case CURLE_TOO_MANY_REDIRECTS: return {"too many redirects; refused the one to " + url, false};
    case CURLE_URL_MALFORMAT:
    case CURLE_UNSUPPORTED_PROTOCOL: return {"not a valid http(s) URL: \"" + url + "\"", false};
    case CURLE_PEER_FAILED_VERIFICATION:
        return {"TLS certificate of " + hostOf(url) + " could not be verified" + detailOf(facts),
                false};
    case CURLE_BAD_CONTENT_ENCODING:
        return {"could not decode the compressed response from " + url + detailOf(facts), false};
    default: break;
    }
    return {url + ": " + curl_easy_strerror(facts.code) + detailOf(facts), false};
}

} // namespace

Failure describeHttpFailure(long status, const std::string& reason, const std::string& url,
                            const std::string& body, const std::string& contentType)
{
    std::string message = "HTTP " + std::to_string(status) + " from " + redactUrl(url);
    const std::string summary = summarizeBody(body, contentType);
    if (!summary.empty())
        message += ": " + summary;
    else if (!reason.empty())
        message += " (" + reason + ")";
    const bool retryable = status >= 500 || status == 408 || status == 429;
    return {message, retryable};
}

std::string redactUrl(const std::string& url)
{
    const auto scheme = url.find("://");
    if (scheme == std::string::npos)
        return url;
    const auto authorityStart = scheme + 3;
    const auto authorityEnd = std::min(url.find_first_of("/?#", authorityStart), url.size());
    const auto at = url.rfind('@', authorityEnd);
    if (at == std::string::npos || at < authorityStart)
        return url;
    return url.substr(0, authorityStart) + "***" + url.substr(at);
}

std::string formatSeconds(std::chrono::milliseconds duration)
{
    const auto tenths = (duration.count() + 50) / 100;
    std::string text = std::to_string(tenths / 10);
    if (tenths % 10 != 0)
        text += "." + std::to_string(tenths % 10);
    return text + " s";
}

} // namespace relayhud::net
