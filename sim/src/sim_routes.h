#pragma once
// The HUD read API's route table: /api/crcr/allowlist, /api/crcr/pr-info,
// /api/crcr/commit-info and /api/clickhouse/<query>. Pure functions of the
// request, the dataset and the route-level faults the request is handed
// (RouteFaults); no sockets (transport faults: sim_faults.h).
#include "relayhud/sim/sim_dataset.h"
#include "sim_queries.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace relayhud::sim {

// What the allowlist's GitHub raw fetch does for this request.
enum class AllowlistFetch : std::uint8_t { Ok, Fails, FailsWithCache };

struct RouteFaults {
    AllowlistFetch allowlist = AllowlistFetch::Ok;
    std::vector<PrNumber> prInfoFail;
};

struct ApiRequest {
    std::string method = "GET";
    std::string path;
    std::map<std::string, std::string> params; // decoded query string; first value wins
};

// What the HUD (Next.js) sends. Being more than the bare media type also
// keeps cpp-httplib from compressing on its own (see sim_encoding.h).
inline constexpr const char* kJsonContentType = "application/json; charset=utf-8";

struct ApiResponse {
    int status = 200;
    std::string body;
    std::string contentType = kJsonContentType;
    std::vector<std::pair<std::string, std::string>> headers;
};

// {"error": message}, the shape the /api/crcr/* routes answer errors with.
ApiResponse jsonError(int status, const std::string& message);
// What Next.js answers when an API route throws (api-resolver.ts sendError).
ApiResponse internalServerError();
// Next.js's 404 page for a path no route serves.
ApiResponse nextNotFound();
// Vercel's answer to a function whose response body is over its cap.
ApiResponse payloadTooLarge();

class SimRoutes {
public:
    explicit SimRoutes(const SimDataset& dataset);
    ApiResponse handle(const ApiRequest& request, const RouteFaults& faults = {}) const;
    // /api/clickhouse/ answers depend on the request alone (cacheable).
    static bool isQuery(std::string_view path);

private:
    using Handler = ApiResponse (SimRoutes::*)(const ApiRequest&, std::string_view rest,
                                               const RouteFaults& faults) const;
    struct Route {
        std::string_view path;
        bool prefix = false; // path is a prefix; the rest is passed on
        Handler handler = nullptr;
    };
    static const std::vector<Route>& routes();

    ApiResponse allowlist(const ApiRequest& request, std::string_view rest,
                          const RouteFaults& faults) const;
    ApiResponse clickhouse(const ApiRequest& request, std::string_view query,
                           const RouteFaults& faults) const;
    ApiResponse prInfo(const ApiRequest& request, std::string_view rest,
                       const RouteFaults& faults) const;
    ApiResponse commitInfo(const ApiRequest& request, std::string_view rest,
                           const RouteFaults& faults) const;

    const SimDataset& m_data;
    SimQueries m_queries;
    std::unordered_map<std::string, const UpstreamCommit*> m_commitsBySha;
    std::unordered_map<PrNumber, const SimPullRequest*, IdHash> m_pulls;
};

} // namespace relayhud::sim
