#include "artifacts/gzip_check.h"

#include "relayhud/util/file_ops.h"
#include "relayhud/util/read_file.h"

#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <vector>

namespace relayhud::artifacts {

namespace {

constexpr std::size_t kBlock = 64 * 1024;

std::uint32_t littleEndian32(const unsigned char* p)
{
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8
           | static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// Reads the source in blocks: `each` gets every block until it says stop.
template <class Each>
Result<void> readBlocks(const ArchiveSource& source, Each each)
{
    if (source.bytes) {
        for (std::size_t at = 0; at < source.bytes->size(); at += kBlock)
            if (auto r = each(std::string_view(*source.bytes).substr(at, kBlock)); !r)
                return r;
        return {};
    }
    auto file = openRegularFile(source.path, "a gzip report");
    if (!file)
        return file.error();
    std::vector<char> block(kBlock);
    for (;;) {
        const ssize_t n = ::read(file->fd.get(), block.data(), block.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError("cannot read " + source.path + ": " + errnoText(errno));
        if (n == 0)
            return {};
        if (auto r = each(std::string_view(block.data(), static_cast<std::size_t>(n))); !r)
            return r;
    }
}

Result<std::array<unsigned char, 8>> trailer(const ArchiveSource& source)
{
    std::array<unsigned char, 8> last{};
    if (source.bytes) {
        if (source.bytes->size() < last.size())
            return makeError("the gzip ends before its trailer");
        std::copy(source.bytes->end() - 8, source.bytes->end(), last.begin());
        return last;
    }
    auto file = openRegularFile(source.path, "a gzip report");
    if (!file)
        return file.error();
    if (file->size < last.size()
        || ::pread(file->fd.get(), last.data(), last.size(),
                   static_cast<off_t>(file->size - last.size()))
               != static_cast<ssize_t>(last.size()))
        return makeError("the gzip ends before its trailer");
    return last;
}

// Inflates every member with zlib, which checks each trailer; output dropped.
Result<void> inflateAllMembers(const ArchiveSource& source)
{
    z_stream z{};
    if (inflateInit2(&z, 15 + 16) != Z_OK)
        return makeError("cannot start zlib");
    std::vector<unsigned char> out(kBlock);
    bool ended = false;
    auto r = readBlocks(source, [&](std::string_view block) -> Result<void> {
        z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(block.data()));
        z.avail_in = static_cast<uInt>(block.size());
        while (z.avail_in > 0) {
            if (ended && *z.next_in == 0) { // padding after the last member
                ++z.next_in;
                --z.avail_in;
                continue;
            }
            if (ended)
                inflateReset(&z);
            z.next_out = out.data();
            z.avail_out = static_cast<uInt>(out.size());
            const int rc = inflate(&z, Z_NO_FLUSH);
            if (rc != Z_OK && rc != Z_STREAM_END && rc != Z_BUF_ERROR)
                return makeError(z.msg ? z.msg : "corrupt data");
            ended = rc == Z_STREAM_END;
        }
        return {};
    });
    inflateEnd(&z);
    return r;
}

} // namespace

Result<void> checkGzipIntegrity(const ArchiveSource& source, std::uint32_t crc, std::uint64_t size)
{
    auto last = trailer(source);
    if (!last)
        return last.error();
    if (littleEndian32(last->data()) == crc
        && littleEndian32(last->data() + 4) == static_cast<std::uint32_t>(size))
        return {};
    if (auto whole = inflateAllMembers(source); !whole)
        return makeError("fails gzip's integrity check (" + whole.message() + ")");
    return {};
}

} // namespace relayhud::artifacts
