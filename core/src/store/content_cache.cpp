#include "relayhud/store/content_cache.h"

#include "relayhud/util/file_ops.h"
#include "relayhud/util/paths.h"
#include "relayhud/util/sha256.h"

#include <cerrno>
#include <filesystem>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace relayhud {

namespace fs = std::filesystem;
using namespace artifacts;

namespace {

Result<void> makeFolder(const std::string& path)
{
    std::error_code ec;
    fs::create_directories(path, ec);
    if (ec)
        return makeError("cannot create the cache folder " + path + ": " + ec.message());
    return {};
}

Result<UniqueFd> openForReading(const std::string& path)
{
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid())
        return makeError("cannot open " + path + ": " + errnoText(errno));
    return fd;
}

// Used when the file to adopt lives on another file system than the cache.
Result<void> copyInto(const std::string& source, const std::string& dir, const std::string& name)
{
    auto in = openForReading(source);
    if (!in)
        return in.error();
    auto dirFd = openDirectory(dir);
    if (!dirFd)
        return dirFd.error();
    auto temp = createTempAt(dirFd->get(), dir);
    if (!temp)
        return temp.error();
    std::vector<char> buffer(256 * 1024);
    for (;;) {
        const ssize_t n = ::read(in->get(), buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR)
            continue;
        Result<void> r =
            n < 0 ? makeError("cannot read " + source + ": " + errnoText(errno))
                  : writeAll(temp->fd.get(), {buffer.data(), static_cast<std::size_t>(n)}, dir);
        if (!r) {
            temp->fd.reset();
            ::unlinkat(dirFd->get(), temp->name.c_str(), 0);
            return r;
        }
        if (n == 0)
            return commitTempAt(dirFd->get(), *temp, name, dir + "/" + name);
    }
}

void syncFolder(const std::string& dir)
{
    if (auto fd = openDirectory(dir))
        ::fsync(fd->get());
}

} // namespace

std::string contentHash(std::string_view bytes)
{
    Sha256 hasher;
    hasher.update(bytes);
    return hasher.hexDigest();
}

ContentCache::ContentCache(std::string root, std::uint64_t capBytes)
    : m_root(std::move(root)), m_capBytes(capBytes)
{
}

std::string ContentCache::defaultRoot() { return defaultCacheDir() + "/blobs"; }

Result<ContentCache> ContentCache::open(std::string root, std::uint64_t capBytes)
{
    while (root.size() > 1 && root.back() == '/')
        root.pop_back();
    ContentCache cache(std::move(root), capBytes);
    for (const auto& dir : {cache.m_root, cache.m_root + "/urls", cache.tempDir()})
        if (auto r = makeFolder(dir); !r)
            return r.error();
    return cache;
}

std::string ContentCache::blobDir(const std::string& hash) const
{
    return m_root + "/" + hash.substr(0, 2);
}

std::string ContentCache::blobPath(const std::string& hash) const
{
    return blobDir(hash) + "/" + hash;
}

Result<std::string> ContentCache::put(std::string_view bytes)
{
    const std::string hash = contentHash(bytes);
    if (path(hash))
        return hash;
    if (auto r = makeFolder(blobDir(hash)); !r)
        return r.error();
    if (auto r = writeFileAtomic(blobDir(hash), hash, bytes); !r)
        return r.error();
    setFileTime(blobPath(hash), preciseNow());
    return hash;
}

Result<std::string> ContentCache::putFile(const std::string& file)
{
    auto fd = openForReading(file);
    if (!fd)
        return fd.error();
    struct stat info {};
    if (::fstat(fd->get(), &info) != 0 || !S_ISREG(info.st_mode))
        return makeError("cannot cache " + file + ": not a regular file");
    auto hash = hashFileDescriptor(fd->get(), file);
    if (!hash)
        return hash.error();
    // Its bytes must be on disk before a rename publishes them as a blob.
    if (::fsync(fd->get()) != 0)
        return makeError("cannot flush " + file + ": " + errnoText(errno));
    fd->reset();
    if (path(*hash)) {
        ::unlink(file.c_str());
        return hash;
    }
    return adopt(file, *hash);
}

Result<std::string> ContentCache::adopt(const std::string& file, const std::string& hash) const
{
    if (auto r = makeFolder(blobDir(hash)); !r)
        return r.error();
    if (::rename(file.c_str(), blobPath(hash).c_str()) != 0) {
        if (errno != EXDEV)
            return makeError("cannot move " + file + " into the cache: " + errnoText(errno));
        if (auto r = copyInto(file, blobDir(hash), hash); !r)
            return r.error();
        ::unlink(file.c_str());
    }
    syncFolder(blobDir(hash));
    setFileTime(blobPath(hash), preciseNow());
    return hash;
}

bool ContentCache::has(const std::string& hash) const
{
    struct stat info {};
    return isHexHash(hash) && ::lstat(blobPath(hash).c_str(), &info) == 0 && S_ISREG(info.st_mode);
}

std::optional<std::string> ContentCache::path(const std::string& hash) const
{
    if (!has(hash))
        return std::nullopt;
    std::string p = blobPath(hash);
    // Fails only when an eviction took the blob since has(): a miss.
    if (!setFileTime(p, preciseNow()))
        return std::nullopt;
    return p;
}

void ContentCache::remove(const std::string& hash) const
{
    if (isHexHash(hash))
        ::unlink(blobPath(hash).c_str()); // gone already: removed either way
}

Result<void> ContentCache::verify(const std::string& hash) const
{
    if (!has(hash))
        return makeError("blob " + hash + " is not in the cache " + m_root);
    auto fd = openForReading(blobPath(hash));
    if (!fd)
        return fd.error();
    auto actual = hashFileDescriptor(fd->get(), blobPath(hash));
    if (!actual)
        return actual.error();
    if (*actual == hash)
        return {};
    ::unlink(blobPath(hash).c_str());
    return makeError("cached blob " + hash + " was damaged (its content now hashes to " + *actual
                     + "); removed it, so it will be downloaded again");
}

} // namespace relayhud
