#pragma once
// Where a run's artifacts live and how to get them (DOMAIN.md, "Downstream
// artifact stores"). The HUD row's artifact_url decides the store, or
// without one its GitHub run URL (torch-spyre and TorchedHat send none:
// real-backends.md 1.4, 1.5, 7; which of a run's artifacts are read:
// report_plan.h):
//   https://github.com/{o}/{r}/actions/runs/{id}[/attempts/{n}][/artifacts]
//                      GitHub Actions artifacts of that run: listed through
//                      the REST API, each archive_download_url 302s to a zip
//   s3://{bucket}/{key or prefix/}
//                      an S3-compatible bucket, signed with SigV4
//                      (CURLOPT_AWS_SIGV4) at the configured endpoint
//   http(s)://...       a plain file (.xml, .xml.gz, .zip, .tar.gz)
//   file:///path, /path a local file or folder
// Job logs: GET {api}/repos/{o}/{r}/actions/jobs/{job_id}/logs, a 302 to a
// short-lived plain-text URL (a job id is its check run id).
//
// Tokens come from Credentials, filled by the caller from the environment or
// the OS keychain; they are never written to the cache, settings or a log
// line, and never sent to a host other than the one they are for (a redirect
// to a signed URL goes without them).
#include "relayhud/net/http_client.h"
#include "relayhud/util/result.h"
#include "relayhud/util/time.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace relayhud {

class ContentCache;

struct ArtifactSettings {
    std::string githubApiUrl = "https://api.github.com"; // GitHub Enterprise: https://host/api/v3
    std::string githubWebHost = "github.com";            // host of the run URLs in HUD rows
    std::string s3Endpoint;                              // "" -> https://s3.{region}.amazonaws.com
    std::string s3Region = "us-east-1";
    bool s3PathStyle = true; // {endpoint}/{bucket}/{key}; false: {bucket}.{endpoint host}
};

// Names of the settings a 401/403 message points at, so the user knows what
// to fix ("set the GitHub token in Settings > Artifacts or GITHUB_TOKEN").
struct Credentials {
    std::string githubToken;       // GITHUB_TOKEN, else GH_TOKEN
    std::string s3AccessKeyId;     // AWS_ACCESS_KEY_ID
    std::string s3SecretAccessKey; // AWS_SECRET_ACCESS_KEY
    std::string s3SessionToken;    // AWS_SESSION_TOKEN (optional)
    // The team server's password (issue 21) from the keychain; none from the
    // environment here: libpq reads PGPASSWORD and ~/.pgpass itself.
    std::string teamPassword;

    static Credentials fromEnvironment();
};

enum class StoreKind : std::uint8_t { GitHubArtifacts, S3, Https, LocalPath };
const char* storeKindName(StoreKind kind); // "GitHub artifacts", "S3 bucket", ...

struct ArtifactLocation {
    StoreKind kind = StoreKind::Https;
    std::string url; // as the HUD row has it
    // GitHubArtifacts
    std::string owner;
    std::string repo;
    std::string runId;
    // Which of a run's artifacts belong to the job (set by the caller from
    // the HUD row; a workflow run's artifacts cover all its jobs). Artifact
    // names that carry `_{jobId}` (PyTorch's upload-test-artifacts suffix)
    // or `runattempt{N}` select by them; a run whose names carry neither
    // gives all its artifacts.
    std::string jobId;
    int runAttempt = 0; // 0: any
    // When the run started (the HUD row's started_at; 0: unknown): where a
    // search for the run it dispatched begins.
    EpochSeconds startedAt = 0;
    // S3
    std::string bucket;
    std::string key; // a key, or a prefix ending in '/' (every report under it)
    // LocalPath
    std::string path;
};

// Errors for URLs no store understands (an empty one, ftp://, a GitHub URL
// that names no run), naming the URL.
Result<ArtifactLocation> locateArtifacts(const std::string& artifactUrl,
                                         const ArtifactSettings& settings);

enum class FetchStatus : std::uint8_t {
    Fetched,      // files below
    Expired,      // 404/410 from the store, or an expired signed URL
    Unauthorized, // 401/403; message names the setting
    Empty,        // the store answered, but holds no artifacts for the run
};

// A downloaded file: a blob in the ContentCache, with the name it had (the
// artifact's name plus ".zip", the key's last part, the local file name).
struct FetchedFile {
    std::string name;
    std::string path; // blob path, or the local file itself for LocalPath
    std::string hash; // "" for a local file
    std::uint64_t bytes = 0;
    bool fromCache = false; // 304, or the same URL already cached
};

struct ArtifactFetch {
    FetchStatus status = FetchStatus::Fetched;
    std::string message; // for a status other than Fetched: one line a user can act on
    std::vector<FetchedFile> files;
    int requests = 0;
    // What the run's listing held that was not downloaded, and why
    // ("pytorch-wheel-<sha> (812 MiB, a wheel or other binary)"); where the
    // reports came from when not the run itself ("reports of the dispatched
    // run 123 (upstream-tests-beta-matrix ...)").
    std::vector<std::string> notes;
    // Every artifact name the run (and a dispatched child run) listed: the
    // names carry the tested commit for some reporters.
    std::vector<std::string> listedNames;
};

struct JobLogFetch {
    FetchStatus status = FetchStatus::Fetched;
    std::string message;
    FetchedFile file;
};

// A text file of a repository, as GitHub's contents API gave it.
struct RepoFile {
    std::string path; // ".github/workflows/ci.yml"
    std::string text;
    std::string sha; // git's blob name, which the bytes were checked against
    std::string htmlUrl;
    bool fromCache = false; // unchanged since last asked (a 304)
};

struct RepoFilesFetch {
    FetchStatus status = FetchStatus::Fetched;
    std::string message; // for a status other than Fetched
    std::vector<RepoFile> files;
    int requests = 0;
};

// GitHub's rate limit as last seen (X-RateLimit-Remaining/Reset).
struct RateLimitState {
    std::int64_t remaining = -1; // -1: not seen yet
    std::int64_t resetAt = 0;    // epoch seconds
};

class ArtifactFetcher {
public:
    ArtifactFetcher(HttpClient& http, ContentCache& blobs, ArtifactSettings settings,
                    Credentials credentials);

    // Downloads the artifacts of one location into the content cache.
    // Conditional (If-None-Match from the cache's URL records) and resumable
    // (a partial download in the cache's temp folder continues with Range).
    // Waits out GitHub's rate limit when Remaining hits 0 (up to a bound, else
    // an Error saying when it resets). Errors: network, server, bad archives.
    Result<ArtifactFetch> fetch(const ArtifactLocation& location,
                                const std::atomic<bool>* cancel = nullptr);

    // The raw log of one GitHub Actions job.
    Result<JobLogFetch> fetchJobLog(const std::string& owner, const std::string& repo,
                                    const std::string& jobId,
                                    const std::atomic<bool>* cancel = nullptr);

    // A repository's workflow files (.github/workflows/*.yml and *.yaml)
    // through the contents API, each asked conditionally: unchanged ones cost
    // a 304. Each file's bytes must have its listed size and git blob SHA
    // (else a transient Error: cut in transit). No folder: Empty.
    Result<RepoFilesFetch> fetchWorkflowFiles(const std::string& owner, const std::string& repo,
                                              const std::atomic<bool>* cancel = nullptr);
    // The workflow files as last read, from the content cache alone (no
    // request): for offline use. Empty when none were kept.
    RepoFilesFetch keptWorkflowFiles(const std::string& owner, const std::string& repo) const;

    RateLimitState rateLimit() const;

    // Where downloads land; importers keep cut message texts there too.
    ContentCache& contentCache() const;

private:
    struct Impl;
    std::shared_ptr<Impl> m_impl;
};

} // namespace relayhud
