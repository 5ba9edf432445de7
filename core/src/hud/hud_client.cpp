#include "relayhud/hud/hud_client.h"

#include "hud/json_fields.h"

#include <nlohmann/json.hpp>

#include <set>

namespace relayhud {

using nlohmann::json;

namespace {

std::string urlEncode(const std::string& text)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(text.size() * 3);
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'
            || c == '_' || c == '.' || c == '~') {
            out += ch;
        } else {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 15];
        }
    }
    return out;
}

std::string trimSlash(std::string url)
{
    while (!url.empty() && url.back() == '/')
        url.pop_back();
    return url;
}

// An answer that is an object with "error" is the HUD reporting a failure.
Result<const json*> expectArray(const json& doc, const std::string& url)
{
    if (doc.is_array())
        return &doc;
    if (doc.is_object() && doc.contains("error"))
        return makeError("the HUD answered an error for " + url + ": "
                         + doc["error"].dump().substr(0, 200));
    return makeError("expected a JSON array of rows from " + url);
}

Result<HudPage> mapRows(const json& doc, const std::string& url, const RowContext& context)
{
    auto rows = expectArray(doc, url);
    if (!rows)
        return rows.error();
    HudPage page;
    page.url = url;
    page.rawRows = (*rows)->size();
    std::set<std::int64_t> prs;
    for (std::size_t i = 0; i < (*rows)->size(); ++i) {
        auto run = mapCheckRunRow((**rows)[i], context);
        if (!run) {
            page.warnings.push_back(url + " row " + std::to_string(i + 1)
                                    + " skipped: " + run.message());
            continue;
        }
        prs.insert(run->prNumber);
        page.runs.push_back(std::move(run.value()));
    }
    if (page.runs.empty() && page.rawRows > 0)
        return makeError("none of the " + std::to_string(page.rawRows) + " rows from " + url
                         + " could be read: " + page.warnings.front());
    page.prNumbers = prs.size();
    return page;
}

} // namespace

HudClient::HudClient(HttpClient& http, std::string baseUrl)
    : m_http(http), m_baseUrl(trimSlash(std::move(baseUrl)))
{
}

std::string HudClient::queryUrl(const std::string& query, const std::string& parametersJson) const
{
    return m_baseUrl + "/api/clickhouse/" + query + "?parameters=" + urlEncode(parametersJson);
}

Result<HttpResponse> HudClient::fetch(const std::string& url, const std::string& etag)
{
    HttpRequest request{url, {{"Accept", "application/json"}}, etag};
    return m_http.get(request);
}

Result<std::vector<Backend>> HudClient::allowlist()
{
    const std::string url = m_baseUrl + "/api/crcr/allowlist";
    auto response = fetch(url, {});
    if (!response)
        return response.error();
    auto doc = hud::parseJsonBody(response->body, url);
    if (!doc)
        return doc.error();
    auto backends = mapAllowlist(*doc);
    if (!backends)
        return makeError(url + ": " + backends.message());
    return backends;
}

Result<HudPage> HudClient::fetchPage(const std::string& url, const std::string& etag,
                                     const RowContext& context)
{
    auto response = fetch(url, etag);
    if (!response)
        return response.error();
    if (response->notModified()) {
        HudPage page;
        page.url = url;
        page.notModified = true;
        page.etag = etag;
        return page;
    }
    auto doc = hud::parseJsonBody(response->body, url);
    if (!doc)
        return doc.error();
    auto page = mapRows(*doc, url, context);
    if (page)
        page->etag = response->header("etag");
    return page;
}

std::string HudClient::backendDashboardUrl(const std::string& repo, int days, int perPage,
                                           int offset) const
{
    const json params{{"repo", repo}, {"days", days}, {"per_page", perPage}, {"offset", offset}};
    return queryUrl("crcr_backend_dashboard", params.dump());
}

std::string HudClient::nightlyDashboardUrl(const std::string& repo, int days) const
{
    const json params{{"repo", repo}, {"days", days}};
    return queryUrl("crcr_nightly_dashboard", params.dump());
}

Result<HudPage> HudClient::backendDashboard(const std::string& repo, int days, int perPage,
                                            int offset, const std::string& etag)
{
    return fetchPage(backendDashboardUrl(repo, days, perPage, offset), etag,
                     RowContext{repo, EventType::PullRequest, {}, 0});
}

Result<HudPage> HudClient::nightlyDashboard(const std::string& repo, int days,
                                            const std::string& etag)
{
    return fetchPage(nightlyDashboardUrl(repo, days), etag,
                     RowContext{repo, EventType::Nightly, {}, 0});
}

Result<HudPage> HudClient::prResults(std::int64_t pr, const Sha& headSha)
{
    const json params{{"pr", pr}};
    return fetchPage(queryUrl("crcr_pr_results", params.dump()), {},
                     RowContext{{}, EventType::PullRequest, headSha, pr});
}

Result<std::vector<PrInfo>> HudClient::prInfo(const std::vector<std::int64_t>& prs)
{
    std::vector<PrInfo> out;
    for (std::size_t start = 0; start < prs.size(); start += 50) {
        std::string list;
        for (std::size_t i = start; i < std::min(prs.size(), start + 50); ++i)
            list += (list.empty() ? "" : ",") + std::to_string(prs[i]);
        const std::string url = m_baseUrl + "/api/crcr/pr-info?repo=pytorch%2Fpytorch&prs=" + list;
        auto response = fetch(url, {});
        if (!response)
            return response.error();
        auto doc = hud::parseJsonBody(response->body, url);
        if (!doc)
            return doc.error();
        auto rows = expectArray(*doc, url);
        if (!rows)
            return rows.error();
        for (const auto& row : **rows) {
            auto number = hud::intField(row, "prNumber");
            auto title = hud::stringField(row, "title");
            auto author = hud::stringField(row, "author");
            if (number && title && author && *number > 0)
                out.push_back(PrInfo{*number, *title, *author});
        }
    }
    return out;
}

} // namespace relayhud
