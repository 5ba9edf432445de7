// Plain HTTPS files and local files or folders (artifacts/stores.h).
#include "artifacts/stores.h"

#include "artifacts/blob_download.h"
#include "relayhud/artifacts/report_names.h"

#include <algorithm>
#include <filesystem>

namespace relayhud::artifacts {
namespace {

namespace fs = std::filesystem;

// Enough for any CI's report folder; a home directory given by mistake stops here.
constexpr std::size_t kMaxLocalFiles = 10'000;

// The URL's last path part: the name importReports goes by (.xml.gz, .tar.gz).
std::string fileNameOf(const std::string& url)
{
    const std::string path = displayUrl(url);
    const auto scheme = path.find("://");
    const auto slash = path.find_last_of('/');
    if (slash == std::string::npos || (scheme != std::string::npos && slash < scheme + 3)
        || slash + 1 == path.size())
        return "download";
    return path.substr(slash + 1);
}

std::string hostOf(const std::string& url)
{
    const auto scheme = url.find("://");
    const auto start = scheme == std::string::npos ? 0 : scheme + 3;
    return url.substr(start, url.find_first_of("/?#", start) - start);
}

FetchedFile localFile(const fs::path& path, std::uintmax_t size)
{
    FetchedFile file;
    file.name = path.filename().string();
    file.path = path.string();
    file.bytes = size;
    return file;
}

// The importable files under a folder, in name order; symlinks are not followed.
Result<std::vector<FetchedFile>> filesUnder(const fs::path& folder)
{
    std::vector<FetchedFile> files;
    std::error_code error;
    fs::recursive_directory_iterator it(folder, fs::directory_options::skip_permission_denied,
                                        error);
    for (; !error && it != fs::recursive_directory_iterator(); it.increment(error)) {
        const auto& entry = *it;
        std::error_code ignored;
        if (entry.is_symlink(ignored) || !entry.is_regular_file(ignored)
            || !isImportableName(entry.path().filename().string()))
            continue;
        if (files.size() == kMaxLocalFiles)
            return makeError("more than " + std::to_string(kMaxLocalFiles) + " reports under "
                             + folder.string() + "; choose a narrower folder");
        files.push_back(localFile(entry.path(), entry.file_size(ignored)));
    }
    if (error)
        return makeError("could not read the folder " + folder.string() + ": " + error.message());
    std::sort(files.begin(), files.end(),
              [](const FetchedFile& a, const FetchedFile& b) { return a.path < b.path; });
    return files;
}

} // namespace

ArtifactFetch fetchWithStatus(FetchStatus status, std::string message)
{
    ArtifactFetch fetch;
    fetch.status = status;
    fetch.message = std::move(message);
    return fetch;
}

Result<ArtifactFetch> fetchHttpsFile(FetcherContext& context, FetchCall& call,
                                     const ArtifactLocation& location)
{
    HttpRequest request;
    request.url = location.url;
    request.statusAsAnswer = true;
    request.totalTimeout = kDownloadTimeout;
    request.maxBodyBytes = kMaxDownloadBytes;
    auto blob =
        downloadToCache(context, call, location.url, request, true, fileNameOf(location.url));
    if (!blob)
        return blob.error();
    const long status = blob->response.status;
    if (blob->file) {
        ArtifactFetch fetch;
        fetch.files.push_back(std::move(*blob->file));
        return fetch;
    }
    const std::string shown = displayUrl(location.url);
    if (status == 404 || status == 410)
        return fetchWithStatus(FetchStatus::Expired,
                               shown + " is gone (HTTP " + std::to_string(status) + ")");
    if (status == 401 || status == 403)
        return fetchWithStatus(FetchStatus::Unauthorized,
                               hostOf(location.url) + " refused access (HTTP "
                                   + std::to_string(status)
                                   + "); RelayHUD sends no credentials to plain HTTPS stores: if "
                                     "it is an S3-compatible bucket, set its address as the S3 "
                                     "endpoint (Settings > Artifacts) and give an S3 key");
    return makeError("HTTP " + std::to_string(status) + " from " + shown);
}

Result<ArtifactFetch> fetchLocalPath(const ArtifactLocation& location)
{
    const fs::path path(location.path);
    std::error_code error;
    const auto status = fs::status(path, error);
    if (error || !fs::exists(status))
        return makeError("no such file or folder: " + location.path);
    ArtifactFetch fetch;
    if (fs::is_regular_file(status)) {
        fetch.files.push_back(localFile(path, fs::file_size(path, error)));
        return fetch;
    }
    if (!fs::is_directory(status))
        return makeError("not a file or folder: " + location.path);
    auto files = filesUnder(path);
    if (!files)
        return files.error();
    if (files->empty())
        return fetchWithStatus(FetchStatus::Empty,
                               "no reports (.xml, .xml.gz, .zip, .tar.gz) in " + location.path);
    fetch.files = std::move(*files);
    return fetch;
}

} // namespace relayhud::artifacts
