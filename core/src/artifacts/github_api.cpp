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

// One page of a listing: its body (fresh, or the cached one on a 304), the
// next page's URL when GitHub's Link header names one, or a refusal.
// The page `record` kept for `url`, if it is still there and still parses.
std::optional<ArtifactPage> GitHubApi::storedPage(const std::string& url,
                                                  const std::optional<UrlRecord>& record) const
{
    if (!record)
        return std::nullopt;
    auto path = m_context.blobs.path(record->hash);
    auto body = path ? readFile(*path) : Result<std::string>(makeError("evicted"));
    auto page = body ? parseArtifactPage(*body, url) : Result<ArtifactPage>(body.error());
    if (page)
        return std::move(*page);
    // Kept by an older RelayHUD from a body cut in transit: its ETag would
    // bring a 304 for the broken page on every ask. Forget it; ask whole.
    m_context.blobs.forgetUrl(url);
    return std::nullopt;
}

// A page is asked for conditionally only when the kept one parses, and kept
// only once it parses itself: a body cut on the way (a proxy that cuts keeps
// the full answer's headers, its ETag too) is a transient error that the next
// pass asks again, never a page whose 304s would serve the cut for good.
Result<ArtifactPage> GitHubApi::listingPage(const std::string& url, std::string& nextUrl,
                                            std::optional<Refusal>& refusal)
{
    const auto record = m_context.blobs.lookupUrl(url);
    std::optional<ArtifactPage> stored = storedPage(url, record);
    HttpRequest request = apiRequest(url);
    request.ifNoneMatch = stored ? record->etag : std::string();
    auto answer = send(request, nullptr);
    if (answer && answer->status == 304 && !stored) {
        request.ifNoneMatch.clear(); // a 304 to an unconditional ask: ask again
        answer = send(request, nullptr);
    }
    if (!answer)
        return answer.error();
    nextUrl = nextLink(answer->header("link"));
    if (!nextUrl.empty() && !sameOrigin(nextUrl))
        return makeError("GitHub's next-page link for " + artifacts::displayUrl(url)
                         + " points to another host; not following it with the token");
    if (answer->status == 304 && stored)
        return std::move(*stored);
    if (answer->status != 200) {
        refusal = Refusal{answer->status, serverMessage(*answer)};
        return ArtifactPage{};
    }
    auto page = parseArtifactPage(answer->body, url);
    if (!page)
        return makeError(page.message() + " (cut in transit?); asked again on the next pass");
    if (auto hash = m_context.blobs.put(answer->body))
        (void)m_context.blobs.recordUrl(url, UrlRecord{*hash, answer->header("etag"), {}});
    return page;
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

std::string serverMessage(const HttpResponse& response)
{
    return net::summarizeBody(response.body, response.header("content-type"), 160);
}

} // namespace relayhud::github
