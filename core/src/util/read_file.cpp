#include "relayhud/util/read_file.h"

#include "relayhud/util/file_ops.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
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

// Opened first, then checked: what is read is what was checked.
Result<artifacts::UniqueFd> openChecked(const std::string& path, std::uint64_t maxBytes,
                                        std::string_view what, std::uint64_t& size)
{
    artifacts::UniqueFd fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
    if (!fd.valid())
        return makeError("cannot open " + path + ": " + artifacts::errnoText(errno));
    struct stat info {};
    if (::fstat(fd.get(), &info) != 0)
        return makeError("cannot read " + path + ": " + artifacts::errnoText(errno));
    if (!S_ISREG(info.st_mode))
        return makeError(path + " is not a regular file ("
                         + (S_ISDIR(info.st_mode) ? "a folder" : "a device, pipe or socket") + "); "
                         + std::string(what) + " must be one");
    size = static_cast<std::uint64_t>(info.st_size);
    if (size > maxBytes)
        return makeError(path + " is " + byteSizeText(size) + "; " + std::string(what)
                         + " is at most " + byteSizeText(maxBytes));
    return fd;
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

} // namespace

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

FileBytes::FileBytes(FileBytes&& other) noexcept
    : m_mapping(std::exchange(other.m_mapping, nullptr)),
      m_mapped(std::exchange(other.m_mapped, 0)), m_data(std::exchange(other.m_data, nullptr)),
      m_size(std::exchange(other.m_size, 0)), m_capacity(std::exchange(other.m_capacity, 0))
{
}

FileBytes& FileBytes::operator=(FileBytes&& other) noexcept
{
    if (this != &other) {
        FileBytes old(std::move(*this));
        m_mapping = std::exchange(other.m_mapping, nullptr);
        m_mapped = std::exchange(other.m_mapped, 0);
        m_data = std::exchange(other.m_data, nullptr);
        m_size = std::exchange(other.m_size, 0);
        m_capacity = std::exchange(other.m_capacity, 0);
    }
    return *this;
}

FileBytes::~FileBytes()
{
    if (m_mapping != nullptr)
        ::munmap(m_mapping, m_mapped);
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
    // Transparent huge pages where the file fills one (2 MiB): the kernel
    // then maps 2 MiB per fault instead of 4 KiB, 500x fewer faults.
    constexpr std::size_t kHugePage = std::size_t{2} << 20;
    const auto bytes = static_cast<std::size_t>(size);
    const bool huge = bytes >= kHugePage;
    const std::size_t mapped = huge ? (bytes + kHugePage - 1) / kHugePage * kHugePage + kHugePage
                                    : bytes; // room to align to a huge page
    void* map = ::mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED)
        return makeError("not enough memory to read " + path + " (" + byteSizeText(size) + ")");
    out.m_mapping = static_cast<char*>(map);
    out.m_mapped = mapped;
    out.m_data = out.m_mapping;
    if (huge) {
        const auto address = reinterpret_cast<std::uintptr_t>(map);
        out.m_data += (kHugePage - address % kHugePage) % kHugePage;
        (void)::madvise(out.m_data, mapped - kHugePage, MADV_HUGEPAGE); // advice: may be ignored
    }
    out.m_capacity = bytes;
    auto done = readInto(fd->get(), path, out.m_data, out.m_capacity);
    if (!done)
        return done.error();
    out.m_size = *done;
    return out;
}

} // namespace relayhud
