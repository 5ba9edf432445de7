#include "relayhud/util/file_ops.h"

#include <atomic>
#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace relayhud::artifacts {

UniqueFd& UniqueFd::operator=(UniqueFd&& other) noexcept
{
    if (this != &other)
        reset(std::exchange(other.m_fd, -1));
    return *this;
}

void UniqueFd::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

std::string errnoText(int err) { return std::strerror(err); }

bool isTempName(std::string_view name) { return name.substr(0, kTempPrefix.size()) == kTempPrefix; }

Result<UniqueFd> openDirectory(const std::string& path)
{
    UniqueFd fd(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid())
        return makeError("cannot open the folder " + path + ": " + errnoText(errno));
    return fd;
}

namespace {

// Unique across threads and processes: pid, a per-process counter and the
// clock. O_EXCL still guards against the impossible collision.
std::string nextTempName()
{
    static std::atomic<unsigned long long> counter{0};
    const timespec now = preciseNow();
    return std::string(kTempPrefix) + std::to_string(::getpid()) + "-"
           + std::to_string(counter.fetch_add(1)) + "-" + std::to_string(now.tv_nsec);
}

} // namespace

Result<TempFile> createTempAt(int dirFd, const std::string& dirForMessages)
{
    for (int attempt = 0; attempt < 8; ++attempt) {
        TempFile temp{UniqueFd(), nextTempName()};
        temp.fd.reset(::openat(dirFd, temp.name.c_str(),
                               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644));
        if (temp.fd.valid())
            return temp;
        if (errno != EEXIST)
            return makeError("cannot create a file in " + dirForMessages + ": " + errnoText(errno));
    }
    return makeError("cannot create a file in " + dirForMessages + ": temp names in use");
}

Result<void> writeAll(int fd, std::string_view bytes, const std::string& what)
{
    while (!bytes.empty()) {
        const ssize_t n = ::write(fd, bytes.data(), bytes.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return makeError("cannot write " + what + ": " + errnoText(n < 0 ? errno : EIO));
        bytes.remove_prefix(static_cast<std::size_t>(n));
    }
    return {};
}

Result<void> commitTempAt(int dirFd, TempFile& temp, const std::string& name,
                          const std::string& what)
{
    std::string failure;
    if (::fsync(temp.fd.get()) != 0)
        failure = "cannot flush " + what + ": " + errnoText(errno);
    temp.fd.reset();
    if (failure.empty() && ::renameat(dirFd, temp.name.c_str(), dirFd, name.c_str()) != 0)
        failure = "cannot move " + what + " into place: " + errnoText(errno);
    if (failure.empty())
        return {};
    ::unlinkat(dirFd, temp.name.c_str(), 0);
    return makeError(failure);
}

Result<void> writeFileAtomic(const std::string& dir, const std::string& name,
                             std::string_view bytes)
{
    auto dirFd = openDirectory(dir);
    if (!dirFd)
        return dirFd.error();
    auto temp = createTempAt(dirFd->get(), dir);
    if (!temp)
        return temp.error();
    const std::string what = dir + "/" + name;
    if (auto r = writeAll(temp->fd.get(), bytes, what); !r) {
        temp->fd.reset();
        ::unlinkat(dirFd->get(), temp->name.c_str(), 0);
        return r;
    }
    if (auto r = commitTempAt(dirFd->get(), *temp, name, what); !r)
        return r;
    // The rename itself is durable only once the folder is flushed.
    ::fsync(dirFd->get());
    return {};
}

timespec preciseNow()
{
    timespec now{};
    ::clock_gettime(CLOCK_REALTIME, &now);
    return now;
}

bool setFileTime(const std::string& path, timespec when)
{
    const timespec times[2] = {when, when};
    return ::utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW) == 0;
}

} // namespace relayhud::artifacts
