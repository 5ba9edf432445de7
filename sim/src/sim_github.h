#pragma once
// GitHub's REST API for Actions under {base}/api/v3: workflow runs, attempts,
// jobs, job logs and artifacts; each backend's .github/workflows through the
// contents API; and pytorch/pytorch's pull requests. Token auth as GitHub does it
// (a wrong token is refused everywhere, downloads need one), a primary rate limit per hour with
// X-RateLimit-* headers, strong ETags with 304s that cost nothing, and Link
// pagination.
#include "relayhud/sim/sim_server.h"
#include "sim_blob_store.h"
#include "sim_github_json.h"
#include "sim_http.h"

#include <mutex>
#include <string>
#include <vector>

namespace relayhud::sim {

class GitHubApi {
public:
    GitHubApi(const SimDataset& data, const ArtifactIndex& index, BlobStore& blobs,
              const SimStoreSettings& settings, const SimClock& clock, const std::string& baseUrl);

    ApiResponse handle(const SimRequest& request);
    // The query of a blob URL (signed for settings.signedUrlSeconds) for `path`.
    std::string signedBlobUrl(const std::string& path) const;

private:
    enum class Auth : std::uint8_t { None, Valid, Invalid };
    struct Window {
        int limit = 0;
        int used = 0;
        EpochSeconds reset = 0;
    };

    Auth authOf(const SimRequest& request) const;
    ApiResponse route(const SimRequest& request, Auth auth);
    ApiResponse pullRoute(const std::string& number) const;
    ApiResponse repoRoute(const SimRequest& request, const std::string& repo,
                          const std::vector<std::string>& rest, Auth auth);
    ApiResponse listRuns(const SimRequest& request, const std::string& repo);
    ApiResponse runRoute(const SimRequest& request, const WorkflowRun& run,
                         const std::vector<std::string>& rest);
    ApiResponse listJobs(const SimRequest& request, const WorkflowRun& run, int attempt, bool all);
    ApiResponse listArtifacts(const SimRequest& request, const std::string& repo,
                              const std::string& runId);
    ApiResponse artifactRoute(const std::string& repo, const std::vector<std::string>& rest,
                              Auth auth);
    ApiResponse jobRoute(const std::string& repo, const std::vector<std::string>& rest, Auth auth);
    ApiResponse contentsRoute(const SimRequest& request, const std::string& repo,
                              const std::vector<std::string>& path) const;
    ApiResponse rateLimit(Auth auth);
    void addRateHeaders(ApiResponse& out, const Window& window) const;
    Window& window(Auth auth);
    GitHubContext context() const;
    // The world's "now": the dataset's, moved on by the server clock since
    // it started. An artifact uploaded after it is not listed yet.
    EpochSeconds worldNow() const;

    const SimDataset& m_data;
    const ArtifactIndex& m_index;
    BlobStore& m_blobs;
    const SimStoreSettings& m_settings;
    const SimClock& m_clock;
    EpochSeconds m_clockAtStart = 0;
    const std::string& m_baseUrl;
    std::mutex m_mutex; // guards the windows
    Window m_token;
    Window m_anonymous;
};

// The key that signs blob URLs: derived from the store secrets, never sent.
std::string blobSigningKey(const SimStoreSettings& settings);

} // namespace relayhud::sim
