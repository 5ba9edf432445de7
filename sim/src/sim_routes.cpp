#include "sim_routes.h"

#include "sim_format.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <optional>

namespace relayhud::sim {
namespace {

// pr-info and commit-info cap their lists at 50 (.slice(0, 50)).
constexpr std::size_t kMaxInfoItems = 50;
constexpr std::string_view kUpstreamRepo = "pytorch/pytorch";
constexpr std::string_view kQueryPrefix = "/api/clickhouse/";

ApiResponse jsonOk(const Json& body) { return ApiResponse{200, body.dump(), kJsonContentType, {}}; }

// JavaScript's String.prototype.split(","): empty items kept.
std::vector<std::string> splitList(const std::string& text)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (true) {
        const std::size_t comma = text.find(',', start);
        out.push_back(text.substr(start, comma - start));
        if (comma == std::string::npos)
            return out;
        start = comma + 1;
    }
}

// Empty values count as missing, as `!req.query.x` does in the HUD.
const std::string* param(const ApiRequest& request, const std::string& key)
{
    const auto it = request.params.find(key);
    return it == request.params.end() || it->second.empty() ? nullptr : &it->second;
}

bool allDigits(std::string_view text, int base)
{
    return !text.empty() && std::all_of(text.begin(), text.end(), [base](char c) {
        const int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0'
                      : std::isxdigit(static_cast<unsigned char>(c))
                          ? std::tolower(static_cast<unsigned char>(c)) - 'a' + 10
                          : 99;
        return d < base;
    });
}

// JavaScript's Number(text) (ECMA-262 StringToNumber): surrounding white
// space ignored, "" is 0, 0x/0o/0b literals, Infinity, decimals with an
// exponent; anything else is NaN (nullopt).
std::optional<double> jsNumber(std::string_view text)
{
    const auto space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    if (text.empty())
        return 0.0;
    if (text.size() > 2 && text[0] == '0') {
        const char kind = static_cast<char>(std::tolower(static_cast<unsigned char>(text[1])));
        const int base = kind == 'x' ? 16 : kind == 'o' ? 8 : kind == 'b' ? 2 : 0;
        if (base != 0) {
            if (!allDigits(text.substr(2), base))
                return std::nullopt;
            double value = 0.0;
            for (char c : text.substr(2))
                value = value * base
                        + (std::isdigit(static_cast<unsigned char>(c))
                               ? c - '0'
                               : std::tolower(static_cast<unsigned char>(c)) - 'a' + 10);
            return value;
        }
    }
    std::string_view body = text;
    const bool negative = body.front() == '-';
    if (body.front() == '+' || body.front() == '-')
        body.remove_prefix(1);
    if (body == "Infinity")
        return negative ? -HUGE_VAL : HUGE_VAL;
    // [digits][.digits][(e|E)[+-]digits], at least one digit in the mantissa
    std::size_t i = 0;
    std::size_t mantissaDigits = 0;
    while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])))
        ++i, ++mantissaDigits;
    if (i < body.size() && body[i] == '.') {
        ++i;
        while (i < body.size() && std::isdigit(static_cast<unsigned char>(body[i])))
            ++i, ++mantissaDigits;
    }
    if (mantissaDigits == 0)
        return std::nullopt;
    if (i < body.size() && (body[i] == 'e' || body[i] == 'E')) {
        ++i;
        if (i < body.size() && (body[i] == '+' || body[i] == '-'))
            ++i;
        if (!allDigits(body.substr(i), 10))
            return std::nullopt;
        i = body.size();
    }
    if (i != body.size())
        return std::nullopt;
    return std::strtod(std::string(text).c_str(), nullptr);
}

// A value GraphQL's Int (32-bit) accepts as `number: ${n}`: JavaScript prints
// a whole number below 1e21 without a fraction or exponent.
bool graphQlInt(double n) { return std::isfinite(n) && std::floor(n) == n && n <= 2147483647.0; }

bool isObjectId(const std::string& oid) { return oid.size() == 40 && allDigits(oid, 16); }

} // namespace

ApiResponse jsonError(int status, const std::string& message)
{
    return ApiResponse{status, Json{{"error", message}}.dump(), kJsonContentType, {}};
}

ApiResponse internalServerError()
{
    return ApiResponse{500, "Internal Server Error", "text/plain; charset=utf-8", {}};
}

ApiResponse nextNotFound()
{
    static const std::string page =
        "<!DOCTYPE html><html><head><meta charSet=\"utf-8\"/><meta name=\"viewport\" "
        "content=\"width=device-width\"/><title>404: This page could not be found</title>"
        "</head><body><div id=\"__next\"><div style=\"font-family:system-ui,sans-serif;"
        "height:100vh;text-align:center;display:flex;flex-direction:column;align-items:center;"
        "justify-content:center\"><div><h1 class=\"next-error-h1\" style=\"display:inline-block;"
        "margin:0 20px 0 0;padding:0 23px 0 0;font-size:24px;font-weight:500;"
        "vertical-align:top;line-height:49px\">404</h1><div style=\"display:inline-block\">"
        "<h2 style=\"font-size:14px;font-weight:400;line-height:49px;margin:0\">This page "
        "could not be found.</h2></div></div></div></div></body></html>";
    return ApiResponse{404, page, "text/html; charset=utf-8", {}};
}

// vercel.com/docs/errors/FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE
ApiResponse payloadTooLarge()
{
    return ApiResponse{500,
                       "An error occurred with your deployment\n\n"
                       "FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE\n\niad1::relayhud-sim\n",
                       "text/plain; charset=utf-8",
                       {{"X-Vercel-Error", "FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE"}}};
}

SimRoutes::SimRoutes(const SimDataset& dataset) : m_data(dataset), m_queries(dataset)
{
    for (const UpstreamCommit& commit : dataset.commits)
        m_commitsBySha.emplace(commit.sha.value, &commit);
    for (const SimPullRequest& pr : dataset.pulls)
        m_pulls.emplace(pr.number, &pr);
}

const std::vector<SimRoutes::Route>& SimRoutes::routes()
{
    static const std::vector<Route> table = {
        {"/api/crcr/allowlist", false, &SimRoutes::allowlist},
        {"/api/crcr/pr-info", false, &SimRoutes::prInfo},
        {"/api/crcr/commit-info", false, &SimRoutes::commitInfo},
        {kQueryPrefix, true, &SimRoutes::clickhouse},
    };
    return table;
}

bool SimRoutes::isQuery(std::string_view path) { return path.starts_with(kQueryPrefix); }

ApiResponse SimRoutes::handle(const ApiRequest& request, const RouteFaults& faults) const
{
    const std::string_view path = request.path;
    for (const Route& route : routes()) {
        const std::string_view rest = path.substr(std::min(route.path.size(), path.size()));
        // [queryName].ts matches one non-empty segment.
        if (route.prefix && path.starts_with(route.path) && !rest.empty()
            && rest.find('/') == std::string_view::npos)
            return (this->*route.handler)(request, rest, faults);
        if (!route.prefix && path == route.path)
            return (this->*route.handler)(request, {}, faults);
    }
    return nextNotFound();
}

// pytorch/test-infra torchci/pages/api/crcr/allowlist.ts @61a77570: 405 for
// any method but GET; X-Database MISS / HIT / STALE; 502 {"error"} when the
// GitHub raw fetch fails with nothing cached.
ApiResponse SimRoutes::allowlist(const ApiRequest& request, std::string_view,
                                 const RouteFaults& faults) const
{
    if (request.method != "GET")
        return jsonError(405, "Method not allowed");
    if (faults.allowlist == AllowlistFetch::Fails)
        return jsonError(502, "Failed to fetch allowlist from GitHub: 503");
    Json out = {
        {"L1", Json::array()}, {"L2", Json::array()}, {"L3", Json::array()}, {"L4", Json::array()}};
    for (const Backend& backend : m_data.backends) {
        const std::string level(wireLevel(backend.level));
        if (!level.empty())
            out[level].push_back(Json{{"repo", backend.repo}, {"oncalls", backend.oncalls}});
    }
    ApiResponse answer = jsonOk(out);
    answer.headers.emplace_back(
        "X-Cache", faults.allowlist == AllowlistFetch::FailsWithCache ? "STALE" : "MISS");
    return answer;
}

// pytorch/test-infra torchci/pages/api/clickhouse/[queryName].ts @61a77570
// has no try/catch: JSON.parse of a missing or bad `parameters`, an unknown
// query (readFileSync ENOENT) or a ClickHouse error all become Next.js's
// 500 "Internal Server Error" (text/plain). It never answers 400 or 404.
ApiResponse SimRoutes::clickhouse(const ApiRequest& request, std::string_view query,
                                  const RouteFaults&) const
{
    const auto it = request.params.find("parameters");
    if (it == request.params.end() || !m_queries.has(query))
        return internalServerError();
    const auto parameters = nlohmann::json::parse(it->second, nullptr, false);
    if (parameters.is_discarded())
        return internalServerError();
    auto rows = m_queries.run(query, parameters);
    if (!rows)
        return internalServerError();
    return jsonOk(*rows);
}

// pytorch/test-infra torchci/pages/api/crcr/pr-info.ts @61a77570: the list is
// split on "," and mapped with Number(), kept when > 0, cut at 50; one
// GraphQL query asks for all, so any PR GitHub cannot resolve (unknown, or a
// number GraphQL's Int rejects) fails the whole batch with 500.
ApiResponse SimRoutes::prInfo(const ApiRequest& request, std::string_view,
                              const RouteFaults& faults) const
{
    const std::string* repo = param(request, "repo");
    const std::string* prs = param(request, "prs");
    if (!repo || !prs)
        return jsonError(400, "Missing required params: repo, prs");
    if (*repo != kUpstreamRepo)
        return jsonError(403, "Repository not allowed");
    std::vector<double> list;
    for (const std::string& item : splitList(*prs)) {
        const auto n = jsNumber(item);
        if (n && *n > 0 && list.size() < kMaxInfoItems)
            list.push_back(*n);
    }
    Json out = Json::array();
    for (double n : list) {
        if (!graphQlInt(n))
            return jsonError(500, "Failed to fetch PR info");
        const PrNumber number{static_cast<std::int64_t>(n)};
        const auto it = m_pulls.find(number);
        if (it == m_pulls.end()
            || std::count(faults.prInfoFail.begin(), faults.prInfoFail.end(), number) != 0)
            return jsonError(500, "Failed to fetch PR info");
        out.push_back(Json{{"prNumber", number.value},
                           {"title", it->second->title},
                           {"author", it->second->author}});
    }
    ApiResponse answer = jsonOk(out);
    if (!list.empty())
        answer.headers.emplace_back("Cache-Control", "s-maxage=300, stale-while-revalidate=600");
    return answer;
}

// pytorch/test-infra torchci/pages/api/crcr/commit-info.ts @61a77570 (since
// #8330): 403 unless pytorch/pytorch, checked before the empty-list check;
// one GraphQL query, so an oid GitHub rejects fails the whole call with 500;
// an unknown commit gets empty text.
ApiResponse SimRoutes::commitInfo(const ApiRequest& request, std::string_view,
                                  const RouteFaults&) const
{
    const std::string* repo = param(request, "repo");
    const std::string* shas = param(request, "shas");
    if (!repo || !shas)
        return jsonError(400, "Missing required params: repo, shas");
    if (*repo != kUpstreamRepo)
        return jsonError(403, "Repository not allowed");
    std::vector<std::string> list = splitList(*shas);
    std::erase_if(list, [](const std::string& s) { return s.empty(); });
    list.resize(std::min(list.size(), kMaxInfoItems));
    if (list.empty())
        return jsonOk(Json::array());
    Json out = Json::array();
    for (const std::string& sha : list) {
        // GitObjectID: assumed to be the 40 hex digits of a SHA-1 (anything
        // else, a free-text nightly key included, is a GraphQL error).
        if (!isObjectId(sha))
            return jsonError(500, "Failed to fetch commit info");
        const auto it = m_commitsBySha.find(sha);
        const bool known = it != m_commitsBySha.end();
        out.push_back(Json{{"sha", sha},
                           {"title", known ? it->second->title : ""},
                           {"author", known ? it->second->author : ""}});
    }
    ApiResponse answer = jsonOk(out);
    answer.headers.emplace_back("Cache-Control", "s-maxage=86400, stale-while-revalidate=3600");
    return answer;
}

} // namespace relayhud::sim
