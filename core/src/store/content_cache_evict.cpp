// ContentCache's accounting: a scan of the blob folders is the only size
// index, so no counter can drift when several processes share the cache.
#include "relayhud/store/content_cache.h"

#include "relayhud/util/file_ops.h"
#include "relayhud/util/sha256.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <tuple>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

namespace relayhud {

namespace fs = std::filesystem;

namespace {

// A temp file untouched this long belongs to a crashed or killed writer.
constexpr time_t kStaleTempSeconds = 3600;
// An import's staging folder (tempDir()/import-XXXXXX, sync/run_store.cpp)
// untouched this long was left by a killed import: no import runs a day.
constexpr time_t kStaleStagingSeconds = 24 * 3600;

struct BlobFile {
    std::string path;
    std::uint64_t size = 0;
    timespec lastUse{};
};

bool isFanOutName(const std::string& name)
{
    return name.size() == 2 && artifacts::isHexHash(name + std::string(62, '0'));
}

void removeIfStale(const std::string& path, const struct stat& info, time_t now)
{
    if (S_ISREG(info.st_mode) && now - info.st_mtim.tv_sec > kStaleTempSeconds)
        ::unlink(path.c_str());
}

// The blobs in one fan-out folder; stale temp files are removed on the way
// when `sweep` is set.
void scanFolder(const fs::path& dir, bool sweep, time_t now, std::vector<BlobFile>& blobs)
{
    std::error_code ec;
    const std::string prefix = dir.filename().string();
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        const std::string name = entry.path().filename().string();
        const std::string path = entry.path().string();
        struct stat info {};
        if (::lstat(path.c_str(), &info) != 0)
            continue; // removed meanwhile by another process
        if (artifacts::isTempName(name) && sweep)
            removeIfStale(path, info, now);
        else if (S_ISREG(info.st_mode) && artifacts::isHexHash(name) && name.starts_with(prefix))
            blobs.push_back({path, static_cast<std::uint64_t>(info.st_size), info.st_mtim});
    }
}

Result<std::vector<BlobFile>> scanBlobs(const std::string& root, bool sweep)
{
    std::error_code ec;
    fs::directory_iterator it(root, ec);
    if (ec)
        return makeError("cannot read the cache folder " + root + ": " + ec.message());
    const time_t now = artifacts::preciseNow().tv_sec;
    std::vector<BlobFile> blobs;
    for (const auto& entry : it)
        if (isFanOutName(entry.path().filename().string()) && entry.is_directory(ec))
            scanFolder(entry.path(), sweep, now, blobs);
    return blobs;
}

// Stale temp files in `dir`; with `anyName`, every stale file (the download
// folder holds files named by whatever downloader wrote them).
void sweepFolder(const std::string& dir, bool anyName)
{
    std::error_code ec;
    const time_t now = artifacts::preciseNow().tv_sec;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
        struct stat info {};
        const std::string path = entry.path().string();
        const std::string name = entry.path().filename().string();
        const bool candidate = anyName || artifacts::isTempName(name);
        if (!candidate || ::lstat(path.c_str(), &info) != 0)
            continue;
        if (anyName && S_ISDIR(info.st_mode) && name.starts_with("import-")
            && now - info.st_mtim.tv_sec > kStaleStagingSeconds) {
            std::error_code removeError;
            fs::remove_all(path, removeError); // links to blobs: the blobs stay
            continue;
        }
        removeIfStale(path, info, now);
    }
}

bool usedBefore(const BlobFile& a, const BlobFile& b)
{
    return std::tie(a.lastUse.tv_sec, a.lastUse.tv_nsec, a.path)
           < std::tie(b.lastUse.tv_sec, b.lastUse.tv_nsec, b.path);
}

std::uint64_t sumSizes(const std::vector<BlobFile>& blobs)
{
    std::uint64_t total = 0;
    for (const auto& blob : blobs)
        total += blob.size;
    return total;
}

} // namespace

Result<std::uint64_t> ContentCache::totalBytes() const
{
    auto blobs = scanBlobs(m_root, false);
    if (!blobs)
        return blobs.error();
    return sumSizes(*blobs);
}

Result<EvictionReport> ContentCache::evictToFit() const
{
    auto blobs = scanBlobs(m_root, true);
    if (!blobs)
        return blobs.error();
    std::sort(blobs->begin(), blobs->end(), usedBefore);
    EvictionReport report;
    report.remainingBytes = sumSizes(*blobs);
    for (const auto& blob : *blobs) {
        if (report.remainingBytes <= m_capBytes)
            break;
        // ENOENT: another process evicted it first; it is gone either way.
        if (::unlink(blob.path.c_str()) != 0 && errno != ENOENT)
            return makeError("cannot evict " + blob.path + ": " + artifacts::errnoText(errno));
        report.remainingBytes -= blob.size;
        report.removedBytes += blob.size;
        ++report.removedBlobs;
    }
    pruneUrlRecords();
    sweepFolder(m_root + "/urls", false);
    sweepFolder(tempDir(), true);
    return report;
}

} // namespace relayhud
