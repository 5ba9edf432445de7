#include "relayhud/util/read_file.h"

#include "relayhud/util/file_ops.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <mutex>
#include <new>
#include <utility>

namespace relayhud {

std::string byteSizeText(std::uint64_t bytes)
{
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    double value = static_cast<double>(bytes);
    std::size_t unit = 0;
    while (value >= 1024 && unit + 1 < std::size(units)) {
        value /= 1024;
        ++unit;
    }
    if (unit == 0)
        return std::to_string(bytes) + " bytes";
    const auto tenths = static_cast<std::uint64_t>(value * 10 + 0.5);
    return std::to_string(tenths / 10) + (tenths % 10 ? "." + std::to_string(tenths % 10) : "")
           + " " + units[unit];
}

namespace {

// What a file that is not a regular one is, for its refusal.
std::string fileKindText(mode_t mode)
{
    if (S_ISFIFO(mode))
        return "a FIFO";
    if (S_ISDIR(mode))
        return "a folder";
    if (S_ISCHR(mode))
        return "a character device";
    if (S_ISBLK(mode))
        return "a block device";
    if (S_ISSOCK(mode))
        return "a socket";
    return "of another kind";
}

// Opened first, then checked: what is read is what was checked.
Result<artifacts::UniqueFd> openChecked(const std::string& path, std::uint64_t maxBytes,
                                        std::string_view what, std::uint64_t& size)
{
    auto opened = openRegularFile(path, what);
    if (!opened)
        return opened.error();
    size = opened->size;
    if (size > maxBytes)
        return makeError(path + " is " + byteSizeText(size) + "; " + std::string(what)
                         + " is at most " + byteSizeText(maxBytes));
    return std::move(opened->fd);
}

// Reads up to `capacity` bytes into `into`; the count read (a file that
// shrank meanwhile gives what is there).
Result<std::size_t> readInto(int fd, const std::string& path, char* into, std::size_t capacity)
{
    std::size_t done = 0;
    while (done < capacity) {
        const ssize_t n = ::read(fd, into + done, capacity - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError("cannot read " + path + ": " + artifacts::errnoText(errno));
        if (n == 0)
            break;
        done += static_cast<std::size_t>(n);
    }
    return done;
}

// The buffer of the last large file read, once its FileBytes is gone: an
// artifact pass reads reports back to back, and the kernel zeroing a fresh
// 40 MB buffer cost a tenth of parsing it. One is kept, of at most 64 MiB
// (pugixml's chunks keep as much, junit/pugi_pages.cpp); a smaller file
// reuses it too, a larger one maps its own and may be kept instead.
constexpr std::size_t kKeptMin = std::size_t{2} << 20; // below this, no fault cost worth it
constexpr std::size_t kKeptMax = std::size_t{64} << 20;

std::mutex g_keptMutex;
HugePages g_kept; // guarded by g_keptMutex

HugePages pagesFor(std::size_t size)
{
    if (size >= kKeptMin) {
        const std::lock_guard lock(g_keptMutex);
        if (g_kept.size() >= size)
            return std::move(g_kept);
    }
    return HugePages(size);
}

void keepPages(HugePages pages)
{
    if (pages.size() < kKeptMin || pages.size() > kKeptMax)
        return;
    const std::lock_guard lock(g_keptMutex);
    if (pages.size() > g_kept.size())
        std::swap(pages, g_kept); // the smaller of the two is unmapped here
}

} // namespace

Result<OpenedFile> openRegularFile(const std::string& path, std::string_view what)
{
    artifacts::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY));
    if (!fd.valid())
        return makeError("cannot open " + path + ": " + artifacts::errnoText(errno));
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return makeError("cannot read " + path + ": " + artifacts::errnoText(errno));
    if (!S_ISREG(info.st_mode))
        return makeError(path + " is " + fileKindText(info.st_mode) + ", not a regular file; "
                         + std::string(what) + " must be one");
    const int flags = ::fcntl(fd.get(), F_GETFL);
    if (flags < 0 || ::fcntl(fd.get(), F_SETFL, flags & ~O_NONBLOCK) != 0)
        return makeError("cannot read " + path + ": " + artifacts::errnoText(errno));
    return OpenedFile{std::move(fd), static_cast<std::uint64_t>(info.st_size)};
}

FileBytes::~FileBytes() { keepPages(std::move(m_pages)); }

Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes,
                                    std::string_view what)
{
    std::uint64_t size = 0;
    auto fd = openChecked(path, maxBytes, what, size);
    if (!fd)
        return fd.error();
    std::string bytes;
    try {
        bytes.resize(static_cast<std::size_t>(size));
    } catch (const std::bad_alloc&) {
        return makeError("not enough memory to read " + path + " (" + byteSizeText(size) + ")");
    }
    auto done = readInto(fd->get(), path, bytes.data(), bytes.size());
    if (!done)
        return done.error();
    bytes.resize(*done);
    return bytes;
}

Result<FileBytes> readRegularFileBytes(const std::string& path, std::uint64_t maxBytes,
                                       std::string_view what)
{
    std::uint64_t size = 0;
    auto fd = openChecked(path, maxBytes, what, size);
    if (!fd)
        return fd.error();
    FileBytes out;
    if (size == 0)
        return out;
    out.m_pages = pagesFor(static_cast<std::size_t>(size));
    if (!out.m_pages)
        return makeError("not enough memory to read " + path + " (" + byteSizeText(size) + ")");
    auto done = readInto(fd->get(), path, out.m_pages.data(), static_cast<std::size_t>(size));
    if (!done)
        return done.error();
    out.m_size = *done;
    return out;
}

} // namespace relayhud
