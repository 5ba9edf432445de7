#include "logs/gz_cache.h"

#include "relayhud/util/file_ops.h"
#include "relayhud/util/sha256.h"

#include <cerrno>
#include <filesystem>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace relayhud::logs {
namespace {

using namespace artifacts;

constexpr std::size_t kInBytes = 256 * 1024;
constexpr std::size_t kOutBytes = 1024 * 1024;

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

Result<std::string> decompressedCopy(const std::string& path, int fd, const std::string& cacheDir)
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
    if (::stat(target.c_str(), &cached) == 0 && S_ISREG(cached.st_mode))
        return target;
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
    return target;
}

} // namespace relayhud::logs
