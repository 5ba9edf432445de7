#include "artifacts/archive_source.h"

#include "relayhud/util/read_file.h"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>

namespace relayhud::artifacts {

namespace {

constexpr std::size_t kReadBlock = 64 * 1024;

bool startsWithGzipMagic(std::string_view head)
{
    // ID1, ID2 and CM = 8 (deflate), the only method gzip defines.
    return head.size() >= 3 && static_cast<unsigned char>(head[0]) == 0x1f
           && static_cast<unsigned char>(head[1]) == 0x8b && head[2] == 8;
}

// The first bytes decide whether the raw reader may be enabled: it accepts
// anything at all, so without this random bytes would "open" as one entry.
Result<bool> isGzip(const ArchiveSource& source, int fd)
{
    if (source.bytes)
        return startsWithGzipMagic(*source.bytes);
    char head[3] = {};
    const ssize_t got = ::pread(fd, head, sizeof head, 0);
    if (got < 0)
        return makeError("cannot read " + source.path + ": " + errnoText(errno));
    return startsWithGzipMagic(std::string_view(head, static_cast<std::size_t>(got)));
}

std::string withoutGzSuffix(const std::string& name)
{
    const auto slash = name.find_last_of('/');
    std::string base = slash == std::string::npos ? name : name.substr(slash + 1);
    std::string lower = base;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lower.size() > 3 && lower.ends_with(".gz"))
        base.resize(base.size() - 3);
    return base.empty() ? "data" : base;
}

// libarchive's own memory reader hands over the whole buffer as one block,
// and formats consume a block only when they ask for the next one, so the
// compressed bytes consumed (which the ratio limit divides by) would lag by
// up to the whole archive. Slices of kReadBlock bound that lag as a file does.
la_ssize_t readSlice(archive*, void* data, const void** block)
{
    auto* cursor = static_cast<MemoryCursor*>(data);
    const std::size_t n = std::min(kReadBlock, cursor->bytes->size() - cursor->position);
    *block = cursor->bytes->data() + cursor->position;
    cursor->position += n;
    return static_cast<la_ssize_t>(n);
}

la_int64_t skipBytes(archive*, void* data, la_int64_t request)
{
    auto* cursor = static_cast<MemoryCursor*>(data);
    const auto left = static_cast<la_int64_t>(cursor->bytes->size() - cursor->position);
    const la_int64_t n = std::clamp<la_int64_t>(request, 0, left);
    cursor->position += static_cast<std::size_t>(n);
    return n;
}

// Seeking lets the zip reader use the central directory, as it does for files.
la_int64_t seekTo(archive*, void* data, la_int64_t offset, int whence)
{
    auto* cursor = static_cast<MemoryCursor*>(data);
    const auto size = static_cast<la_int64_t>(cursor->bytes->size());
    la_int64_t base = 0;
    if (whence == SEEK_CUR)
        base = static_cast<la_int64_t>(cursor->position);
    else if (whence == SEEK_END)
        base = size;
    const la_int64_t target = base + offset;
    if (target < 0 || target > size)
        return ARCHIVE_FATAL;
    cursor->position = static_cast<std::size_t>(target);
    return target;
}

int openMemory(archive* a, MemoryCursor& cursor)
{
    archive_read_set_read_callback(a, readSlice);
    archive_read_set_skip_callback(a, skipBytes);
    archive_read_set_seek_callback(a, seekTo);
    archive_read_set_callback_data(a, &cursor);
    return archive_read_open1(a);
}

Result<void> check(archive* a, int rc, const std::string& name)
{
    if (rc == ARCHIVE_OK)
        return {};
    const char* why = archive_error_string(a);
    return makeError("cannot read " + name + ": " + (why ? why : "libarchive set-up failed"));
}

} // namespace

Result<OpenedArchive> openArchive(const ArchiveSource& source)
{
    OpenedArchive opened;
    if (!source.bytes) { // only a regular file: a FIFO would block the read for good
        auto file = openRegularFile(source.path, "a report or archive of reports");
        if (!file)
            return file.error();
        opened.file = std::move(file->fd);
    }
    auto gzip = isGzip(source, opened.file.get());
    if (!gzip)
        return gzip.error();
    opened.handle.reset(archive_read_new());
    opened.source = source;
    archive* a = opened.handle.get();
    if (!a)
        return makeError("cannot read " + source.name + ": out of memory");
    if (auto r = check(a, archive_read_support_filter_gzip(a), source.name); !r)
        return r.error();
    archive_read_support_format_zip(a);
    archive_read_support_format_tar(a);
    if (*gzip) {
        archive_read_support_format_raw(a);
        opened.singleGzipEntryName = withoutGzSuffix(source.name);
    }
    int rc = ARCHIVE_OK;
    if (source.bytes) {
        opened.cursor = std::make_unique<MemoryCursor>(MemoryCursor{source.bytes, 0});
        rc = openMemory(a, *opened.cursor);
    } else {
        rc = archive_read_open_fd(a, opened.file.get(), kReadBlock);
    }
    if (rc != ARCHIVE_OK) {
        const char* why = archive_error_string(a);
        return brokeOffError(source.name + " is not a readable zip, tar or gzip archive: "
                             + (why ? why : "unknown format"));
    }
    return opened;
}

} // namespace relayhud::artifacts
