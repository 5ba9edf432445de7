#include "relayhud/net/http_client.h"

#include "net/file_download.h"
#include "net/handle_pool.h"
#include "net/parallel_fetch.h"
#include "net/retry.h"
#include "net/transfer.h"

#include <algorithm>
#include <random>
#include <thread>

namespace relayhud {
namespace {

net::AttemptOutcome attemptOnce(net::HandlePool& handles, const HttpRequest& request,
                                const HttpOptions& options, net::FileDownload* download = nullptr)
{
    net::EasyHandle easy = handles.acquire();
    net::AttemptOutcome outcome = [&] {
        net::Transfer transfer(easy.get(), request, options, download);
        return transfer.finish(easy ? curl_easy_perform(easy.get()) : CURLE_FAILED_INIT);
    }();
    handles.release(std::move(easy));
    return outcome;
}

bool cancelled(const HttpRequest& request, const HttpOptions& options)
{
    return net::isCancelled(options.cancel) || net::isCancelled(request.cancel);
}

// Sleeps in short steps; false when the client's or the request's flag is set.
bool sleepUnlessCancelled(std::chrono::milliseconds delay, const HttpRequest& request,
                          const HttpOptions& options)
{
    const auto until = std::chrono::steady_clock::now() + delay;
    while (!cancelled(request, options)) {
        const auto left = until - std::chrono::steady_clock::now();
        if (left <= std::chrono::steady_clock::duration::zero())
            return true;
        std::this_thread::sleep_for(
            std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(20)));
    }
    return false;
}

} // namespace

std::string HttpResponse::header(const std::string& lowerName) const
{
    const auto it = headers.find(lowerName);
    return it == headers.end() ? std::string() : it->second;
}

HttpClient::HttpClient(HttpOptions options)
    : m_options(std::move(options)), m_jitterSeed(std::random_device{}()),
      m_handles(std::make_unique<net::HandlePool>())
{
    net::ensureCurlInitialised();
}

HttpClient::~HttpClient() = default;

Result<HttpResponse> HttpClient::get(const HttpRequest& request)
{
    if (auto valid = net::validateRequest(request); !valid)
        return valid.error();
    for (int attempt = 1;; ++attempt) {
        if (cancelled(request, m_options))
            return makeError("cancelled");
        net::AttemptOutcome outcome = attemptOnce(*m_handles, request, m_options);
        if (!net::shouldRetry(outcome, attempt, m_options.retry))
            return net::finalResult(std::move(outcome), attempt);
        if (!sleepUnlessCancelled(retryDelay(attempt, outcome.retryAfter), request, m_options))
            return makeError("cancelled");
    }
}

Result<HttpResponse> HttpClient::download(const HttpRequest& request, const std::string& file)
{
    if (auto valid = net::validateRequest(request); !valid)
        return valid.error();
    net::FileDownload target(file, request.maxBodyBytes.value_or(m_options.maxBodyBytes));
    bool restarted = false; // one fresh start when the server will not continue our bytes
    for (int attempt = 1;; ++attempt) {
        if (cancelled(request, m_options))
            return makeError("cancelled");
        target.prepareAttempt();
        net::AttemptOutcome outcome = attemptOnce(*m_handles, request, m_options, &target);
        const bool wrongRange =
            target.restartWanted() || (outcome.httpStatus == 416 && target.offset() > 0);
        if (wrongRange && !restarted) {
            target.discard();
            restarted = true;
            --attempt; // not the server's failure
            continue;
        }
        if (!net::shouldRetry(outcome, attempt, m_options.retry))
            return net::finalResult(std::move(outcome), attempt);
        if (!sleepUnlessCancelled(retryDelay(attempt, outcome.retryAfter), request, m_options))
            return makeError("cancelled");
    }
}

std::vector<Result<HttpResponse>> HttpClient::getAll(const std::vector<HttpRequest>& requests)
{
    net::ParallelFetch fetch(requests, m_options, *m_handles,
                             [this](int retry, std::optional<std::chrono::milliseconds> after) {
                                 return retryDelay(retry, after);
                             });
    return fetch.run();
}

std::chrono::milliseconds
HttpClient::retryDelay(int retry, std::optional<std::chrono::milliseconds> retryAfter)
{
    if (retryAfter)
        return std::min(*retryAfter, m_options.retry.maxRetryAfter);
    // A fresh seed per retry: one client's concurrent retries spread out too.
    return backoffDelay(m_options.retry, retry, m_jitterSeed.fetch_add(1));
}

} // namespace relayhud
