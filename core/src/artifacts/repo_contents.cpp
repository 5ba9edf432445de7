// A repository's workflow files through GitHub's contents API
// (artifacts/stores.h), for the integration doctor:
//   GET /repos/{owner}/{repo}/contents/.github/workflows  -> a JSON array of
//       {type, name, path, sha, size, html_url, ...}
//   GET /repos/{owner}/{repo}/contents/{path} with
//       Accept: application/vnd.github.raw+json             -> the file's bytes
// (docs.github.com/rest/repos/contents#get-repository-content, API version
// 2022-11-28). Both are kept in the content cache and revalidated with their
// ETags; a file's bytes must have the size and git blob SHA its listing gave.
#include "artifacts/stores.h"

#include "artifacts/github_api.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/util/json_guard.h"
#include "relayhud/util/read_file.h"
#include "relayhud/util/sha256.h"

#include <nlohmann/json.hpp>

#include <optional>

namespace relayhud::artifacts {
namespace {

constexpr const char* kWorkflowFolder = ".github/workflows";
constexpr const char* kJson = "application/vnd.github+json";
constexpr const char* kRaw = "application/vnd.github.raw+json";

struct Entry {
    std::string name;
    std::string path;
    std::string sha;
    std::int64_t size = -1;
    std::string htmlUrl;
};

bool isWorkflowName(const std::string& name)
{
    return name.ends_with(".yml") || name.ends_with(".yaml");
}

std::string stringOf(const nlohmann::json& item, const char* key)
{
    const auto it = item.find(key);
    return it != item.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The folder's workflow files; an Error when the body is no contents listing.
Result<std::vector<Entry>> readListing(std::string_view body)
{
    const auto doc = parseJsonOrDiscarded(
        body, {kMaxJsonDepth, static_cast<std::size_t>(artifacts::kMaxApiAnswerBytes)});
    if (!doc.is_array())
        return makeError("GitHub's answer for " + std::string(kWorkflowFolder)
                         + " is not a folder listing");
    std::vector<Entry> out;
    for (const auto& item : doc) {
        if (!item.is_object() || stringOf(item, "type") != "file")
            continue;
        Entry entry{stringOf(item, "name"), stringOf(item, "path"), stringOf(item, "sha"), -1,
                    stringOf(item, "html_url")};
        const auto size = item.find("size");
        if (size != item.end() && size->is_number_integer())
            entry.size = size->get<std::int64_t>();
        if (isWorkflowName(entry.name) && !entry.path.empty())
            out.push_back(std::move(entry));
    }
    return out;
}

// Git's name for a blob: the SHA-1 of "blob <size>\0<bytes>".
std::string gitBlobSha(std::string_view bytes)
{
    Digest sha1(DigestKind::Sha1);
    sha1.update("blob " + std::to_string(bytes.size()));
    sha1.update(std::string_view("\0", 1));
    sha1.update(bytes);
    return sha1.hexDigest();
}

// Percent-encodes a path's parts for a URL, keeping '/'.
std::string encodePath(const std::string& path)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
                           || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.' || c == '~'
                           || c == '/';
        if (plain) {
            out += c;
        } else {
            out += '%';
            out += kHex[byte >> 4];
            out += kHex[byte & 15];
        }
    }
    return out;
}

RepoFilesFetch refused(const github::Refusal& refusal, const std::string& what)
{
    RepoFilesFetch out;
    const std::string said =
        refusal.serverMessage.empty() ? "" : " (" + refusal.serverMessage + ")";
    if (refusal.status == 404 || refusal.status == 410) {
        out.status = FetchStatus::Empty;
        out.message = what + " has no " + kWorkflowFolder + " folder that the token can see" + said;
    } else {
        out.status = FetchStatus::Unauthorized;
        out.message = "GitHub refused " + what + " (HTTP " + std::to_string(refusal.status) + ")"
                      + said + ": check GITHUB_TOKEN";
    }
    return out;
}

// The check a file's bytes must pass: its listed size and git blob SHA.
Result<void> checkEntry(const Entry& entry, std::string_view body)
{
    if (entry.size >= 0 && body.size() != static_cast<std::uint64_t>(entry.size))
        return makeError(entry.path + " came to " + std::to_string(body.size())
                         + " bytes; its listing says " + std::to_string(entry.size));
    if (!entry.sha.empty() && gitBlobSha(body) != entry.sha)
        return makeError(entry.path + " is not the blob its listing names (" + entry.sha + ")");
    return {};
}

// What `url` gave last time, from the content cache alone.
std::optional<std::string> keptBody(const ContentCache& blobs, const std::string& url)
{
    const auto record = blobs.lookupUrl(url);
    const auto path = record ? blobs.path(record->hash) : std::nullopt;
    if (!path)
        return std::nullopt;
    auto body = readRegularFile(*path, kMaxWorkflowFileBytes, "a kept workflow");
    return body ? std::optional<std::string>(std::move(*body)) : std::nullopt;
}

} // namespace

RepoFilesFetch keptGitHubWorkflows(FetcherContext& context, const std::string& owner,
                                   const std::string& repo)
{
    FetchCall call{nullptr};
    github::GitHubApi api(context, call);
    const std::string base = api.repoUrl(owner, repo) + "/contents/";
    RepoFilesFetch out;
    out.status = FetchStatus::Empty;
    out.message = "no workflows of " + owner + "/" + repo + " were kept";
    const auto listing = keptBody(context.blobs, base + kWorkflowFolder);
    auto entries = listing ? readListing(*listing) : Result<std::vector<Entry>>(makeError(""));
    if (!entries)
        return out;
    for (const Entry& entry : *entries) {
        auto body = keptBody(context.blobs, base + encodePath(entry.path));
        if (!body || !checkEntry(entry, *body))
            continue;
        out.files.push_back({entry.path, std::move(*body), entry.sha, entry.htmlUrl, true});
    }
    if (!out.files.empty()) {
        out.status = FetchStatus::Fetched;
        out.message.clear();
    }
    return out;
}

Result<RepoFilesFetch> fetchGitHubWorkflows(FetcherContext& context, FetchCall& call,
                                            const std::string& owner, const std::string& repo)
{
    if (auto refusal = context.standingRefusal("github"))
        return RepoFilesFetch{FetchStatus::Unauthorized, *refusal, {}, 0};
    github::GitHubApi api(context, call);
    const std::string base = api.repoUrl(owner, repo) + "/contents/";
    const std::string what = owner + "/" + repo;
    auto listing = api.getKept(base + kWorkflowFolder, kJson, [](std::string_view body) {
        auto read = readListing(body);
        return read ? Result<void>() : Result<void>(read.error());
    });
    if (!listing)
        return listing.error();
    if (listing->refusal)
        return refused(*listing->refusal, what);
    auto entries = readListing(listing->body);
    if (!entries)
        return entries.error();
    RepoFilesFetch out;
    for (const Entry& entry : *entries) {
        if (call.cancelled())
            return makeError("cancelled");
        auto file = api.getKept(base + encodePath(entry.path), kRaw,
                                [&](std::string_view body) { return checkEntry(entry, body); });
        if (!file)
            return file.error();
        if (file->refusal) // removed between the listing and now
            continue;
        out.files.push_back(
            {entry.path, std::move(file->body), entry.sha, entry.htmlUrl, file->fromCache});
    }
    if (out.files.empty()) {
        out.status = FetchStatus::Empty;
        out.message = what + " has no workflow files in " + kWorkflowFolder;
    }
    return out;
}

} // namespace relayhud::artifacts
