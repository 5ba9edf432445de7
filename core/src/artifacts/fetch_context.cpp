#include "artifacts/fetch_context.h"

#include "relayhud/util/time.h"

#include "relayhud/store/content_cache.h"

#include <charconv>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>
#include <utility>

namespace relayhud::artifacts {
namespace {

std::optional<std::int64_t> integerHeader(const HttpResponse& response, const std::string& name)
{
    const std::string text = response.header(name);
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || error != std::errc() || end != text.data() + text.size())
        return std::nullopt;
    return value;
}

// "18:05:00 UTC (in 42 min)"
std::string resetText(std::int64_t resetAt, std::int64_t now)
{
    const std::string iso = formatIso(resetAt); // 2026-05-04T18:05:00Z
    const std::string clock = iso.size() >= 19 ? iso.substr(11, 8) : iso;
    const std::int64_t minutes = (resetAt - now + 59) / 60;
    return clock + " UTC (in " + std::to_string(minutes) + " min)";
}

void replaceAll(std::string& text, const std::string& secret)
{
    if (secret.size() < 4) // a short "secret" would blank ordinary words
        return;
    for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3))
        text.replace(at, secret.size(), "***");
}

// An exclusive flock on `path`, or -1 when another process holds it. The
// lock counts only if the locked inode is still the one at `path`: its
// holder unlinks it before letting go.
int lockFile(const std::string& path)
{
    for (int attempt = 0; attempt < 3; ++attempt) {
        const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0)
            return -1;
        if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
            ::close(fd);
            return -1;
        }
        struct stat held {};
        struct stat named {};
        if (::fstat(fd, &held) == 0 && ::stat(path.c_str(), &named) == 0
            && held.st_ino == named.st_ino && held.st_dev == named.st_dev)
            return fd;
        ::close(fd); // unlinked by its last holder in between: take the new one
    }
    return -1;
}

} // namespace

void RateLimitTracker::observe(const HttpResponse& response)
{
    const auto remaining = integerHeader(response, "x-ratelimit-remaining");
    const auto reset = integerHeader(response, "x-ratelimit-reset");
    if (!remaining)
        return;
    const std::lock_guard lock(m_mutex);
    m_state.remaining = *remaining;
    if (reset)
        m_state.resetAt = *reset;
}

RateLimitState RateLimitTracker::state() const
{
    const std::lock_guard lock(m_mutex);
    return m_state;
}

Result<void> RateLimitTracker::waitIfExhausted(std::chrono::seconds maxWait, const FetchCall& call)
{
    const RateLimitState seen = state();
    const std::int64_t now = nowSeconds();
    if (seen.remaining != 0 || seen.resetAt < now)
        return {};
    if (seen.resetAt - now > maxWait.count())
        return makeError("GitHub API rate limit used up; it resets at "
                         + resetText(seen.resetAt, now));
    // GitHub's reset is a whole second; a little past it the window is new.
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(seen.resetAt - now)
                       + std::chrono::milliseconds(250);
    while (std::chrono::steady_clock::now() < until) {
        if (call.cancelled())
            return makeError("cancelled");
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const std::lock_guard lock(m_mutex);
    if (m_state.resetAt == seen.resetAt)
        m_state.remaining = -1; // a new window: unknown until the next answer
    return {};
}

DownloadLocks::Held::Held(DownloadLocks* owner, std::string key, std::string file, int lockFd)
    : m_owner(owner), m_key(std::move(key)), m_file(std::move(file)), m_lockFd(lockFd)
{
}

DownloadLocks::Held::Held(Held&& other) noexcept
    : m_owner(std::exchange(other.m_owner, nullptr)), m_key(std::move(other.m_key)),
      m_file(std::move(other.m_file)), m_lockFd(std::exchange(other.m_lockFd, -1))
{
}

DownloadLocks::Held::~Held()
{
    if (m_lockFd >= 0) {
        // Unlinked while still locked: a process that opened it meanwhile
        // finds its inode gone from the path and tries again (lockFile()).
        ::unlink((m_file + ".lock").c_str());
        ::close(m_lockFd);
    } else if (m_owner) { // a private file cannot be resumed by anyone: drop what is left
        ::unlink(m_file.c_str());
        ::unlink((m_file + ".etag").c_str());
    }
    if (m_owner)
        m_owner->release(m_key);
}

DownloadLocks::Held DownloadLocks::acquire(const std::string& tempDir, const std::string& key)
{
    {
        std::unique_lock lock(m_mutex);
        m_released.wait(lock, [&] { return !m_active.contains(key); });
        m_active.insert(key);
    }
    const std::string file = tempDir + "/part-" + contentHash(key);
    if (const int fd = lockFile(file + ".lock"); fd >= 0)
        return Held(this, key, file, fd);
    // Another process is downloading it: a private file, started from scratch.
    static std::atomic<unsigned> serial{0};
    const std::string own =
        file + "-" + std::to_string(::getpid()) + "-" + std::to_string(++serial);
    return Held(this, key, own, -1);
}

void DownloadLocks::release(const std::string& key)
{
    {
        const std::lock_guard lock(m_mutex);
        m_active.erase(key);
    }
    m_released.notify_all();
}

FetcherContext::FetcherContext(HttpClient& client, ContentCache& cache,
                               ArtifactSettings storeSettings, Credentials secrets)
    : http(client), blobs(cache), settings(std::move(storeSettings)),
      credentials(std::move(secrets))
{
}

std::string FetcherContext::redact(std::string text) const
{
    for (const std::string* secret :
         {&credentials.githubToken, &credentials.s3SecretAccessKey, &credentials.s3SessionToken})
        replaceAll(text, *secret);
    return text;
}

std::optional<std::string> FetcherContext::standingRefusal(const std::string& store) const
{
    const std::lock_guard lock(m_refusalsMutex);
    const auto it = m_refusals.find(store);
    return it == m_refusals.end() ? std::nullopt : std::optional<std::string>(it->second);
}

void FetcherContext::rememberRefusal(const std::string& store, const std::string& message)
{
    const std::lock_guard lock(m_refusalsMutex);
    m_refusals[store] = message;
}

} // namespace relayhud::artifacts
