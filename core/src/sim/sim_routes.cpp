#include "sim_routes.h"

#include "sim_format.h"

#include <charconv>

namespace relayhud::sim {
namespace {

constexpr std::size_t kMaxInfoItems = 50; // pr-info and commit-info cap their lists
constexpr std::string_view kUpstreamRepo = "pytorch/pytorch";

ApiResponse jsonOk(const Json& body) { return ApiResponse{200, body.dump(), kJsonContentType, {}}; }

std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t comma = std::min(text.find(',', start), text.size());
        if (comma > start)
            out.push_back(text.substr(start, comma - start));
        start = comma + 1;
    }
    return out;
}

// Empty values count as missing, as `!req.query.x` does in the HUD.
const std::string* param(const ApiRequest& request, const std::string& key)
{
    const auto it = request.params.find(key);
    return it == request.params.end() || it->second.empty() ? nullptr : &it->second;
}

std::int64_t positiveInt(const std::string& text)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && value > 0 ? value : 0;
}

} // namespace

ApiResponse jsonError(int status, const std::string& message)
{
    return ApiResponse{status, Json{{"error", message}}.dump(), kJsonContentType, {}};
}

SimRoutes::SimRoutes(const SimDataset& dataset) : m_data(dataset), m_queries(dataset)
{
    for (const UpstreamCommit& commit : dataset.commits) {
        m_commitsBySha.emplace(commit.sha.value, &commit);
        if (commit.prNumber > 0)
            m_prOpeners.emplace(commit.prNumber, &commit); // commits are oldest first
    }
}

const std::vector<SimRoutes::Route>& SimRoutes::routes()
{
    static const std::vector<Route> table = {
        {"/api/crcr/allowlist", false, &SimRoutes::allowlist},
        {"/api/crcr/pr-info", false, &SimRoutes::prInfo},
        {"/api/crcr/commit-info", false, &SimRoutes::commitInfo},
        {"/api/clickhouse/", true, &SimRoutes::clickhouse},
    };
    return table;
}

ApiResponse SimRoutes::handle(const ApiRequest& request) const
{
    const std::string_view path = request.path;
    for (const Route& route : routes()) {
        if (route.prefix && path.substr(0, route.path.size()) == route.path)
            return (this->*route.handler)(request, path.substr(route.path.size()));
        if (!route.prefix && path == route.path)
            return (this->*route.handler)(request, {});
    }
    return jsonError(404, "Not found: " + request.path);
}

ApiResponse SimRoutes::allowlist(const ApiRequest&, std::string_view) const
{
    Json out = {
        {"L1", Json::array()}, {"L2", Json::array()}, {"L3", Json::array()}, {"L4", Json::array()}};
    for (const Backend& backend : m_data.backends) {
        const std::string level(wireLevel(backend.level));
        if (!level.empty())
            out[level].push_back(Json{{"repo", backend.repo}, {"oncalls", backend.oncalls}});
    }
    return jsonOk(out);
}

ApiResponse SimRoutes::clickhouse(const ApiRequest& request, std::string_view query) const
{
    if (!m_queries.has(query))
        return jsonError(404, "Query " + std::string(query) + " not found");
    const std::string* text = param(request, "parameters");
    if (!text)
        return jsonError(400, "Missing required parameter: parameters");
    const auto parameters = nlohmann::json::parse(*text, nullptr, false);
    if (parameters.is_discarded())
        return jsonError(400, "parameters is not valid JSON");
    auto rows = m_queries.run(query, parameters);
    if (!rows)
        return jsonError(400, rows.message());
    return jsonOk(*rows);
}

ApiResponse SimRoutes::prInfo(const ApiRequest& request, std::string_view) const
{
    const std::string* repo = param(request, "repo");
    const std::string* prs = param(request, "prs");
    if (!repo || !prs)
        return jsonError(400, "Missing required params: repo, prs");
    if (*repo != kUpstreamRepo)
        return jsonError(403, "Repository not allowed");
    Json out = Json::array();
    for (const std::string& item : splitList(*prs)) {
        const std::int64_t pr = positiveInt(item);
        if (pr == 0 || out.size() == kMaxInfoItems)
            continue;
        const auto it = m_prOpeners.find(pr);
        const bool known = it != m_prOpeners.end();
        out.push_back(Json{{"prNumber", pr},
                           {"title", known ? it->second->title : ""},
                           {"author", known ? it->second->author : ""}});
    }
    return jsonOk(out);
}

ApiResponse SimRoutes::commitInfo(const ApiRequest& request, std::string_view) const
{
    const std::string* repo = param(request, "repo");
    const std::string* shas = param(request, "shas");
    if (!repo || !shas)
        return jsonError(400, "Missing required params: repo, shas");
    std::vector<std::string> list = splitList(*shas);
    list.resize(std::min(list.size(), kMaxInfoItems));
    if (list.empty())
        return jsonOk(Json::array());
    const std::size_t slash = repo->find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == repo->size())
        return jsonError(400, "repo must be owner/name format");
    Json out = Json::array();
    for (const std::string& sha : list) {
        // Like the HUD: a commit it cannot look up comes back with empty text.
        const auto it = *repo == kUpstreamRepo ? m_commitsBySha.find(sha) : m_commitsBySha.end();
        const bool known = it != m_commitsBySha.end();
        out.push_back(Json{{"sha", sha},
                           {"title", known ? it->second->title : ""},
                           {"author", known ? it->second->author : ""}});
    }
    return jsonOk(out);
}

} // namespace relayhud::sim
