#pragma once
// One attempt at one GET on a libcurl easy handle: set-up (time-outs, TLS,
// redirects, gzip, size limit, cancellation), collection of the body and the
// last response's headers, and the verdict once libcurl is done with it.
// Driven either by curl_easy_perform (HttpClient::get) or by a multi handle
// (ParallelFetch). The handle is borrowed from a HandlePool and must outlive
// the Transfer.
#include "relayhud/net/http_client.h"

#include "net/file_download.h"

#include <curl/curl.h>

#include <chrono>
#include <map>
#include <optional>
#include <string>

namespace relayhud::net {

// libcurl's global state must be set up once per process before any handle.
void ensureCurlInitialised();

// Refuses what libcurl would misread: no URL, or a header smuggling a line
// break (which would inject further headers).
Result<void> validateRequest(const HttpRequest& request);

struct AttemptOutcome {
    Result<HttpResponse> result;
    bool retryable = false;
    std::optional<std::chrono::milliseconds> retryAfter; // the server's wish
    long httpStatus = 0; // the final answer's status; 0 when there was none
};

class Transfer {
public:
    // `easy` may be null (libcurl out of memory): finish() then says so.
    // With a `download`, a 2xx body goes to its file (HttpClient::download).
    Transfer(CURL* easy, const HttpRequest& request, const HttpOptions& options,
             FileDownload* download = nullptr);
    ~Transfer();
    Transfer(const Transfer&) = delete;
    Transfer& operator=(const Transfer&) = delete;

    // The verdict on the finished transfer, given libcurl's result code.
    AttemptOutcome finish(CURLcode code);

private:
    static std::size_t onBody(char* data, std::size_t size, std::size_t count, void* self);
    static std::size_t onHeader(char* data, std::size_t size, std::size_t count, void* self);
    static int onProgress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

    void configure();
    void configureRequestOptions();
    std::int64_t maxBodyBytes() const;
    bool isAnswer(long status) const;
    void addHeader(const std::string& line);
    void startNewResponse(const std::string& statusLine);
    AttemptOutcome fromHttpAnswer();
    AttemptOutcome fromTransportFailure(CURLcode code);
    std::string redirectTarget() const;

    const HttpRequest& m_request;
    const HttpOptions& m_options;
    CURL* m_easy = nullptr;
    FileDownload* m_download = nullptr;
    long m_status = 0; // of the response whose headers came last
    curl_slist* m_headerList = nullptr;
    std::string m_body;
    std::map<std::string, std::string> m_headers;
    std::string m_reason;
    std::string m_range; // CURLOPT_RANGE keeps a pointer to it
    bool m_bodyTooLarge = false;
    char m_curlError[CURL_ERROR_SIZE] = {};
};

} // namespace relayhud::net
