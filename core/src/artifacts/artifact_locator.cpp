// locateArtifacts: which store an artifact_url names (artifacts/artifact_store.h).
#include "relayhud/artifacts/artifact_store.h"

#include "relayhud/net/failure_text.h"
#include "relayhud/util/ascii.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string_view>
#include <vector>

namespace relayhud {
namespace {

struct ParsedUrl {
    std::string scheme;    // lower case
    std::string authority; // lower case, without user info
    std::string host;      // authority without the port
    std::string path;      // raw, "/..." or ""
};

std::optional<ParsedUrl> parseUrl(const std::string& url)
{
    const auto colon = url.find("://");
    if (colon == std::string::npos || colon == 0)
        return std::nullopt;
    ParsedUrl parsed;
    parsed.scheme = lowerAscii(url.substr(0, colon));
    const auto start = colon + 3;
    const auto end = std::min(url.find_first_of("/?#", start), url.size());
    std::string authority = url.substr(start, end - start);
    if (const auto at = authority.rfind('@'); at != std::string::npos)
        authority.erase(0, at + 1);
    parsed.authority = lowerAscii(authority);
    parsed.host = parsed.authority.substr(0, parsed.authority.find(':'));
    const auto pathEnd = std::min(url.find_first_of("?#", end), url.size());
    parsed.path = url.substr(end, pathEnd - end);
    return parsed;
}

std::vector<std::string> segments(const std::string& path)
{
    std::vector<std::string> parts;
    std::size_t at = 0;
    while (at <= path.size()) {
        const auto slash = std::min(path.find('/', at), path.size());
        if (slash > at)
            parts.push_back(path.substr(at, slash - at));
        at = slash + 1;
    }
    return parts;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

// %XX decoding; a NUL or a broken escape is refused.
std::optional<std::string> percentDecode(const std::string& text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '%') {
            out += text[i];
            continue;
        }
        const int high = i + 2 < text.size() ? hexValue(text[i + 1]) : -1;
        const int low = high >= 0 ? hexValue(text[i + 2]) : -1;
        if (low < 0 || (high == 0 && low == 0))
            return std::nullopt;
        out += static_cast<char>(high * 16 + low);
        i += 2;
    }
    return out;
}

bool isName(const std::string& text) // GitHub owner or repository
{
    return !text.empty() && text.size() <= 100 && text != "." && text != ".."
           && std::all_of(text.begin(), text.end(), [](unsigned char c) {
                  return std::isalnum(c) || c == '-' || c == '_' || c == '.';
              });
}

bool isNumber(const std::string& text)
{
    return !text.empty() && text.size() <= 20
           && std::all_of(text.begin(), text.end(),
                          [](unsigned char c) { return std::isdigit(c) != 0; });
}

Error unreadable(const std::string& url, const std::string& why)
{
    return makeError("artifact URL \"" + net::redactUrl(url.substr(0, 300)) + "\": " + why);
}

// {o}/{r}/actions/runs/{id}[/attempts/{n}][/artifacts | /job/{job id}], from `first`.
Result<ArtifactLocation> githubRun(const std::vector<std::string>& parts, std::size_t first,
                                   const std::string& url)
{
    const auto at = [&](std::size_t i) { return first + i < parts.size() ? parts[first + i] : ""; };
    if (!isName(at(0)) || !isName(at(1)) || at(2) != "actions" || at(3) != "runs"
        || !isNumber(at(4)))
        return unreadable(url, "a GitHub URL that names no workflow run "
                               "(expected .../{owner}/{repo}/actions/runs/{run id})");
    ArtifactLocation location;
    location.kind = StoreKind::GitHubArtifacts;
    location.url = url;
    location.owner = at(0);
    location.repo = at(1);
    location.runId = at(4);
    std::size_t next = 5;
    if (at(next) == "attempts" && isNumber(at(next + 1)) && at(next + 1).size() < 6) {
        location.runAttempt = std::stoi(at(next + 1));
        next += 2;
    }
    if (at(next) == "job" && isNumber(at(next + 1))) {
        location.jobId = at(next + 1);
        next += 2;
    } else if (at(next) == "artifacts") {
        ++next;
    }
    if (first + next != parts.size())
        return unreadable(url, "unexpected \"" + at(next) + "\" after the GitHub run");
    return location;
}

std::string originPath(const std::string& url) // the path of a configured base URL
{
    const auto parsed = parseUrl(url);
    std::string path = parsed ? parsed->path : std::string();
    while (!path.empty() && path.back() == '/')
        path.pop_back();
    return path;
}

std::optional<Result<ArtifactLocation>> asGitHub(const ParsedUrl& parsed, const std::string& url,
                                                 const ArtifactSettings& settings)
{
    const auto api = parseUrl(settings.githubApiUrl);
    // A GitHub Enterprise host (or the simulator) serves more than the API:
    // only paths under the API's own path are API URLs there.
    const bool underApi = api && parsed.authority == api->authority
                          && parsed.path.starts_with(originPath(settings.githubApiUrl) + "/");
    const bool apiHost = parsed.host == "api.github.com" || underApi;
    const bool webHost = parsed.authority == lowerAscii(settings.githubWebHost)
                         || parsed.host == "github.com" || parsed.host == "www.github.com";
    if (!apiHost && !webHost)
        return std::nullopt;
    std::string path = parsed.path;
    const std::string apiPath =
        underApi ? originPath(settings.githubApiUrl) : std::string("/api/v3");
    if (!apiPath.empty() && path.starts_with(apiPath + "/"))
        path.erase(0, apiPath.size());
    const auto parts = segments(path);
    if (!parts.empty() && parts[0] == "repos")
        return githubRun(parts, 1, url);
    if (webHost)
        return githubRun(parts, 0, url);
    return unreadable(url, "a GitHub API URL that names no workflow run "
                           "(expected /repos/{owner}/{repo}/actions/runs/{run id})");
}

// `encoded`: the key comes %-encoded, as in an https URL (s3:// URLs carry it raw).
Result<ArtifactLocation> s3Location(const std::string& url, const std::string& bucket,
                                    const std::string& rawKey, bool encoded)
{
    const bool valid = bucket.size() >= 3 && bucket.size() <= 63
                       && std::all_of(bucket.begin(), bucket.end(), [](unsigned char c) {
                              return std::islower(c) || std::isdigit(c) || c == '-' || c == '.';
                          });
    if (!valid)
        return unreadable(url, "\"" + bucket + "\" is not an S3 bucket name");
    const auto key = encoded ? percentDecode(rawKey) : std::optional<std::string>(rawKey);
    if (!key)
        return unreadable(url, "the object key holds a broken or NUL %-escape");
    ArtifactLocation location;
    location.kind = StoreKind::S3;
    location.url = url;
    location.bucket = bucket;
    location.key = *key;
    return location;
}

// https://{bucket}.s3[.-]{region}.amazonaws.com/{key},
// https://s3.{region}.amazonaws.com/{bucket}/{key}, and path-style URLs under the configured
// endpoint.
std::optional<Result<ArtifactLocation>> asS3Https(const ParsedUrl& parsed, const std::string& url,
                                                  const ArtifactSettings& settings)
{
    std::string path = parsed.path.empty() ? "" : parsed.path.substr(1);
    const auto endpoint =
        settings.s3Endpoint.empty() ? std::nullopt : parseUrl(settings.s3Endpoint);
    const std::string endpointPath = originPath(settings.s3Endpoint);
    const bool underEndpoint = endpoint && parsed.authority == endpoint->authority
                               && parsed.path.starts_with(endpointPath + "/");
    const bool amazon = parsed.host.ends_with(".amazonaws.com");
    const bool pathStyleHost =
        amazon && (parsed.host.starts_with("s3.") || parsed.host.starts_with("s3-"));
    if (underEndpoint || pathStyleHost) {
        if (underEndpoint)
            path = parsed.path.substr(endpointPath.size() + 1);
        const auto slash = path.find('/');
        return s3Location(url, path.substr(0, slash),
                          slash == std::string::npos ? "" : path.substr(slash + 1), true);
    }
    std::size_t marker = std::string::npos; // the last ".s3." or ".s3-": bucket names may hold dots
    for (const auto at : {parsed.host.rfind(".s3."), parsed.host.rfind(".s3-")})
        if (at != std::string::npos && (marker == std::string::npos || at > marker))
            marker = at;
    if (!amazon || marker == std::string::npos)
        return std::nullopt;
    return s3Location(url, parsed.host.substr(0, marker), path, true);
}

Result<ArtifactLocation> localLocation(const std::string& url, std::string path)
{
    if (path.empty() || path.front() != '/')
        return unreadable(url, "not an absolute path");
    ArtifactLocation location;
    location.kind = StoreKind::LocalPath;
    location.url = url;
    location.path = std::move(path);
    return location;
}

Result<ArtifactLocation> fileUrl(const std::string& url)
{
    const auto parsed = parseUrl(url);
    if (parsed->authority != "" && parsed->authority != "localhost")
        return unreadable(url, "file URLs on another host (" + parsed->authority
                                   + ") cannot be read; mount it and give the local path");
    const auto path = percentDecode(parsed->path);
    if (!path)
        return unreadable(url, "the path holds a broken or NUL %-escape");
    return localLocation(url, *path);
}

Result<ArtifactLocation> httpLocation(const std::string& url, const ArtifactSettings& settings)
{
    const auto parsed = parseUrl(url);
    if (parsed->host.empty())
        return unreadable(url, "no host");
    if (auto github = asGitHub(*parsed, url, settings))
        return std::move(*github);
    if (auto s3 = asS3Https(*parsed, url, settings))
        return std::move(*s3);
    ArtifactLocation location;
    location.kind = StoreKind::Https;
    location.url = url;
    return location;
}

std::string trimmed(const std::string& text)
{
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

} // namespace

const char* storeKindName(StoreKind kind)
{
    switch (kind) {
    case StoreKind::GitHubArtifacts: return "GitHub artifacts";
    case StoreKind::S3: return "S3 bucket";
    case StoreKind::Https: return "HTTPS file";
    case StoreKind::LocalPath: return "local files";
    }
    return "unknown store";
}

Result<ArtifactLocation> locateArtifacts(const std::string& artifactUrl,
                                         const ArtifactSettings& settings)
{
    const std::string url = trimmed(artifactUrl);
    if (url.empty())
        return makeError("no artifact URL: the run reported none");
    if (url.find_first_of(std::string_view("\0\r\n", 3)) != std::string::npos)
        return unreadable(url, "contains a control character");
    if (url.front() == '/')
        return localLocation(url, url);
    const auto parsed = parseUrl(url);
    if (!parsed)
        return unreadable(url, "neither an absolute path nor a URL");
    if (parsed->scheme == "s3") {
        const std::string rest = url.substr(url.find("://") + 3);
        const auto slash = rest.find('/');
        return s3Location(url, rest.substr(0, slash),
                          slash == std::string::npos ? "" : rest.substr(slash + 1), false);
    }
    if (parsed->scheme == "file")
        return fileUrl(url);
    if (parsed->scheme == "http" || parsed->scheme == "https")
        return httpLocation(url, settings);
    return unreadable(url, "RelayHUD reads GitHub run URLs, s3://, http(s):// and file:// URLs "
                           "and local paths, not \""
                               + parsed->scheme + "://\"");
}

} // namespace relayhud
