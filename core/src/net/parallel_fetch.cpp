#include "net/parallel_fetch.h"

#include "net/retry.h"

#include <algorithm>

namespace relayhud::net {
namespace {

// How often the loop looks at the cancel flag while libcurl has nothing to say.
constexpr std::chrono::milliseconds kCancelCheck(100);

} // namespace

ParallelFetch::ParallelFetch(const std::vector<HttpRequest>& requests, const HttpOptions& options,
                             HandlePool& handles, DelayFor delayFor)
    : m_requests(requests), m_options(options), m_handles(handles), m_delayFor(std::move(delayFor)),
      m_results(requests.size())
{
    ensureCurlInitialised();
    m_multi = curl_multi_init();
    const auto now = Clock::now();
    m_pending.reserve(requests.size());
    for (std::size_t i = 0; i < requests.size(); ++i)
        m_pending.push_back({i, 1, now});
}

ParallelFetch::~ParallelFetch()
{
    cancelRemaining();
    if (m_multi)
        curl_multi_cleanup(m_multi);
}

std::vector<Result<HttpResponse>> ParallelFetch::run()
{
    while (m_multi && (!m_pending.empty() || !m_running.empty())) {
        if (isCancelled(m_options.cancel)) {
            cancelRemaining();
            break;
        }
        startReadyTransfers();
        int stillRunning = 0;
        curl_multi_perform(m_multi, &stillRunning);
        collectFinished();
        if (!m_pending.empty() || !m_running.empty())
            curl_multi_poll(m_multi, nullptr, 0, pollTimeoutMs(), nullptr);
    }
    const std::string unfinished =
        m_multi ? "cancelled" : "could not create a libcurl multi handle";
    std::vector<Result<HttpResponse>> results;
    results.reserve(m_results.size());
    for (auto& result : m_results)
        results.push_back(result ? std::move(*result)
                                 : Result<HttpResponse>(makeError(unfinished)));
    return results;
}

std::size_t ParallelFetch::slots() const
{
    return static_cast<std::size_t>(std::max(m_options.maxParallel, 1));
}

// Starts the waiting requests whose time has come, earliest first (first
// tries before retries), while slots are free.
void ParallelFetch::startReadyTransfers()
{
    while (m_running.size() < slots()) {
        const auto now = Clock::now();
        auto ready = m_pending.end();
        for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
            if (it->notBefore <= now
                && (ready == m_pending.end() || it->notBefore < ready->notBefore))
                ready = it;
        }
        if (ready == m_pending.end())
            return;
        const Pending job = *ready;
        m_pending.erase(ready);
        start(job);
    }
}

void ParallelFetch::start(const Pending& job)
{
    const HttpRequest& request = m_requests[job.index];
    if (auto valid = validateRequest(request); !valid) {
        m_results[job.index].emplace(valid.error());
        return;
    }
    Running running{job.index, job.attempt, m_handles.acquire(), nullptr};
    CURL* easy = running.easy.get();
    running.transfer = std::make_unique<Transfer>(easy, request, m_options);
    if (!easy || curl_multi_add_handle(m_multi, easy) != CURLM_OK) {
        AttemptOutcome outcome = running.transfer->finish(CURLE_FAILED_INIT);
        release(running);
        settle(job.index, job.attempt, std::move(outcome));
        return;
    }
    m_running.emplace(easy, std::move(running));
}

void ParallelFetch::collectFinished()
{
    int queued = 0;
    while (CURLMsg* message = curl_multi_info_read(m_multi, &queued)) {
        if (message->msg != CURLMSG_DONE)
            continue;
        const auto it = m_running.find(message->easy_handle);
        if (it == m_running.end())
            continue;
        const CURLcode code = message->data.result;
        curl_multi_remove_handle(m_multi, it->first);
        Running done = std::move(it->second);
        m_running.erase(it);
        AttemptOutcome outcome = done.transfer->finish(code);
        release(done);
        settle(done.index, done.attempt, std::move(outcome));
    }
}

void ParallelFetch::settle(std::size_t index, int attempt, AttemptOutcome outcome)
{
    if (shouldRetry(outcome, attempt, m_options.retry)) {
        const auto delay = m_delayFor(attempt, outcome.retryAfter);
        m_pending.push_back({index, attempt + 1, Clock::now() + delay});
        return;
    }
    m_results[index].emplace(finalResult(std::move(outcome), attempt));
}

void ParallelFetch::release(Running& running)
{
    running.transfer.reset(); // before the handle's reset: it owns the header list
    m_handles.release(std::move(running.easy));
}

void ParallelFetch::cancelRemaining()
{
    for (auto& [easy, running] : m_running) {
        curl_multi_remove_handle(m_multi, easy);
        release(running);
    }
    m_running.clear();
    m_pending.clear();
}

// Wake up for the earliest retry that a free slot could start, and often
// enough to notice cancellation.
int ParallelFetch::pollTimeoutMs() const
{
    auto timeout = kCancelCheck;
    if (m_running.size() < slots()) {
        const auto now = Clock::now();
        for (const Pending& job : m_pending) {
            const auto wait = std::chrono::ceil<std::chrono::milliseconds>(job.notBefore - now);
            timeout = std::clamp(wait, std::chrono::milliseconds(0), timeout);
        }
    }
    return static_cast<int>(timeout.count());
}

} // namespace relayhud::net
