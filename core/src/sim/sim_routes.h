#pragma once
// The HUD read API's route table: /api/crcr/allowlist, /api/crcr/pr-info,
// /api/crcr/commit-info and /api/clickhouse/<query>. Pure functions of the
// request and the dataset: no sockets, no faults (see sim_faults.h).
#include "relayhud/sim/sim_dataset.h"
#include "sim_queries.h"

#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace relayhud::sim {

struct ApiRequest {
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

// {"error": message}, the shape every torchci API route answers errors with.
ApiResponse jsonError(int status, const std::string& message);

class SimRoutes {
public:
    explicit SimRoutes(const SimDataset& dataset);
    ApiResponse handle(const ApiRequest& request) const;

private:
    using Handler = ApiResponse (SimRoutes::*)(const ApiRequest&, std::string_view rest) const;
    struct Route {
        std::string_view path;
        bool prefix = false; // path is a prefix; the rest is passed on
        Handler handler = nullptr;
    };
    static const std::vector<Route>& routes();

    ApiResponse allowlist(const ApiRequest& request, std::string_view rest) const;
    ApiResponse clickhouse(const ApiRequest& request, std::string_view query) const;
    ApiResponse prInfo(const ApiRequest& request, std::string_view rest) const;
    ApiResponse commitInfo(const ApiRequest& request, std::string_view rest) const;

    const SimDataset& m_data;
    SimQueries m_queries;
    std::unordered_map<std::string, const UpstreamCommit*> m_commitsBySha;
    std::unordered_map<std::int64_t, const UpstreamCommit*> m_prOpeners; // a PR's first commit
};

} // namespace relayhud::sim
