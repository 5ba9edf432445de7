#include "artifacts/signed_download.h"

#include "artifacts/blob_download.h"
#include "relayhud/net/body_summary.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/util/ascii.h"

#include <algorithm>
#include <cctype>

namespace relayhud::github {
namespace {

using artifacts::FetchCall;
using artifacts::FetcherContext;

struct Hop {
    HttpResponse response;
    std::optional<FetchedFile> file; // the API sent the bytes itself
};

// The first request, with the token, to the API URL.
Result<Hop> askApi(FetcherContext& context, GitHubApi& api, const std::string& apiUrl,
                   const std::string& name)
{
    // Its own partial file: a resumable signed download must not be offered
    // as a Range to the API.
    const auto held = context.locks.acquire(context.blobs.tempDir(), apiUrl + "#direct");
    auto answer = api.getRedirect(apiUrl, held.file());
    if (!answer)
        return answer.error();
    Hop hop{std::move(*answer), std::nullopt};
    if (hop.response.status >= 200 && hop.response.status < 300) {
        auto file = artifacts::adoptDownload(context, apiUrl, held.file(), hop.response, name);
        if (!file)
            return file.error();
        hop.file = std::move(*file);
    }
    return hop;
}

// An absolute http(s) URL for a Location header (absolute, or a path on the API's host).
Result<std::string> resolveLocation(const std::string& location, const std::string& apiUrl)
{
    if (location.starts_with("https://") || location.starts_with("http://"))
        return location;
    if (location.starts_with("/") && !location.starts_with("//")) {
        const auto scheme = apiUrl.find("://");
        const auto pathStart = apiUrl.find('/', scheme + 3);
        return apiUrl.substr(0, pathStart) + location;
    }
    return makeError("GitHub redirected " + artifacts::displayUrl(apiUrl) + " to \""
                     + artifacts::displayUrl(location.substr(0, 200))
                     + "\", which is not an http(s) URL; refused");
}

// The request to a signed URL: no token, no custom headers at all.
HttpRequest signedRequest(const std::string& url, const FetchCall& call)
{
    HttpRequest request;
    request.url = url;
    request.statusAsAnswer = true;
    request.totalTimeout = artifacts::kDownloadTimeout;
    request.maxBodyBytes = artifacts::kMaxDownloadBytes;
    request.cancel = call.cancel;
    return request;
}

// S3's <Message>Request has expired</Message>, Azure's "Signed expiry time".
bool signatureExpired(const HttpResponse& response)
{
    if (response.status != 403 && response.status != 400)
        return false;
    const std::string body = lowerAscii(response.body.substr(0, 4096));
    return body.find("request has expired") != std::string::npos
           || body.find("signed expiry time") != std::string::npos;
}

Result<SignedDownload> judgeBlobAnswer(const HttpResponse& response, const std::string& target,
                                       const std::string& what, const std::string& goneText)
{
    if (signatureExpired(response))
        return SignedDownload{FetchStatus::Expired,
                              what + ": the download link GitHub gave had expired before use",
                              std::nullopt};
    if (response.status == 404 || response.status == 410)
        return SignedDownload{FetchStatus::Expired, goneText, std::nullopt};
    return makeError("HTTP " + std::to_string(response.status) + " from the download link for "
                     + what + " (" + artifacts::displayUrl(target) + "): "
                     + net::summarizeBody(response.body, response.header("content-type"), 160));
}

std::string said(const Refusal& refusal)
{
    return refusal.serverMessage.empty() ? std::string()
                                         : " (GitHub: " + refusal.serverMessage + ")";
}

} // namespace

Result<SignedDownload> judgeRefusal(FetcherContext& context, const GitHubApi& api,
                                    const Refusal& refusal, const std::string& what,
                                    const std::string& goneText)
{
    const std::string setting = artifacts::kGitHubTokenSetting;
    const std::string missing = "GitHub token missing: set it in " + setting + said(refusal);
    SignedDownload judged{FetchStatus::Unauthorized, {}, std::nullopt};
    switch (refusal.status) {
    case 401:
        judged.message = api.hasToken()
                             ? "GitHub token refused: set a valid one in " + setting + said(refusal)
                             : missing;
        context.rememberRefusal("github", judged.message);
        break;
    case 403:
        judged.message = api.hasToken()
                             ? "GitHub token may not read " + what
                                   + ": give it Actions read access, in " + setting + said(refusal)
                             : missing;
        break;
    case 404:
        if (!api.hasToken()) {
            judged.message = "GitHub does not show " + what
                             + " without a token (a private repository?): set it in " + setting;
            break;
        }
        [[fallthrough]];
    case 410: judged = {FetchStatus::Expired, goneText + said(refusal), std::nullopt}; break;
    default:
        return makeError(context.redact("HTTP " + std::to_string(refusal.status)
                                        + " from GitHub for " + what + said(refusal)));
    }
    judged.message = context.redact(judged.message);
    return judged;
}

Result<SignedDownload> downloadSigned(FetcherContext& context, FetchCall& call, GitHubApi& api,
                                      const std::string& apiUrl, const std::string& name,
                                      const std::string& what, const std::string& goneText)
{
    if (auto cached = artifacts::cachedFile(context, apiUrl, name)) // immutable once made
        return SignedDownload{FetchStatus::Fetched, {}, std::move(cached)};
    for (int round = 0;; ++round) {
        auto hop = askApi(context, api, apiUrl, name);
        if (!hop)
            return hop.error();
        if (hop->file)
            return SignedDownload{FetchStatus::Fetched, {}, std::move(hop->file)};
        const HttpResponse& answer = hop->response;
        if (answer.status < 300 || answer.status >= 400)
            return judgeRefusal(context, api, {answer.status, serverMessage(answer)}, what,
                                goneText);
        auto target = resolveLocation(answer.header("location"), apiUrl);
        if (!target)
            return target.error();
        auto blob = artifacts::downloadToCache(context, call, apiUrl, signedRequest(*target, call),
                                               false, name);
        if (!blob)
            return blob.error();
        if (blob->file)
            return SignedDownload{FetchStatus::Fetched, {}, std::move(blob->file)};
        if (!(signatureExpired(blob->response) && round == 0)) // a fresh link may still work
            return judgeBlobAnswer(blob->response, *target, what, goneText);
    }
}

} // namespace relayhud::github
