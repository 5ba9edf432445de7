#include "net/transfer.h"

#include "net/failure_text.h"

#include <algorithm>
#include <cctype>
#include <mutex>

namespace relayhud::net {
namespace {

constexpr long kMaxRedirects = 5;
// A transfer that moves less than 1 byte/s for this long is dead even if the
// total time-out (which large artifact downloads set high) is far away.
constexpr long kStallSeconds = 60;

std::string lowerAscii(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

std::string trimmed(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    const auto last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

std::chrono::milliseconds microsToMillis(curl_off_t micros)
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::microseconds(micros));
}

} // namespace

void ensureCurlInitialised()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

Result<void> validateRequest(const HttpRequest& request)
{
    if (request.url.empty())
        return makeError("no URL given");
    const auto hasLineBreak = [](const std::string& text) {
        return text.find_first_of("\r\n") != std::string::npos;
    };
    for (const auto& [name, value] : request.headers) {
        if (hasLineBreak(name) || hasLineBreak(value))
            return makeError("request header \"" + name + "\" for " + redactUrl(request.url)
                             + " contains a line break");
    }
    if (hasLineBreak(request.ifNoneMatch) || hasLineBreak(request.url))
        return makeError("request for " + redactUrl(request.url) + " contains a line break");
    return {};
}

Transfer::Transfer(CURL* easy, const HttpRequest& request, const HttpOptions& options)
    : m_request(request), m_options(options), m_easy(easy)
{
    if (m_easy)
        configure();
}

Transfer::~Transfer() { curl_slist_free_all(m_headerList); }

void Transfer::configure()
{
    curl_easy_setopt(m_easy, CURLOPT_URL, m_request.url.c_str());
    curl_easy_setopt(m_easy, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(m_easy, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    // GitHub answers log and artifact downloads with a 302 to a signed URL;
    // libcurl does not resend our Authorization header to another host.
    curl_easy_setopt(m_easy, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(m_easy, CURLOPT_MAXREDIRS, kMaxRedirects);
    curl_easy_setopt(m_easy, CURLOPT_ACCEPT_ENCODING, ""); // every encoding libcurl can decode
    curl_easy_setopt(m_easy, CURLOPT_USERAGENT, m_options.userAgent.c_str());
    curl_easy_setopt(m_easy, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(m_options.connectTimeout.count()));
    curl_easy_setopt(m_easy, CURLOPT_TIMEOUT_MS, static_cast<long>(m_options.totalTimeout.count()));
    curl_easy_setopt(m_easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(m_easy, CURLOPT_LOW_SPEED_TIME, kStallSeconds);
    if (m_options.maxBodyBytes > 0) // refuses early when Content-Length is known
        curl_easy_setopt(m_easy, CURLOPT_MAXFILESIZE_LARGE,
                         static_cast<curl_off_t>(m_options.maxBodyBytes));
    curl_easy_setopt(m_easy, CURLOPT_NOSIGNAL, 1L); // we run on worker threads
    curl_easy_setopt(m_easy, CURLOPT_ERRORBUFFER, m_curlError);
    curl_easy_setopt(m_easy, CURLOPT_WRITEFUNCTION, &Transfer::onBody);
    curl_easy_setopt(m_easy, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_HEADERFUNCTION, &Transfer::onHeader);
    curl_easy_setopt(m_easy, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(m_easy, CURLOPT_XFERINFOFUNCTION, &Transfer::onProgress);
    curl_easy_setopt(m_easy, CURLOPT_XFERINFODATA, this);
    for (const auto& [name, value] : m_request.headers)
        addHeader(name + ": " + value);
    if (!m_request.ifNoneMatch.empty())
        addHeader("If-None-Match: " + m_request.ifNoneMatch);
    curl_easy_setopt(m_easy, CURLOPT_HTTPHEADER, m_headerList);
}

void Transfer::addHeader(const std::string& line)
{
    if (curl_slist* grown = curl_slist_append(m_headerList, line.c_str()))
        m_headerList = grown;
}

std::size_t Transfer::onBody(char* data, std::size_t size, std::size_t count, void* self)
{
    auto* transfer = static_cast<Transfer*>(self);
    const std::size_t bytes = size * count;
    const auto limit = transfer->m_options.maxBodyBytes;
    // The Content-Length check cannot see chunked or compressed bodies.
    if (limit > 0 && transfer->m_body.size() + bytes > static_cast<std::size_t>(limit)) {
        transfer->m_bodyTooLarge = true;
        return 0; // anything but `bytes` makes libcurl abort with CURLE_WRITE_ERROR
    }
    transfer->m_body.append(data, bytes);
    return bytes;
}

std::size_t Transfer::onHeader(char* data, std::size_t size, std::size_t count, void* self)
{
    auto* transfer = static_cast<Transfer*>(self);
    const std::size_t bytes = size * count;
    const std::string line(data, bytes);
    if (line.starts_with("HTTP/")) {
        transfer->startNewResponse(trimmed(line));
        return bytes;
    }
    const auto colon = line.find(':');
    if (colon == std::string::npos)
        return bytes; // the blank line ending the block
    const std::string name = lowerAscii(trimmed(line.substr(0, colon)));
    const std::string value = trimmed(line.substr(colon + 1));
    auto [it, inserted] = transfer->m_headers.try_emplace(name, value);
    if (!inserted) // repeated fields combine into one list (RFC 9110, 5.3)
        it->second += ", " + value;
    return bytes;
}

// Redirects, proxies' CONNECT answers and 1xx responses each bring a header
// block; only the last response's headers and body are the answer.
void Transfer::startNewResponse(const std::string& statusLine)
{
    m_headers.clear();
    m_body.clear();
    m_reason.clear();
    const auto codeStart = statusLine.find(' ');
    const auto reasonStart =
        codeStart == std::string::npos ? codeStart : statusLine.find(' ', codeStart + 1);
    if (reasonStart != std::string::npos)
        m_reason = statusLine.substr(reasonStart + 1);
}

int Transfer::onProgress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto* cancel = static_cast<Transfer*>(self)->m_options.cancel;
    return cancel && cancel->load() ? 1 : 0; // non-zero: CURLE_ABORTED_BY_CALLBACK
}

AttemptOutcome Transfer::finish(CURLcode code)
{
    if (!m_easy)
        return {makeError("could not create a libcurl handle for " + redactUrl(m_request.url)),
                false, std::nullopt};
    return code == CURLE_OK ? fromHttpAnswer() : fromTransportFailure(code);
}

AttemptOutcome Transfer::fromHttpAnswer()
{
    long status = 0;
    curl_easy_getinfo(m_easy, CURLINFO_RESPONSE_CODE, &status);
    if ((status >= 200 && status < 300) || status == 304) {
        HttpResponse response;
        response.status = status;
        response.body = std::move(m_body);
        response.headers = std::move(m_headers);
        const char* effectiveUrl = nullptr;
        curl_easy_getinfo(m_easy, CURLINFO_EFFECTIVE_URL, &effectiveUrl);
        response.effectiveUrl = effectiveUrl ? effectiveUrl : m_request.url;
        return {std::move(response), false, std::nullopt};
    }
    const auto contentType = m_headers.find("content-type");
    const Failure failure =
        describeHttpFailure(status, m_reason, m_request.url, m_body,
                            contentType == m_headers.end() ? std::string() : contentType->second);
    AttemptOutcome outcome{makeError(failure.message), failure.retryable, std::nullopt};
    const auto retryAfter = m_headers.find("retry-after");
    if ((status == 429 || status == 503) && retryAfter != m_headers.end())
        outcome.retryAfter = HttpClient::parseRetryAfter(retryAfter->second);
    return outcome;
}

AttemptOutcome Transfer::fromTransportFailure(CURLcode code)
{
    TransportFacts facts;
    facts.code = code;
    facts.url = m_request.url;
    facts.curlDetail = m_curlError;
    facts.bodyTooLarge = m_bodyTooLarge;
    facts.connectTimeout = m_options.connectTimeout;
    facts.totalTimeout = m_options.totalTimeout;
    facts.maxBodyBytes = m_options.maxBodyBytes;
    curl_easy_getinfo(m_easy, CURLINFO_OS_ERRNO, &facts.osErrno);
    curl_off_t pretransfer = 0, total = 0, received = 0, expected = -1;
    curl_easy_getinfo(m_easy, CURLINFO_PRETRANSFER_TIME_T, &pretransfer);
    curl_easy_getinfo(m_easy, CURLINFO_TOTAL_TIME_T, &total);
    curl_easy_getinfo(m_easy, CURLINFO_SIZE_DOWNLOAD_T, &received);
    curl_easy_getinfo(m_easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &expected);
    facts.connected = pretransfer > 0;
    facts.elapsed = microsToMillis(total);
    facts.received = received;
    facts.expected = expected;
    const Failure failure = describeTransportFailure(facts);
    return {makeError(failure.message), failure.retryable, std::nullopt};
}

} // namespace relayhud::net
