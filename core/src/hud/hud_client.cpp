#include "relayhud/hud/hud_client.h"

#include "hud/json_fields.h"
#include "relayhud/net/body_summary.h"
#include "relayhud/util/json_guard.h"

#include <nlohmann/json.hpp>

#include <algorithm>
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

// The page unit is the PR: count every row's raw pr_number, read or not, so
// a PR whose rows are all unreadable still counts and paging goes on (R13).
std::size_t rawPrNumbers(const json& rows)
{
    std::set<std::int64_t> prs;
    for (const auto& row : rows)
        if (row.is_object())
            if (auto pr = hud::intField(row, "pr_number", -1); pr)
                prs.insert(*pr);
    return prs.size();
}

Result<HudPage> mapRows(const json& doc, const std::string& url, const RowContext& context)
{
    auto rows = expectArray(doc, url);
    if (!rows)
        return rows.error();
    HudPage page;
    page.url = url;
    page.rawRows = (*rows)->size();
    for (std::size_t i = 0; i < (*rows)->size(); ++i) {
        auto run = mapCheckRunRow((**rows)[i], context);
        if (!run) {
            page.warnings.push_back(url + " row " + std::to_string(i + 1)
                                    + " skipped: " + run.message());
            continue;
        }
        page.runs.push_back(std::move(run.value()));
    }
    if (page.runs.empty() && page.rawRows > 0)
        return makeError("none of the " + std::to_string(page.rawRows) + " rows from " + url
                         + " could be read: " + page.warnings.front());
    page.prNumbers = rawPrNumbers(**rows);
    return page;
}

bool isSha(const std::string& text)
{
    return text.size() == 40 && std::all_of(text.begin(), text.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

// Asks `fetchOne` for `keys`, halving a batch the HUD answers 500 for until
// the keys it cannot answer stand alone.
template <class Row, class Key, class FetchOne>
void bisectBatch(const std::vector<Key>& keys, FetchOne& fetchOne, BatchAnswer<Row, Key>& out)
{
    if (keys.empty())
        return;
    auto rows = fetchOne(keys);
    if (!rows) {
        out.errors.push_back(rows.message());
        out.failed.insert(out.failed.end(), keys.begin(), keys.end());
        return;
    }
    if (*rows) {
        out.rows.insert(out.rows.end(), (*rows)->begin(), (*rows)->end());
        return;
    }
    if (keys.size() == 1) {
        out.failed.push_back(keys.front());
        return;
    }
    const auto half = keys.begin() + static_cast<std::ptrdiff_t>(keys.size() / 2);
    bisectBatch(std::vector<Key>(keys.begin(), half), fetchOne, out);
    bisectBatch(std::vector<Key>(half, keys.end()), fetchOne, out);
}

template <class Row, class Key, class FetchOne>
BatchAnswer<Row, Key> inBatchesOf50(const std::vector<Key>& keys, FetchOne fetchOne)
{
    BatchAnswer<Row, Key> out;
    for (std::size_t start = 0; start < keys.size(); start += 50) {
        const auto end = std::min(keys.size(), start + 50);
        bisectBatch(std::vector<Key>(keys.begin() + static_cast<std::ptrdiff_t>(start),
                                     keys.begin() + static_cast<std::ptrdiff_t>(end)),
                    fetchOne, out);
    }
    return out;
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

std::string hudServerErrorText(const HttpResponse& response, const std::string& what)
{
    std::string text = "the HUD answered " + std::to_string(response.status);
    const std::string reason = response.status == 500   ? "Internal Server Error"
                               : response.status == 502 ? "Bad Gateway"
                                                        : "";
    // The HUD's own routes answer {"error": "..."}; Next.js and Vercel plain text.
    std::string said;
    const json doc = parseJsonOrDiscarded(response.body, {kMaxJsonDepth, kMaxHudAnswerBytes});
    if (doc.is_object() && doc.contains("error") && doc["error"].is_string())
        said = net::summarizeBody(doc["error"].get<std::string>(), "text/plain");
    else
        said = net::summarizeBody(response.body, response.header("content-type"));
    if (!said.empty() && said != reason)
        text += " (" + said + ")";
    else if (!reason.empty())
        text += " (" + reason + ")";
    return text + " for " + what;
}

Result<HttpResponse> HudClient::fetch(const std::string& url, const std::string& etag,
                                      bool serverErrorAsAnswer)
{
    HttpRequest request{url, {{"Accept", "application/json"}}, etag};
    request.serverErrorAsAnswer = serverErrorAsAnswer;
    request.maxBodyBytes = static_cast<std::int64_t>(kMaxHudAnswerBytes);
    return m_http.get(request);
}

Result<AllowlistAnswer> HudClient::allowlist()
{
    const std::string url = m_baseUrl + "/api/crcr/allowlist";
    auto response = fetch(url, {}, /*serverErrorAsAnswer=*/true);
    if (!response)
        return response.error();
    if (response->status >= 500)
        return makeError(hudServerErrorText(*response, "its allowlist"));
    auto backends = readAllowlist(response->body, url);
    if (!backends)
        return backends.error();
    return AllowlistAnswer{std::move(*backends), response->header("x-cache") == "STALE"};
}

Result<HudPage> HudClient::fetchPage(const std::string& url, const std::string& etag,
                                     const RowContext& context, bool serverErrorAsAnswer)
{
    auto response = fetch(url, etag, serverErrorAsAnswer);
    if (!response)
        return response.error();
    HudPage page;
    page.url = url;
    if (response->status >= 500) {
        page.serverError = hudServerErrorText(*response, context.query);
        return page;
    }
    if (response->notModified()) {
        page.notModified = true;
        page.etag = etag;
        return page;
    }
    auto mapped = readHudPage(response->body, url, context);
    if (mapped) {
        mapped->etag = response->header("etag");
        mapped->bodyBytes = response->body.size();
    }
    return mapped;
}

Result<HudPage> readHudPage(const std::string& body, const std::string& url,
                            const RowContext& context)
{
    auto doc = hud::parseJsonBody(body, url);
    if (!doc)
        return doc.error();
    return mapRows(*doc, url, context);
}

Result<std::vector<Backend>> readAllowlist(const std::string& body, const std::string& url)
{
    auto doc = hud::parseJsonBody(body, url);
    if (!doc)
        return doc.error();
    auto backends = mapAllowlist(*doc);
    if (!backends)
        return makeError(url + ": " + backends.message());
    return backends;
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
                                            int offset, const std::string& etag,
                                            bool serverErrorAsAnswer)
{
    return fetchPage(backendDashboardUrl(repo, days, perPage, offset), etag,
                     RowContext{repo, EventType::PullRequest, {}, 0, "crcr_backend_dashboard"},
                     serverErrorAsAnswer);
}

Result<HudPage> HudClient::nightlyDashboard(const std::string& repo, int days,
                                            const std::string& etag)
{
    auto page =
        fetchPage(nightlyDashboardUrl(repo, days), etag,
                  RowContext{repo, EventType::Nightly, {}, 0, "crcr_nightly_dashboard"}, false);
    return page;
}

Result<json> HudClient::savedQuery(const std::string& query, const json& parameters)
{
    const auto url = queryUrl(query, parameters.dump());
    auto response = fetch(url, {}, /*serverErrorAsAnswer=*/true);
    if (!response)
        return response.error();
    if (response->status >= 500)
        return makeError(hudServerErrorText(*response, query));
    auto doc = hud::parseJsonBody(response->body, url);
    if (!doc)
        return doc.error();
    if (!doc->is_array())
        return makeError("expected a JSON array of rows from " + url);
    return doc;
}

Result<std::optional<json>> HudClient::fetchBatch(const std::string& url)
{
    auto response = fetch(url, {}, /*serverErrorAsAnswer=*/true);
    if (!response)
        return response.error();
    if (response->status >= 500)
        return std::optional<json>{};
    auto doc = hud::parseJsonBody(response->body, url);
    if (!doc)
        return doc.error();
    auto rows = expectArray(*doc, url);
    if (!rows)
        return rows.error();
    return std::optional<json>{std::move(*doc)};
}

BatchAnswer<PrInfo, PrNumber> HudClient::prInfo(const std::vector<PrNumber>& prs)
{
    auto fetchOne =
        [this](const std::vector<PrNumber>& batch) -> Result<std::optional<std::vector<PrInfo>>> {
        std::string list;
        for (const PrNumber pr : batch)
            list += (list.empty() ? "" : ",") + std::to_string(pr.value);
        auto doc = fetchBatch(m_baseUrl + "/api/crcr/pr-info?repo=pytorch%2Fpytorch&prs=" + list);
        if (!doc)
            return doc.error();
        if (!*doc)
            return std::optional<std::vector<PrInfo>>{};
        std::vector<PrInfo> out;
        for (const auto& row : **doc) {
            auto number = hud::intField(row, "prNumber");
            auto title = hud::stringField(row, "title");
            auto author = hud::stringField(row, "author");
            if (number && title && author && *number > 0)
                out.push_back(PrInfo{PrNumber{*number}, *title, *author});
        }
        return std::optional<std::vector<PrInfo>>{std::move(out)};
    };
    return inBatchesOf50<PrInfo>(prs, fetchOne);
}

BatchAnswer<CommitInfo, std::string> HudClient::commitInfo(const std::vector<std::string>& shas)
{
    std::vector<std::string> valid;
    std::copy_if(shas.begin(), shas.end(), std::back_inserter(valid), isSha);
    auto fetchOne = [this](const std::vector<std::string>& batch)
        -> Result<std::optional<std::vector<CommitInfo>>> {
        std::string list;
        for (const auto& sha : batch)
            list += (list.empty() ? "" : ",") + sha;
        auto doc =
            fetchBatch(m_baseUrl + "/api/crcr/commit-info?repo=pytorch%2Fpytorch&shas=" + list);
        if (!doc)
            return doc.error();
        if (!*doc)
            return std::optional<std::vector<CommitInfo>>{};
        std::vector<CommitInfo> out;
        for (const auto& row : **doc) {
            auto sha = hud::stringField(row, "sha");
            auto title = hud::stringField(row, "title");
            auto author = hud::stringField(row, "author");
            if (sha && title && author && isSha(*sha) && !title->empty())
                out.push_back(CommitInfo{Sha{*sha}, *title, *author});
        }
        return std::optional<std::vector<CommitInfo>>{std::move(out)};
    };
    return inBatchesOf50<CommitInfo>(valid, fetchOne);
}

} // namespace relayhud
