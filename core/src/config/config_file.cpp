#include "relayhud/config/config_file.h"

#include "relayhud/config/outcome_config.h"
#include "relayhud/util/read_file.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace relayhud::config {
namespace {

// FNV-1a: a change detector, not a defence against an adversary.
std::uint64_t contentHash(std::string_view text)
{
    std::uint64_t hash = 14695981039346656037ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 1099511628211ULL;
    }
    return hash;
}

Result<std::string> readAll(const std::string& path)
{
    return readRegularFile(path, kMaxConfigFileBytes, "an outcome config");
}

Result<FileStamp> stampOf(const std::string& path, std::string_view text)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0)
        return makeError("cannot stat " + path + ": " + std::strerror(errno));
    FileStamp stamp;
    stamp.size = static_cast<std::uintmax_t>(info.st_size);
    stamp.mtimeNs =
        static_cast<std::int64_t>(info.st_mtim.tv_sec) * 1000000000LL + info.st_mtim.tv_nsec;
    stamp.hash = contentHash(text);
    return stamp;
}

Result<void> writeFully(int fd, std::string_view text, const std::string& path)
{
    std::size_t done = 0;
    while (done < text.size()) {
        const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError("cannot write " + path + ": " + std::strerror(errno));
        done += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0)
        return makeError("cannot sync " + path + ": " + std::strerror(errno));
    return {};
}

Result<void> checkUnchanged(const LoadedConfig& loaded)
{
    Result<std::string> now = readAll(loaded.path);
    if (!now)
        return now.error();
    Result<FileStamp> stamp = stampOf(loaded.path, *now);
    if (!stamp)
        return stamp.error();
    if (!(*stamp == loaded.stamp))
        return makeError(loaded.path
                         + " changed on disk since it was loaded; reload it and "
                           "redo the edit");
    return {};
}

} // namespace

Result<LoadedConfig> loadConfigFile(const std::string& path)
{
    Result<std::string> text = readAll(path);
    if (!text)
        return text.error();
    Result<FileStamp> stamp = stampOf(path, *text);
    if (!stamp)
        return stamp.error();
    return LoadedConfig{path, std::move(*text), *stamp};
}

Result<void> saveConfigFile(const LoadedConfig& loaded, std::string_view text)
{
    if (Result<ParsedConfig> parsed = parseOutcomeConfig(text); !parsed)
        return makeError("not written: the new text does not parse (" + parsed.message() + ")");
    struct stat info {};
    if (::stat(loaded.path.c_str(), &info) != 0)
        return makeError("cannot stat " + loaded.path + ": " + std::strerror(errno));
    // rename() would replace a read-only file as long as its folder is
    // writable (and root passes access() regardless); the permission bits
    // are what the user set, so honour them.
    if ((info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0
        || ::access(loaded.path.c_str(), W_OK) != 0)
        return makeError(loaded.path + " is read-only; not written");
    if (Result<void> same = checkUnchanged(loaded); !same)
        return same;
    // A config reached through a symlink (a checkout's config linked into
    // place) is written where it lives: renaming over the link would detach
    // it from the file everyone else reads.
    char* resolved = ::realpath(loaded.path.c_str(), nullptr);
    if (!resolved)
        return makeError("cannot resolve " + loaded.path + ": " + std::strerror(errno));
    const std::string target(resolved);
    std::free(resolved);
    std::string temp = target + ".relayhud-XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0)
        return makeError("cannot create a temporary file beside " + target + ": "
                         + std::strerror(errno));
    Result<void> written = writeFully(fd, text, temp);
    if (written && ::fchmod(fd, info.st_mode & 07777) != 0)
        written = makeError("cannot set permissions on " + temp + ": " + std::strerror(errno));
    // The owner and group stay (a shared config's group keeps its rights).
    if (written && (info.st_uid != ::geteuid() || info.st_gid != ::getegid())
        && ::fchown(fd, info.st_uid, info.st_gid) != 0)
        written = makeError("cannot keep the owner and group of " + target + " ("
                            + std::strerror(errno) + "); not written");
    ::close(fd);
    if (written && ::rename(temp.c_str(), target.c_str()) != 0)
        written = makeError("cannot replace " + target + ": " + std::strerror(errno));
    if (!written)
        ::unlink(temp.c_str());
    return written;
}

} // namespace relayhud::config
