#include "logs/gz_cache.h"

#include "relayhud/util/file_ops.h"
#include "relayhud/util/sha256.h"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <tuple>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace relayhud::logs {
namespace {

using namespace artifacts;

constexpr std::size_t kInBytes = 256 * 1024;
constexpr std::size_t kOutBytes = 1024 * 1024;

// A .gz log inflates under the archives' limits (ArchiveLimits in
// artifacts/archive_reader.h): past 16 MiB of output, no more than 250 bytes
// per compressed byte (deflate tops out near 1032:1; real logs compress
// 10-50:1), and never more than kMaxLogBytes in all. The copies together stay
// under kLogCacheBytes: the least recently opened go first.
constexpr std::uint64_t kMaxRatio = 250;
constexpr std::uint64_t kRatioGraceBytes = 16ull << 20;
constexpr std::uint64_t kMaxLogBytes = 8ull << 30;

std::string cacheName(const std::string& path, const struct stat& info)
{
    Sha256 hasher;
    hasher.update(std::filesystem::absolute(path).string());
    hasher.update("\n" + std::to_string(info.st_size) + "\n" + std::to_string(info.st_mtim.tv_sec)
                  + "." + std::to_string(info.st_mtim.tv_nsec) + "\n"
                  + std::to_string(info.st_ino));
    return hasher.hexDigest() + ".log";
}

class Inflater {
public:
    Inflater() { m_ok = inflateInit2(&m_z, 15 + 16) == Z_OK; } // gzip wrapper only
    ~Inflater() { inflateEnd(&m_z); }
    Inflater(const Inflater&) = delete;
    Inflater& operator=(const Inflater&) = delete;

    // Decompresses `in` (a whole .gz file's bytes, read in pieces) into `out`.
    Result<void> run(int in, int out, const std::string& what);

private:
    Result<void> drain(int out, const std::string& what, bool& memberEnded);
    Result<void> checkLimits(const std::string& what) const;

    std::uint64_t m_read = 0;    // compressed bytes read
    std::uint64_t m_written = 0; // decompressed bytes written
    z_stream m_z{};
    bool m_ok = false;
    std::vector<unsigned char> m_out = std::vector<unsigned char>(kOutBytes);
};

Result<void> Inflater::drain(int out, const std::string& what, bool& memberEnded)
{
    do {
        m_z.next_out = m_out.data();
        m_z.avail_out = static_cast<uInt>(m_out.size());
        const int rc = inflate(&m_z, Z_NO_FLUSH);
        if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_MEM_ERROR || rc == Z_STREAM_ERROR)
            return makeError(what + " is not a valid gzip file (" + (m_z.msg ? m_z.msg : "corrupt")
                             + ")");
        const std::size_t produced = m_out.size() - m_z.avail_out;
        m_written += produced;
        if (auto r = checkLimits(what); !r)
            return r; // checked before the bytes are written
        const std::string_view bytes(reinterpret_cast<const char*>(m_out.data()), produced);
        if (auto r = writeAll(out, bytes, "the decompressed copy of " + what); !r)
            return r;
        if (rc == Z_STREAM_END) {
            memberEnded = true;
            return {};
        }
        if (rc == Z_BUF_ERROR)
            return {};
    } while (m_z.avail_out == 0 || m_z.avail_in > 0);
    return {};
}

Result<void> Inflater::checkLimits(const std::string& what) const
{
    if (m_written > kMaxLogBytes)
        return makeError(what + " inflates past " + std::to_string(kMaxLogBytes >> 30)
                         + " GiB; not decompressed");
    if (m_written > kRatioGraceBytes && m_written > kMaxRatio * std::max<std::uint64_t>(m_read, 1))
        return makeError(what + " inflates more than " + std::to_string(kMaxRatio)
                         + " times its size (a gzip bomb?); not decompressed");
    return {};
}

Result<void> Inflater::run(int in, int out, const std::string& what)
{
    if (!m_ok)
        return makeError("cannot start zlib to read " + what);
    std::vector<unsigned char> input(kInBytes);
    bool memberEnded = false;
    off_t offset = 0;
    for (;;) {
        const ssize_t n = ::pread(in, input.data(), input.size(), offset);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError("cannot read " + what + ": " + errnoText(errno));
        if (n == 0)
            break;
        offset += n;
        m_read += static_cast<std::uint64_t>(n);
        m_z.next_in = input.data();
        m_z.avail_in = static_cast<uInt>(n);
        while (m_z.avail_in > 0) {
            if (memberEnded) {
                // gzip allows members back to back; trailing zeros are padding.
                if (m_z.next_in[0] == 0) {
                    ++m_z.next_in;
                    --m_z.avail_in;
                    continue;
                }
                inflateReset(&m_z);
                memberEnded = false;
            }
            if (auto r = drain(out, what, memberEnded); !r)
                return r;
        }
    }
    if (!memberEnded)
        return makeError(what
                         + " is not a valid gzip file (it ends in the middle of the "
                           "compressed data: truncated?)");
    return {};
}

} // namespace

bool looksGzipped(int fd)
{
    unsigned char magic[2] = {0, 0};
    return ::pread(fd, magic, 2, 0) == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

// Removes the least recently opened copies until the folder is within
// capBytes; `keep` (the copy just opened) stays whatever its size. A copy a
// viewer has open stays readable until it closes it.
static void pruneCopies(const std::string& cacheDir, const std::string& keep,
                        std::uint64_t capBytes)
{
    struct Copy {
        std::string path;
        std::uint64_t size = 0;
        timespec used{};
    };
    std::vector<Copy> copies;
    std::uint64_t total = 0;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(cacheDir, ec)) {
        const std::string name = entry.path().filename().string();
        struct stat info {};
        if (!name.ends_with(".log") || ::lstat(entry.path().c_str(), &info) != 0
            || !S_ISREG(info.st_mode))
            continue;
        const auto size = static_cast<std::uint64_t>(info.st_size);
        total += size;
        if (name != keep)
            copies.push_back({entry.path().string(), size, info.st_atim});
    }
    std::sort(copies.begin(), copies.end(), [](const Copy& a, const Copy& b) {
        return std::tie(a.used.tv_sec, a.used.tv_nsec) < std::tie(b.used.tv_sec, b.used.tv_nsec);
    });
    for (const Copy& c : copies) {
        if (total <= capBytes)
            break;
        if (::unlink(c.path.c_str()) == 0 || errno == ENOENT)
            total -= c.size;
    }
}

Result<std::string> decompressedCopy(const std::string& path, int fd, const std::string& cacheDir,
                                     std::uint64_t capBytes)
{
    struct stat info {};
    if (::fstat(fd, &info) != 0)
        return makeError("cannot read " + path + ": " + errnoText(errno));
    std::error_code ec;
    std::filesystem::create_directories(cacheDir, ec);
    if (ec)
        return makeError("cannot create the log cache folder " + cacheDir + ": " + ec.message());
    const std::string name = cacheName(path, info);
    const std::string target = cacheDir + "/" + name;
    struct stat cached {};
    if (::stat(target.c_str(), &cached) == 0 && S_ISREG(cached.st_mode)) {
        // Opened now: the newest for pruneCopies (its access time; the
        // modification time stays the decompression's).
        const timespec times[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
        ::utimensat(AT_FDCWD, target.c_str(), times, 0);
        return target;
    }
    auto dir = openDirectory(cacheDir);
    if (!dir)
        return dir.error();
    auto temp = createTempAt(dir->get(), cacheDir);
    if (!temp)
        return temp.error();
    Inflater inflater;
    if (auto r = inflater.run(fd, temp->fd.get(), path); !r) {
        temp->fd.reset();
        ::unlinkat(dir->get(), temp->name.c_str(), 0);
        return r.error();
    }
    if (auto r = commitTempAt(dir->get(), *temp, name, target); !r)
        return r.error();
    pruneCopies(cacheDir, name, capBytes);
    return target;
}

} // namespace relayhud::logs
