#include "artifacts/blob_download.h"

#include "relayhud/store/content_cache.h"

#include <filesystem>

namespace relayhud::artifacts {
namespace {

namespace fs = std::filesystem;

FetchedFile fileFor(const FetcherContext& context, const std::string& hash, const std::string& name,
                    bool fromCache)
{
    FetchedFile file;
    file.name = name;
    file.hash = hash;
    file.path = context.blobs.path(hash).value_or(std::string());
    std::error_code error;
    const auto size = fs::file_size(file.path, error);
    file.bytes = error ? 0 : size;
    file.fromCache = fromCache;
    return file;
}

Result<BlobAnswer> downloadOnce(FetcherContext& context, FetchCall& call,
                                const std::string& stableUrl, HttpRequest request, bool conditional,
                                const std::string& name)
{
    const auto record = conditional ? context.blobs.lookupUrl(stableUrl) : std::nullopt;
    request.ifNoneMatch = record ? record->etag : std::string();
    const auto held = context.locks.acquire(context.blobs.tempDir(), stableUrl);
    ++call.requests;
    auto answer = context.http.download(request, held.file());
    if (!answer)
        return makeError(context.redact(answer.message()));
    BlobAnswer result{std::move(*answer), std::nullopt};
    const long status = result.response.status;
    if (status == 304 && record) {
        result.file = cachedFile(context, stableUrl, name);
    } else if (status >= 200 && status < 300) {
        auto file = adoptDownload(context, stableUrl, held.file(), result.response, name);
        if (!file)
            return file.error();
        result.file = std::move(*file);
    }
    return result;
}

} // namespace

Result<FetchedFile> adoptDownload(FetcherContext& context, const std::string& stableUrl,
                                  const std::string& part, const HttpResponse& response,
                                  const std::string& name)
{
    auto hash = context.blobs.putFile(part);
    if (!hash)
        return makeError("could not store " + name + " in the content cache: " + hash.message());
    const UrlRecord record{*hash, response.header("etag"), response.header("last-modified")};
    if (auto recorded = context.blobs.recordUrl(stableUrl, record); !recorded)
        return makeError("could not record " + displayUrl(stableUrl) + ": " + recorded.message());
    return fileFor(context, *hash, name, false);
}

std::optional<FetchedFile> cachedFile(const FetcherContext& context, const std::string& stableUrl,
                                      const std::string& name)
{
    const auto record = context.blobs.lookupUrl(stableUrl);
    if (!record || !context.blobs.has(record->hash))
        return std::nullopt;
    FetchedFile file = fileFor(context, record->hash, name, true);
    if (file.path.empty())
        return std::nullopt; // evicted in between
    return file;
}

Result<BlobAnswer> downloadToCache(FetcherContext& context, FetchCall& call,
                                   const std::string& stableUrl, HttpRequest request,
                                   bool conditional, const std::string& name)
{
    request.cancel = call.cancel;
    auto answer = downloadOnce(context, call, stableUrl, request, conditional, name);
    // A 304 whose blob was evicted in between: ask again, unconditionally.
    if (answer && answer->response.status == 304 && !answer->file)
        return downloadOnce(context, call, stableUrl, request, false, name);
    return answer;
}

std::string displayUrl(const std::string& url)
{
    std::string shown = url.substr(0, url.find_first_of("?#"));
    const auto scheme = shown.find("://");
    const auto authority = scheme == std::string::npos ? 0 : scheme + 3;
    const auto at = shown.find('@', authority);
    if (at != std::string::npos && at < shown.find('/', authority))
        shown.erase(authority, at + 1 - authority);
    return shown;
}

} // namespace relayhud::artifacts
