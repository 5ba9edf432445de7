#pragma once
// The retry rules shared by HttpClient::get and ParallelFetch: which outcomes
// are worth another try, and what the caller finally gets.
#include "net/transfer.h"

#include <atomic>
#include <chrono>

namespace relayhud::net {

// True when the attempt numbered `attempt` (1-based) should be tried again.
// Cancellation is the caller's to check: it turns any pending retry into
// "cancelled".
bool shouldRetry(const AttemptOutcome& outcome, int attempt, const RetryPolicy& policy);

// The caller's result: the response with its attempt count, or the last
// error, saying how many tries it took when there were several.
Result<HttpResponse> finalResult(AttemptOutcome&& outcome, int attempts);

bool isCancelled(const std::atomic<bool>* cancel);

// Sleeps for `delay` in short steps; false when cancelled meanwhile.
bool sleepUnlessCancelled(std::chrono::milliseconds delay, const std::atomic<bool>* cancel);

} // namespace relayhud::net
