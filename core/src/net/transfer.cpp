#include "net/transfer.h"

#include "relayhud/net/failure_text.h"
#include "relayhud/util/ascii.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>

namespace relayhud::net {
namespace {

constexpr long kMaxRedirects = 5;
// A transfer that moves less than 1 byte/s for this long is dead even if the
// total time-out (which large artifact downloads set high) is far away.
constexpr long kStallSeconds = 60;

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

Transfer::Transfer(CURL* easy, const HttpRequest& request, const HttpOptions& options,
                   FileDownload* download)
    : m_request(request), m_options(options), m_easy(easy), m_download(download)
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
    curl_easy_setopt(m_easy, CURLOPT_ACCEPT_ENCODING, ""); // every encoding libcurl can decode
    curl_easy_setopt(m_easy, CURLOPT_USERAGENT, m_options.userAgent.c_str());
    curl_easy_setopt(m_easy, CURLOPT_CONNECTTIMEOUT_MS,
                     static_cast<long>(m_options.connectTimeout.count()));
    curl_easy_setopt(m_easy, CURLOPT_LOW_SPEED_LIMIT, 1L);
    curl_easy_setopt(m_easy, CURLOPT_LOW_SPEED_TIME, kStallSeconds);
    curl_easy_setopt(m_easy, CURLOPT_NOSIGNAL, 1L); // we run on worker threads
    curl_easy_setopt(m_easy, CURLOPT_ERRORBUFFER, m_curlError);
    curl_easy_setopt(m_easy, CURLOPT_WRITEFUNCTION, &Transfer::onBody);
    curl_easy_setopt(m_easy, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_HEADERFUNCTION, &Transfer::onHeader);
    curl_easy_setopt(m_easy, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(m_easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(m_easy, CURLOPT_XFERINFOFUNCTION, &Transfer::onProgress);
    curl_easy_setopt(m_easy, CURLOPT_XFERINFODATA, this);
    configureRequestOptions();
    for (const auto& [name, value] : m_request.headers)
        addHeader(name + ": " + value);
    if (!m_request.ifNoneMatch.empty())
        addHeader("If-None-Match: " + m_request.ifNoneMatch);
    curl_easy_setopt(m_easy, CURLOPT_HTTPHEADER, m_headerList);
}

// What a request may set for itself: redirects, time-out, size, signing, range.
void Transfer::configureRequestOptions()
{
    // libcurl drops a custom Authorization header on a redirect to another
    // host only; callers that must not send it to a redirect target on the
    // same host (GitHub's signed blob URLs) follow redirects themselves.
    curl_easy_setopt(m_easy, CURLOPT_FOLLOWLOCATION, m_request.followRedirects ? 1L : 0L);
    curl_easy_setopt(m_easy, CURLOPT_MAXREDIRS, kMaxRedirects);
    const auto total = m_request.totalTimeout.value_or(m_options.totalTimeout);
    curl_easy_setopt(m_easy, CURLOPT_TIMEOUT_MS, static_cast<long>(total.count()));
    if (maxBodyBytes() > 0) // refuses early when Content-Length is known
        curl_easy_setopt(m_easy, CURLOPT_MAXFILESIZE_LARGE,
                         static_cast<curl_off_t>(maxBodyBytes()));
    if (m_request.awsSigning) {
        curl_easy_setopt(m_easy, CURLOPT_AWS_SIGV4, m_request.awsSigning->provider.c_str());
        curl_easy_setopt(m_easy, CURLOPT_USERNAME, m_request.awsSigning->accessKeyId.c_str());
        curl_easy_setopt(m_easy, CURLOPT_PASSWORD, m_request.awsSigning->secretAccessKey.c_str());
    }
    if (m_download && m_download->offset() > 0) {
        m_range = std::to_string(m_download->offset()) + "-";
        curl_easy_setopt(m_easy, CURLOPT_RANGE, m_range.c_str());
        addHeader("If-Range: " + m_download->validator());
    }
}

std::int64_t Transfer::maxBodyBytes() const
{
    return m_request.maxBodyBytes.value_or(m_options.maxBodyBytes);
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
    if (transfer->m_download && transfer->m_status >= 200 && transfer->m_status < 300)
        return transfer->m_download->write(transfer->m_status, transfer->m_headers, data, bytes)
                   ? bytes
                   : 0;
    const auto limit = transfer->maxBodyBytes();
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
    m_status = codeStart == std::string::npos ? 0 : std::atol(statusLine.c_str() + codeStart + 1);
    const auto reasonStart =
        codeStart == std::string::npos ? codeStart : statusLine.find(' ', codeStart + 1);
    if (reasonStart != std::string::npos)
        m_reason = statusLine.substr(reasonStart + 1);
}

int Transfer::onProgress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto* transfer = static_cast<Transfer*>(self);
    const auto* cancel = transfer->m_options.cancel;
    const auto* requestCancel = transfer->m_request.cancel;
    const bool stop = (cancel && cancel->load()) || (requestCancel && requestCancel->load());
    return stop ? 1 : 0; // non-zero: CURLE_ABORTED_BY_CALLBACK
}

AttemptOutcome Transfer::finish(CURLcode code)
{
    if (!m_easy)
        return {makeError("could not create a libcurl handle for " + redactUrl(m_request.url)),
                false, std::nullopt, 0};
    return code == CURLE_OK ? fromHttpAnswer() : fromTransportFailure(code);
}

AttemptOutcome Transfer::fromHttpAnswer()
{
    long status = 0;
    curl_easy_getinfo(m_easy, CURLINFO_RESPONSE_CODE, &status);
    if (m_download && status >= 200 && status < 300)
        if (auto written = m_download->finish(status, m_headers); !written)
            return {written.error(), false, std::nullopt, status};
    if (isAnswer(status)) {
        HttpResponse response;
        response.status = status;
        response.body = std::move(m_body);
        response.headers = std::move(m_headers);
        const char* effectiveUrl = nullptr;
        curl_easy_getinfo(m_easy, CURLINFO_EFFECTIVE_URL, &effectiveUrl);
        response.effectiveUrl = effectiveUrl ? effectiveUrl : m_request.url;
        return {std::move(response), false, std::nullopt, status};
    }
    const auto contentType = m_headers.find("content-type");
    const Failure failure =
        describeHttpFailure(status, m_reason, m_request.url, m_body,
                            contentType == m_headers.end() ? std::string() : contentType->second);
    AttemptOutcome outcome{makeError(failure.message), failure.retryable, std::nullopt, status};
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
    facts.bodyTooLarge = m_bodyTooLarge || (m_download && m_download->tooLarge());
    facts.connectTimeout = m_options.connectTimeout;
    facts.totalTimeout = m_options.totalTimeout;
    facts.maxBodyBytes = maxBodyBytes();
    facts.redirectTarget = redirectTarget();
    if (m_download && !m_download->writeError().empty())
        return {makeError(m_download->writeError()), false, std::nullopt, 0};
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
    return {makeError(failure.message), failure.retryable, std::nullopt, 0};
}

// Where the transfer went when it followed redirects: the next target when
// libcurl refused to follow it (too many), else the URL it failed at.
std::string Transfer::redirectTarget() const
{
    long redirects = 0;
    curl_easy_getinfo(m_easy, CURLINFO_REDIRECT_COUNT, &redirects);
    const char* next = nullptr;
    curl_easy_getinfo(m_easy, CURLINFO_REDIRECT_URL, &next);
    if (next && m_request.followRedirects)
        return next;
    const char* effective = nullptr;
    curl_easy_getinfo(m_easy, CURLINFO_EFFECTIVE_URL, &effective);
    return redirects > 0 && effective ? std::string(effective) : std::string();
}

// A status the caller gets as a response rather than an Error.
bool Transfer::isAnswer(long status) const
{
    if ((status >= 200 && status < 300) || status == 304)
        return true;
    if (!m_request.followRedirects && status >= 300 && status < 400)
        return true;
    if (m_request.serverErrorAsAnswer && (status == 500 || status == 502))
        return true;
    return m_request.statusAsAnswer && status >= 400 && status < 500 && status != 408
           && status != 429;
}

} // namespace relayhud::net
