#pragma once
#include <atomic>
#include <string_view>
// The downstream stores' routes, dispatched by path prefix: /api/v3 (GitHub),
// /blob (the signed URLs GitHub redirects to), /s3 (the bucket) and /files
// (plain HTTPS). Owns the generator, the index and the blob cache they share.
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_server.h"
#include "sim_bucket.h"
#include "sim_github.h"

#include <string>

namespace relayhud::sim {

class ArtifactRoutes {
public:
    ArtifactRoutes(const SimDataset& data, const SimStoreSettings& settings, const SimClock& clock,
                   const std::string& baseUrl);

    static bool owns(const std::string& path);
    ApiResponse handle(const SimRequest& request);

private:
    ApiResponse blob(const SimRequest& request);
    ApiResponse stats() const;
    ApiResponse file(const SimRequest& request);

    const SimStoreSettings& m_settings;
    const SimClock& m_clock;
    SimArtifacts m_artifacts;
    ArtifactIndex m_index;
    BlobStore m_blobs;
    GitHubApi m_github;
    SimBucket m_bucket;
    std::atomic<std::uint64_t> m_wheelDownloads{0};
    std::atomic<std::uint64_t> m_wheelBytes{0};
};

// GET: {"wheel_downloads": n, "wheel_bytes_served": n}.
inline constexpr std::string_view kStatsPath = "/sim/stats";

} // namespace relayhud::sim
