#pragma once
// The few GitHub REST calls artifact fetching needs, with GitHub's manners:
// the token only ever goes to the API's own origin (never to a redirect
// target or a foreign pagination link), the primary rate limit is waited out
// when its reset is near, and a secondary limit (403/429 with Retry-After) is
// waited out rather than mistaken for a refused token.
#include "artifacts/fetch_context.h"
#include "relayhud/artifacts/listings.h"
#include "relayhud/store/content_cache.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::github {

// Longest wait for a rate limit to reset before giving up with an Error.
inline constexpr std::chrono::seconds kMaxRateLimitWait{60};

// An answer that is not the thing asked for: 401/403/404/410 and the like.
struct Refusal {
    long status = 0;
    std::string serverMessage; // GitHub's "message", one line
};

struct ArtifactList {
    std::vector<ArtifactInfo> artifacts;
    std::optional<Refusal> refusal;
};

struct WorkflowRunList {
    std::vector<WorkflowRunInfo> runs;
    std::optional<Refusal> refusal;
};

class GitHubApi {
public:
    GitHubApi(artifacts::FetcherContext& context, artifacts::FetchCall& call);

    std::string repoUrl(const std::string& owner, const std::string& repo) const;

    // Every artifact of a workflow run, all pages (conditional: an unchanged
    // page is read back from the content cache).
    Result<ArtifactList> listRunArtifacts(const std::string& owner, const std::string& repo,
                                          const std::string& runId);

    // The repository's runs of one event created on or after `since` (a
    // day, UTC), newest first, at most `maxPages` pages of 100
    // (GET /repos/{o}/{r}/actions/runs?event=...&created=>=YYYY-MM-DD).
    Result<WorkflowRunList> listRuns(const std::string& owner, const std::string& repo,
                                     const std::string& event, EpochSeconds since, int maxPages);

    // GETs an API URL that answers with a redirect to a short-lived signed
    // URL (artifact zips, job logs), without following it: the caller goes
    // there without the token. A 2xx answer (a server that sends the bytes
    // itself) lands in `file`.
    Result<HttpResponse> getRedirect(const std::string& url, const std::string& file);

    bool hasToken() const { return !m_context.credentials.githubToken.empty(); }

    // An answer kept in the content cache and asked for again with its ETag.
    struct KeptAnswer {
        std::string body; // fresh, or the kept one when GitHub said 304
        bool fromCache = false;
        std::string link;               // the answer's Link header (a 304 may have none)
        std::optional<Refusal> refusal; // 401/403/404/410 and the like: no body
    };
    // Says what is wrong with a body that is not whole or not what was asked.
    using BodyCheck = std::function<Result<void>(std::string_view body)>;
    // GETs an API URL conditionally (Accept `accept`). A body is kept, and
    // revalidated later, only once `check` accepts it: one cut on the way (a
    // proxy that cuts keeps the full answer's headers, its ETag too) is a
    // transient error asked again on the next pass, never a page whose 304s
    // would serve the cut for good. A kept body `check` no longer accepts is
    // forgotten and asked for whole.
    Result<KeptAnswer> getKept(const std::string& url, const std::string& accept,
                               const BodyCheck& check);

private:
    Result<HttpResponse> send(HttpRequest request, const std::string* file);
    Result<ArtifactPage> listingPage(const std::string& url, std::string& nextUrl,
                                     std::optional<Refusal>& refusal);
    std::optional<std::string> storedBody(const std::string& url,
                                          const std::optional<UrlRecord>& record,
                                          const BodyCheck& check) const;
    HttpRequest apiRequest(const std::string& url) const;
    bool sameOrigin(const std::string& url) const;

    artifacts::FetcherContext& m_context;
    artifacts::FetchCall& m_call;
};

// GitHub's JSON {"message": ...} of an error answer, on one line.
std::string serverMessage(const HttpResponse& response);
} // namespace relayhud::github
