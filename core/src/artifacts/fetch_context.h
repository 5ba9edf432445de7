#pragma once
// What every artifact store's fetch code shares (ArtifactFetcher::Impl): the
// HTTP client and content cache, settings and credentials, GitHub's rate
// limit as last seen, the locks that keep two threads off one partial file,
// and the store refusals that make further requests pointless. Thread-safe:
// sync's workers share one.
#include "relayhud/artifacts/artifact_store.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>

namespace relayhud::artifacts {

// Where a user fixes a refused credential; messages name it.
inline constexpr const char* kGitHubTokenSetting = "Settings > Artifacts or in GITHUB_TOKEN";
inline constexpr const char* kS3KeysSetting =
    "AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or Settings > Artifacts";

// Artifacts are big and slow to come: a download may take this long (the
// stall guard still ends a dead one after a minute) and be this large.
inline constexpr std::chrono::minutes kDownloadTimeout{30};
inline constexpr std::int64_t kMaxDownloadBytes = 2ll << 30;
// GitHub's API answers (listings of 100 items a page, a folder's contents, a
// workflow file) are far smaller: a workflow run is the largest item, about
// 15 kB with its two repository objects, so a page is under 2 MB. Refused
// while downloading above this; their JSON is bounded in depth too.
inline constexpr std::int64_t kMaxApiAnswerBytes = 16ll << 20;

// One fetch() or fetchJobLog() call: its cancel flag and request count.
struct FetchCall {
    const std::atomic<bool>* cancel = nullptr;
    int requests = 0;
    bool cancelled() const { return cancel && cancel->load(); }
};

// GitHub's X-RateLimit-* as last seen, and the wait when it is used up.
class RateLimitTracker {
public:
    void observe(const HttpResponse& response);
    RateLimitState state() const;
    // When Remaining is 0 and the reset is near (within `maxWait`), sleeps
    // until it (cancellable); when it is far, an Error saying when it resets.
    Result<void> waitIfExhausted(std::chrono::seconds maxWait, const FetchCall& call);

private:
    mutable std::mutex m_mutex;
    RateLimitState m_state;
};

// One thread at a time per partial download file (in this process), and
// never two processes (flock on a lock file beside it): two writers would
// splice their bytes. The loser of the cross-process race gets a private file.
class DownloadLocks {
public:
    class Held {
    public:
        Held(DownloadLocks* owner, std::string key, std::string file, int lockFd);
        Held(Held&& other) noexcept;
        Held& operator=(Held&&) = delete;
        ~Held();
        const std::string& file() const { return m_file; }

    private:
        DownloadLocks* m_owner;
        std::string m_key;
        std::string m_file;
        int m_lockFd;
    };
    // The partial file for `key` (a stable URL) in `tempDir`, locked.
    Held acquire(const std::string& tempDir, const std::string& key);

private:
    void release(const std::string& key);

    std::mutex m_mutex;
    std::condition_variable m_released;
    std::set<std::string> m_active;
};

struct FetcherContext {
    FetcherContext(HttpClient& client, ContentCache& cache, ArtifactSettings storeSettings,
                   Credentials secrets);

    HttpClient& http;
    ContentCache& blobs;
    const ArtifactSettings settings;
    const Credentials credentials;
    RateLimitTracker rateLimit;
    DownloadLocks locks;

    // Removes every credential from a text that may reach the user or a log:
    // servers echo odd things, and a message is no place for a token.
    std::string redact(std::string text) const;

    // A refusal that holds for every later request to the store (GitHub's
    // 401 for our token, S3's unknown key): later fetches answer it at once
    // instead of asking again, so 200 runs cost one refused request.
    std::optional<std::string> standingRefusal(const std::string& store) const;
    void rememberRefusal(const std::string& store, const std::string& message);

private:
    mutable std::mutex m_refusalsMutex;
    std::map<std::string, std::string> m_refusals;
};

} // namespace relayhud::artifacts
