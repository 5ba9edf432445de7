#include "relayhud/util/read_file.h"

#include "relayhud/util/file_ops.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <new>

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

Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes,
                                    std::string_view what)
{
    // Opened first, then checked: what is read is what was checked.
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
    const auto size = static_cast<std::uint64_t>(info.st_size);
    if (size > maxBytes)
        return makeError(path + " is " + byteSizeText(size) + "; " + std::string(what)
                         + " is at most " + byteSizeText(maxBytes));
    std::string bytes;
    try {
        bytes.resize(static_cast<std::size_t>(size));
    } catch (const std::bad_alloc&) {
        return makeError("not enough memory to read " + path + " (" + byteSizeText(size) + ")");
    }
    std::size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError("cannot read " + path + ": " + artifacts::errnoText(errno));
        if (n == 0)
            break; // it shrank meanwhile: what is there
        done += static_cast<std::size_t>(n);
    }
    bytes.resize(done);
    return bytes;
}

} // namespace relayhud
