#include "net/retry.h"

#include "relayhud/util/time.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <thread>

namespace relayhud {
namespace {

// splitmix64: turns consecutive seeds into well-spread values.
std::uint64_t mix(std::uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// No server means to make us wait longer than this; it also keeps the
// millisecond arithmetic far from overflowing.
constexpr std::int64_t kMaxRetryAfterSeconds = 1'000'000'000;

std::optional<std::chrono::milliseconds> parseDeltaSeconds(const std::string& digits)
{
    std::uint64_t seconds = 0;
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), seconds);
    if (end != digits.data() + digits.size())
        return std::nullopt;
    if (error == std::errc::result_out_of_range || seconds > kMaxRetryAfterSeconds)
        seconds = kMaxRetryAfterSeconds;
    return std::chrono::seconds(static_cast<std::int64_t>(seconds));
}

} // namespace

std::chrono::milliseconds HttpClient::backoffDelay(const RetryPolicy& policy, int retry,
                                                   std::uint64_t jitterSeed)
{
    const std::int64_t base = std::max<std::int64_t>(policy.baseDelay.count(), 0);
    const std::int64_t ceiling = std::max<std::int64_t>(policy.maxDelay.count(), 0);
    const int doublings = std::clamp(retry - 1, 0, 62);
    // base * 2^doublings, without overflowing on a large retry number.
    const std::int64_t cap =
        base > (ceiling >> doublings) ? ceiling : std::min(base << doublings, ceiling);
    if (cap <= 0)
        return std::chrono::milliseconds(0);
    // Full jitter: uniform in [0, cap], so that clients failing together do
    // not retry together.
    const auto span = static_cast<std::uint64_t>(cap) + 1;
    return std::chrono::milliseconds(static_cast<std::int64_t>(mix(jitterSeed) % span));
}

std::optional<std::chrono::milliseconds> HttpClient::parseRetryAfter(const std::string& value)
{
    const auto first = value.find_first_not_of(" \t");
    if (first == std::string::npos)
        return std::nullopt;
    const std::string text = value.substr(first, value.find_last_not_of(" \t") - first + 1);
    if (std::isdigit(static_cast<unsigned char>(text.front())))
        if (auto delta = parseDeltaSeconds(text))
            return delta;
    // An HTTP-date in any of the three forms RFC 9110 allows; libcurl parses them.
    const time_t when = curl_getdate(text.c_str(), nullptr);
    if (when == -1)
        return std::nullopt;
    const std::int64_t wait = std::clamp<std::int64_t>(
        static_cast<std::int64_t>(when) - nowSeconds(), 0, kMaxRetryAfterSeconds);
    return std::chrono::seconds(wait);
}

namespace net {

bool isCancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

bool shouldRetry(const AttemptOutcome& outcome, int attempt, const RetryPolicy& policy)
{
    const int limit = outcome.retryAfter ? std::max(policy.maxAttempts, policy.maxPacedAttempts)
                                         : policy.maxAttempts;
    return !outcome.result.ok() && outcome.retryable && attempt < limit;
}

Result<HttpResponse> finalResult(AttemptOutcome&& outcome, int attempts)
{
    if (outcome.result.ok()) {
        outcome.result->attempts = attempts;
        return std::move(outcome.result);
    }
    if (attempts > 1 && outcome.retryable)
        return makeError(outcome.result.message() + " (gave up after " + std::to_string(attempts)
                         + " attempts)");
    return std::move(outcome.result);
}

bool sleepUnlessCancelled(std::chrono::milliseconds delay, const std::atomic<bool>* cancel)
{
    constexpr std::chrono::milliseconds step(20);
    const auto until = std::chrono::steady_clock::now() + delay;
    while (!isCancelled(cancel)) {
        const auto left = until - std::chrono::steady_clock::now();
        if (left <= std::chrono::steady_clock::duration::zero())
            return true;
        std::this_thread::sleep_for(std::min<std::chrono::steady_clock::duration>(left, step));
    }
    return false;
}

} // namespace net
} // namespace relayhud
