#pragma once
// Client for the PyTorch HUD's read API (https://hud.pytorch.org), which the
// simulator mirrors: /api/crcr/allowlist, /api/crcr/pr-info and the saved
// ClickHouse queries under /api/clickhouse/<query>?parameters=<JSON>.
#include "relayhud/hud/row_mapping.h"
#include "relayhud/model/types.h"
#include "relayhud/net/http_client.h"
#include "relayhud/util/result.h"

#include <string>
#include <vector>

namespace relayhud {

// A page of rows plus what is needed to skip unchanged pages next time.
struct HudPage {
    std::vector<CheckRun> runs;
    std::size_t rawRows = 0;   // rows in the answer (mapped or not)
    std::size_t prNumbers = 0; // distinct PRs in the page (the page unit)
    bool notModified = false;  // 304 against the stored ETag: runs is empty
    std::string etag;
    std::string url;
    std::vector<std::string> warnings; // rows skipped, with the reason
};

class HudClient {
public:
    HudClient(HttpClient& http, std::string baseUrl);

    const std::string& baseUrl() const { return m_baseUrl; }

    Result<std::vector<Backend>> allowlist();
    // crcr_backend_dashboard pages over PR numbers (per_page PRs, offset).
    Result<HudPage> backendDashboard(const std::string& repo, int days, int perPage, int offset,
                                     const std::string& etag = {});
    Result<HudPage> nightlyDashboard(const std::string& repo, int days,
                                     const std::string& etag = {});
    // crcr_pr_results has no SHA column: the caller names the PR's head SHA.
    Result<HudPage> prResults(std::int64_t pr, const Sha& headSha);
    // At most 50 PR numbers per call (the real endpoint's limit).
    Result<std::vector<PrInfo>> prInfo(const std::vector<std::int64_t>& prs);

    std::string queryUrl(const std::string& query, const std::string& parametersJson) const;
    // The exact URLs the page calls fetch, to look up their stored ETags.
    std::string backendDashboardUrl(const std::string& repo, int days, int perPage,
                                    int offset) const;
    std::string nightlyDashboardUrl(const std::string& repo, int days) const;

private:
    Result<HttpResponse> fetch(const std::string& url, const std::string& etag);
    Result<HudPage> fetchPage(const std::string& url, const std::string& etag,
                              const RowContext& context);

    HttpClient& m_http;
    std::string m_baseUrl;
};

} // namespace relayhud
