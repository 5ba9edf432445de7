#include "artifacts/github_api.h"

#include "artifacts/blob_download.h"
#include "relayhud/net/body_summary.h"
#include "relayhud/util/ascii.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <sstream>
#include <thread>

namespace relayhud::github {
namespace {

constexpr int kPerPage = 100;
constexpr int kMaxPages = 50;
constexpr int kMaxRateLimitRounds = 3;

// "https://api.github.com" of "https://API.github.com/repos/x": scheme and authority.
std::string originOf(const std::string& url)
{
    const auto scheme = url.find("://");
    if (scheme == std::string::npos)
        return {};
    const auto end = url.find_first_of("/?#", scheme + 3);
    return lowerAscii(url.substr(0, end));
}

// How long a rate-limited answer asks us to wait; nullopt when it is not one.
std::optional<std::chrono::seconds> rateLimitWait(const HttpResponse& response)
{
    if (response.status != 403 && response.status != 429)
        return std::nullopt;
    if (const std::string after = response.header("retry-after"); !after.empty())
        if (const auto wait = HttpClient::parseRetryAfter(after))
            return std::chrono::ceil<std::chrono::seconds>(*wait);
    if (response.header("x-ratelimit-remaining") == "0")
        return std::chrono::seconds(0); // the tracker waits for the reset
    return std::nullopt;
}

bool sleepFor(std::chrono::seconds wait, const artifacts::FetchCall& call)
{
    const auto until = std::chrono::steady_clock::now() + wait;
    while (std::chrono::steady_clock::now() < until) {
        if (call.cancelled())
            return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return !call.cancelled();
}

Result<std::string> readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return makeError("could not read the cached answer " + path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

GitHubApi::GitHubApi(artifacts::FetcherContext& context, artifacts::FetchCall& call)
    : m_context(context), m_call(call)
{
}

std::string GitHubApi::repoUrl(const std::string& owner, const std::string& repo) const
{
    std::string base = m_context.settings.githubApiUrl;
    while (!base.empty() && base.back() == '/')
        base.pop_back();
    return base + "/repos/" + owner + "/" + repo;
}

HttpRequest GitHubApi::apiRequest(const std::string& url) const
{
    HttpRequest request;
    request.url = url;
    request.headers = {{"Accept", "application/vnd.github+json"},
                       {"X-GitHub-Api-Version", "2022-11-28"}};
    if (hasToken())
        request.headers.emplace_back("Authorization",
                                     "Bearer " + m_context.credentials.githubToken);
    request.statusAsAnswer = true;
    request.cancel = m_call.cancel;
    request.maxBodyBytes = artifacts::kMaxApiAnswerBytes;
    return request;
}

bool GitHubApi::sameOrigin(const std::string& url) const
{
    return !url.empty() && originOf(url) == originOf(m_context.settings.githubApiUrl);
}

Result<HttpResponse> GitHubApi::send(HttpRequest request, const std::string* file)
{
    for (int round = 0;; ++round) {
        if (auto ready = m_context.rateLimit.waitIfExhausted(kMaxRateLimitWait, m_call); !ready)
            return ready.error();
        ++m_call.requests;
        auto answer = file ? m_context.http.download(request, *file) : m_context.http.get(request);
        if (!answer)
            return makeError(m_context.redact(answer.message()));
        m_context.rateLimit.observe(*answer);
        const auto wait = rateLimitWait(*answer);
        if (!wait || round + 1 >= kMaxRateLimitRounds)
            return answer;
        if (*wait > kMaxRateLimitWait)
            return makeError("GitHub's secondary rate limit asks to wait "
                             + std::to_string(wait->count()) + " s; try again later");
        if (!sleepFor(*wait, m_call))
            return makeError("cancelled");
    }
}

Result<HttpResponse> GitHubApi::getRedirect(const std::string& url, const std::string& file)
{
    HttpRequest request = apiRequest(url);
    request.followRedirects = false;
    request.totalTimeout = artifacts::kDownloadTimeout;
    request.maxBodyBytes = artifacts::kMaxDownloadBytes;
    return send(std::move(request), &file);
}

// The body `record` kept for `url`, if it is still there and `check` still
// accepts it; else the record is forgotten (an older RelayHUD kept bodies cut
// in transit, whose ETag would bring a 304 for the broken body on every ask).
std::optional<std::string> GitHubApi::storedBody(const std::string& url,
                                                 const std::optional<UrlRecord>& record,
                                                 const BodyCheck& check) const
{
    if (!record)
        return std::nullopt;
    auto path = m_context.blobs.path(record->hash);
    auto body = path ? readFile(*path) : Result<std::string>(makeError("evicted"));
    if (body && check(*body))
        return std::move(*body);
    m_context.blobs.forgetUrl(url);
    return std::nullopt;
}

Result<GitHubApi::KeptAnswer> GitHubApi::getKept(const std::string& url, const std::string& accept,
                                                 const BodyCheck& check)
{
    const auto record = m_context.blobs.lookupUrl(url);
    std::optional<std::string> stored = storedBody(url, record, check);
    HttpRequest request = apiRequest(url);
    for (auto& [name, value] : request.headers)
        if (name == "Accept")
            value = accept;
    request.ifNoneMatch = stored ? record->etag : std::string();
    auto answer = send(request, nullptr);
    if (answer && answer->status == 304 && !stored) {
        request.ifNoneMatch.clear(); // a 304 to an unconditional ask: ask again
        answer = send(request, nullptr);
    }
    if (!answer)
        return answer.error();
    KeptAnswer kept;
    kept.link = answer->header("link");
    if (answer->status == 304 && stored) {
        kept.body = std::move(*stored);
        kept.fromCache = true;
        return kept;
    }
    if (answer->status != 200) {
        kept.refusal = Refusal{answer->status, serverMessage(*answer)};
        return kept;
    }
    if (auto whole = check(answer->body); !whole)
        return makeError(whole.message() + " (cut in transit?); asked again on the next pass");
    if (auto hash = m_context.blobs.put(answer->body))
        (void)m_context.blobs.recordUrl(url, UrlRecord{*hash, answer->header("etag"), {}});
    kept.body = std::move(answer->body);
    return kept;
}

// One page of a run's artifact listing, and the next page's URL when GitHub's
// Link header names one.
Result<ArtifactPage> GitHubApi::listingPage(const std::string& url, std::string& nextUrl,
                                            std::optional<Refusal>& refusal)
{
    auto kept = getKept(url, "application/vnd.github+json", [&](std::string_view body) {
        auto page = parseArtifactPage(body, url);
        return page ? Result<void>() : Result<void>(page.error());
    });
    if (!kept)
        return kept.error();
    nextUrl = nextLink(kept->link);
    if (!nextUrl.empty() && !sameOrigin(nextUrl))
        return makeError("GitHub's next-page link for " + artifacts::displayUrl(url)
                         + " points to another host; not following it with the token");
    if (kept->refusal) {
        refusal = std::move(kept->refusal);
        return ArtifactPage{};
    }
    return parseArtifactPage(kept->body, url);
}

Result<ArtifactList> GitHubApi::listRunArtifacts(const std::string& owner, const std::string& repo,
                                                 const std::string& runId)
{
    const std::string base = repoUrl(owner, repo) + "/actions/runs/" + runId + "/artifacts";
    ArtifactList list;
    std::string url = base + "?per_page=" + std::to_string(kPerPage) + "&page=1";
    for (int page = 1; page <= kMaxPages && !url.empty(); ++page) {
        std::string next;
        auto parsed = listingPage(url, next, list.refusal);
        if (!parsed)
            return parsed.error();
        if (list.refusal)
            return list;
        auto& all = list.artifacts;
        all.insert(all.end(), parsed->artifacts.begin(), parsed->artifacts.end());
        const bool more = !parsed->artifacts.empty()
                          && static_cast<std::int64_t>(all.size()) < parsed->totalCount;
        // A 304 carries no fresh Link header: the count says whether more follow.
        url = !next.empty() ? next
              : more        ? base + "?per_page=" + std::to_string(kPerPage)
                           + "&page=" + std::to_string(page + 1)
                     : std::string();
    }
    return list;
}

Result<WorkflowRunList> GitHubApi::listRuns(const std::string& owner, const std::string& repo,
                                            const std::string& event, EpochSeconds since,
                                            int maxPages)
{
    // created=>=YYYY-MM-DD, the qualifier syntax GitHub's search uses
    // (docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository).
    const std::string day = formatIso(since).substr(0, 10);
    const std::string base = repoUrl(owner, repo) + "/actions/runs?event=" + event
                             + "&created=%3E%3D" + day + "&per_page=" + std::to_string(kPerPage);
    WorkflowRunList list;
    std::string url = base + "&page=1";
    for (int page = 1; page <= maxPages && !url.empty(); ++page) {
        auto kept = getKept(url, "application/vnd.github+json", [&](std::string_view body) {
            auto parsed = parseWorkflowRunPage(body, url);
            return parsed ? Result<void>() : Result<void>(parsed.error());
        });
        if (!kept)
            return kept.error();
        if (kept->refusal) {
            list.refusal = std::move(kept->refusal);
            return list;
        }
        auto parsed = parseWorkflowRunPage(kept->body, url);
        if (!parsed)
            return parsed.error();
        list.runs.insert(list.runs.end(), parsed->runs.begin(), parsed->runs.end());
        const bool more = !parsed->runs.empty()
                          && static_cast<std::int64_t>(list.runs.size()) < parsed->totalCount;
        url = more ? base + "&page=" + std::to_string(page + 1) : std::string();
    }
    return list;
}

std::string serverMessage(const HttpResponse& response)
{
    return net::summarizeBody(response.body, response.header("content-type"), 160);
}

} // namespace relayhud::github
