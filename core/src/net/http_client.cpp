#include "relayhud/net/http_client.h"

#include "net/handle_pool.h"
#include "net/parallel_fetch.h"
#include "net/retry.h"
#include "net/transfer.h"

#include <random>

namespace relayhud {
namespace {

net::AttemptOutcome attemptOnce(net::HandlePool& handles, const HttpRequest& request,
                                const HttpOptions& options)
{
    net::EasyHandle easy = handles.acquire();
    net::AttemptOutcome outcome = [&] {
        net::Transfer transfer(easy.get(), request, options);
        return transfer.finish(easy ? curl_easy_perform(easy.get()) : CURLE_FAILED_INIT);
    }();
    handles.release(std::move(easy));
    return outcome;
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
        if (net::isCancelled(m_options.cancel))
            return makeError("cancelled");
        net::AttemptOutcome outcome = attemptOnce(*m_handles, request, m_options);
        if (!net::shouldRetry(outcome, attempt, m_options.retry))
            return net::finalResult(std::move(outcome), attempt);
        if (!net::sleepUnlessCancelled(retryDelay(attempt, outcome.retryAfter), m_options.cancel))
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
