#pragma once
// HttpClient::getAll's engine: one libcurl multi handle running at most
// maxParallel transfers, with retries scheduled (not slept on) so that a
// backing-off request never holds a slot another request could use.
#include "net/handle_pool.h"
#include "net/transfer.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace relayhud::net {

class ParallelFetch {
public:
    // The delay before retry number `retry` (1-based), given the server's
    // Retry-After if it sent one.
    using DelayFor = std::function<std::chrono::milliseconds(
        int retry, std::optional<std::chrono::milliseconds> retryAfter)>;

    ParallelFetch(const std::vector<HttpRequest>& requests, const HttpOptions& options,
                  HandlePool& handles, DelayFor delayFor);
    ~ParallelFetch();
    ParallelFetch(const ParallelFetch&) = delete;
    ParallelFetch& operator=(const ParallelFetch&) = delete;

    // Results in request order.
    std::vector<Result<HttpResponse>> run();

private:
    using Clock = std::chrono::steady_clock;
    struct Pending {
        std::size_t index;
        int attempt;
        Clock::time_point notBefore;
    };
    struct Running {
        std::size_t index;
        int attempt;
        EasyHandle easy;
        std::unique_ptr<Transfer> transfer;
    };

    std::size_t slots() const;
    void startReadyTransfers();
    void start(const Pending& job);
    void collectFinished();
    void settle(std::size_t index, int attempt, AttemptOutcome outcome);
    void release(Running& running);
    void cancelRemaining();
    int pollTimeoutMs() const;

    const std::vector<HttpRequest>& m_requests;
    const HttpOptions& m_options;
    HandlePool& m_handles;
    DelayFor m_delayFor;
    CURLM* m_multi = nullptr;
    std::vector<Pending> m_pending;
    std::map<CURL*, Running> m_running;
    std::vector<std::optional<Result<HttpResponse>>> m_results;
};

} // namespace relayhud::net
