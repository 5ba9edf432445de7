#pragma once
// Client for the PyTorch HUD's read API (https://hud.pytorch.org), which the
// simulator mirrors: /api/crcr/allowlist, /api/crcr/pr-info,
// /api/crcr/commit-info and the saved ClickHouse queries under
// /api/clickhouse/<query>?parameters=<JSON>. How the real endpoints answer,
// with citations into pytorch/test-infra: ../shared/specs/hud-read-api.md §0.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/hud/row_mapping.h"
#include "relayhud/model/types.h"
#include "relayhud/net/http_client.h"
#include "relayhud/util/result.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace relayhud {

// The HUD's host (Vercel) answers 500 FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE to
// a function response over 4.5 MB, on every try (test-infra torchci/README.md:9,75).
inline constexpr std::size_t kHudResponseCapBytes = 4'500'000;
// What we take from the HUD at most: five times that cap, so a host that one
// day raises it still syncs, while a hostile or broken answer is refused while
// it downloads, by its Content-Length or by the bytes that arrive
// (net/transfer.cpp). `relayhud-cli sync` against a loopback HUD answering a
// 264 MB array (issue 35): before, 21 GB peak RSS until the OOM killer ended
// it after 10 min; now refused in about a second, at 19 MB peak with a
// Content-Length and 223 MB without one (parallel requests each stop here).
inline constexpr std::size_t kMaxHudAnswerBytes = 24u * 1024 * 1024;

// A page of rows plus what is needed to skip unchanged pages next time.
struct HudPage {
    std::vector<CheckRun> runs;
    std::size_t rawRows = 0;   // rows in the answer (mapped or not)
    std::size_t prNumbers = 0; // distinct pr_number values among all rows, read or not (R13)
    std::size_t bodyBytes = 0; // the decoded answer, to compare with kHudResponseCapBytes
    bool notModified = false;  // 304 against the stored ETag: runs is empty
    std::string etag;
    std::string url;
    std::vector<std::string> warnings; // rows skipped, with the reason
    // Set when the HUD answered 500 (asked with serverErrorAsAnswer): the
    // page holds nothing; the text says so in the HUD's words.
    std::optional<std::string> serverError;
};

struct AllowlistAnswer {
    std::vector<Backend> backends;
    // X-Database: STALE: the HUD could not refresh the list from GitHub and
    // served its in-memory copy (test-infra pages/api/crcr/allowlist.ts:60-65).
    bool stale = false;
};

// A saved query's answer body as a page of runs (rows that cannot be read
// are skipped with a warning); an Error when the body is no JSON array of
// rows, the HUD's {"error": ...}, or not one row can be read.
Result<HudPage> readHudPage(const std::string& body, const std::string& url,
                            const RowContext& context);
// /api/crcr/allowlist's body as the backends it names.
Result<std::vector<Backend>> readAllowlist(const std::string& body, const std::string& url);

// Answers of the batch lookups (pr-info, commit-info): one query for the whole
// batch, so one bad key makes the HUD answer 500 for all of it
// (pr-info.ts:45-77, commit-info.ts:44-78). The client halves such a batch
// until the bad keys stand alone; every other row is kept.
template <class Row, class Key>
struct BatchAnswer {
    std::vector<Row> rows;
    std::vector<Key> failed; // keys the HUD could not answer even alone
    std::vector<std::string> errors;
};

struct CommitInfo {
    Sha sha;
    std::string title;
    std::string author;
};

class HudClient {
public:
    HudClient(HttpClient& http, std::string baseUrl);

    const std::string& baseUrl() const { return m_baseUrl; }

    // Err when the HUD answers 502 (its GitHub fetch failed with nothing
    // cached), anything but a list, or nothing at all.
    Result<AllowlistAnswer> allowlist();
    // crcr_backend_dashboard pages over PR numbers (per_page PRs, offset). A
    // 500 comes back as HudPage::serverError when serverErrorAsAnswer is set
    // (the caller then asks for a smaller page), else as an Error after retries.
    Result<HudPage> backendDashboard(const std::string& repo, int days, int perPage, int offset,
                                     const std::string& etag = {},
                                     bool serverErrorAsAnswer = false);
    Result<HudPage> nightlyDashboard(const std::string& repo, int days,
                                     const std::string& etag = {});
    // pr-info, 50 PR numbers per call (the real endpoint's limit).
    BatchAnswer<PrInfo, PrNumber> prInfo(const std::vector<PrNumber>& prs);
    // commit-info on pytorch/pytorch (the only repository it answers for),
    // 50 SHAs per call; keys that are not 40-hex SHAs are never sent (a
    // malformed oid fails the whole GraphQL query) and come back as failed.
    BatchAnswer<CommitInfo, std::string> commitInfo(const std::vector<std::string>& shas);

    // A saved query's rows as the HUD sent them (for the summaries the cache
    // keeps verbatim). Err on a 500 ("the HUD answered 500 ...") or non-list.
    Result<nlohmann::json> savedQuery(const std::string& query, const nlohmann::json& parameters);

    std::string queryUrl(const std::string& query, const std::string& parametersJson) const;
    // The exact URLs the page calls fetch, to look up their stored ETags.
    std::string backendDashboardUrl(const std::string& repo, int days, int perPage,
                                    int offset) const;
    std::string nightlyDashboardUrl(const std::string& repo, int days) const;

private:
    Result<HttpResponse> fetch(const std::string& url, const std::string& etag,
                               bool serverErrorAsAnswer = false);
    Result<HudPage> fetchPage(const std::string& url, const std::string& etag,
                              const RowContext& context, bool serverErrorAsAnswer);
    // One batch call; nullopt when the HUD answered 500 for the batch.
    Result<std::optional<nlohmann::json>> fetchBatch(const std::string& url);

    HttpClient& m_http;
    std::string m_baseUrl;
};

// "the HUD answered 500 (Internal Server Error) for crcr_backend_dashboard":
// the status and the HUD's own text, never "invalid JSON" for a plain-text
// error page (hud-read-api.md R16).
std::string hudServerErrorText(const HttpResponse& response, const std::string& what);

} // namespace relayhud
