#include "artifacts/archive_walker.h"

#include "artifacts/entry_path.h"
#include "artifacts/gzip_check.h"

#include <archive_entry.h>
#include <zlib.h>

#include <algorithm>
#include <array>

namespace relayhud::artifacts {

namespace {

constexpr std::size_t kChunk = 64 * 1024;

std::string libarchiveSays(archive* a)
{
    const char* why = archive_error_string(a);
    return why ? why : "unknown error";
}

EntryKind kindOf(archive_entry* entry)
{
    // A tar hardlink is typed as a regular file; only this field tells.
    if (archive_entry_hardlink(entry))
        return EntryKind::Link;
    switch (archive_entry_filetype(entry)) {
    case AE_IFREG: return EntryKind::File;
    case AE_IFDIR: return EntryKind::Directory;
    case AE_IFLNK: return EntryKind::Link;
    default: return EntryKind::Special;
    }
}

std::string skipReason(archive_entry* entry)
{
    if (const char* target = archive_entry_hardlink(entry))
        return "a hardlink to '" + std::string(target) + "'";
    if (const char* target = archive_entry_symlink(entry))
        return "a symlink to '" + std::string(target) + "'";
    switch (archive_entry_filetype(entry)) {
    case AE_IFCHR:
    case AE_IFBLK: return "a device";
    case AE_IFIFO: return "a FIFO";
    case AE_IFSOCK: return "a socket";
    default: return "not a regular file";
    }
}

std::string sizeText(std::uint64_t bytes)
{
    if (bytes >= (1u << 20) && bytes % (1u << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

} // namespace

ArchiveWalker::ArchiveWalker(OpenedArchive& opened, const ArchiveLimits& limits, std::string name)
    : m_archive(opened.handle.get()), m_singleGzipEntryName(opened.singleGzipEntryName),
      m_source(opened.source), m_limits(limits), m_name(std::move(name))
{
}

Result<std::vector<ArchiveEntryInfo>> ArchiveWalker::list(const EntryFilter& filter)
{
    std::vector<ArchiveEntryInfo> entries;
    for (;;) {
        auto more = next();
        if (!more)
            return more.error();
        if (!*more)
            return entries;
        auto info = describe();
        if (!info)
            return info.error();
        // The next header skips this entry's data without handing it to us.
        if (!filter || filter(info->path))
            entries.push_back(std::move(*info));
    }
}

Result<ExtractReport> ArchiveWalker::extract(EntrySink& sink, const EntryFilter& filter)
{
    for (;;) {
        auto more = next();
        if (!more)
            return more.error();
        if (!*more)
            return m_report;
        auto info = describe();
        if (!info)
            return info.error();
        if (auto r = handle(*info, sink, filter); !r)
            return r.error();
    }
}

Result<bool> ArchiveWalker::next()
{
    const int rc = archive_read_next_header(m_archive, &m_entry);
    if (rc == ARCHIVE_EOF)
        return false;
    if (rc != ARCHIVE_OK && rc != ARCHIVE_WARN) {
        if (m_report.entries == 0)
            return brokeOffError(m_name + " is not a readable zip, tar or gzip archive: "
                                 + libarchiveSays(m_archive));
        return brokeOffError(m_name + " is broken after entry " + std::to_string(m_report.entries)
                             + ": " + libarchiveSays(m_archive));
    }
    // The raw reader takes any bytes; it is meant only for a real gzip stream.
    if (archive_format(m_archive) == ARCHIVE_FORMAT_RAW
        && archive_filter_code(m_archive, 0) != ARCHIVE_FILTER_GZIP)
        return makeError(m_name + " is not a readable zip, tar or gzip archive");
    if (++m_report.entries > m_limits.maxEntries)
        return makeError(m_name + " has more than " + std::to_string(m_limits.maxEntries)
                         + " entries; refused");
    return true;
}

Result<ArchiveEntryInfo> ArchiveWalker::describe()
{
    const char* raw = archive_entry_pathname_utf8(m_entry);
    if (!raw)
        raw = archive_entry_pathname(m_entry);
    if (!raw)
        return makeError(m_name + ": entry " + std::to_string(m_report.entries)
                         + " has no readable name");
    const bool single =
        !m_singleGzipEntryName.empty() && archive_format(m_archive) == ARCHIVE_FORMAT_RAW;
    auto cleaned = cleanEntryPath(single ? m_singleGzipEntryName : std::string(raw), m_limits);
    if (!cleaned)
        return makeError(m_name + ": " + cleaned.message() + "; refused");
    ArchiveEntryInfo info{std::move(*cleaned), kindOf(m_entry), std::nullopt};
    if (archive_entry_size_is_set(m_entry) && archive_entry_size(m_entry) >= 0)
        info.declaredSize = static_cast<std::uint64_t>(archive_entry_size(m_entry));
    return info;
}

Result<void> ArchiveWalker::handle(const ArchiveEntryInfo& info, EntrySink& sink,
                                   const EntryFilter& filter)
{
    if (info.kind == EntryKind::Directory)
        return filter ? Result<void>{} : sink.directory(info);
    if (info.kind != EntryKind::File) {
        m_report.warnings.push_back(where(info.path) + " skipped: " + skipReason(m_entry)
                                    + " is never extracted");
        return {};
    }
    if (filter && !filter(info.path))
        return {};
    // A declared size is believed only when it already says "too big".
    if (info.declaredSize && *info.declaredSize > m_limits.maxEntryBytes)
        return makeError(where(info.path) + " declares " + sizeText(*info.declaredSize)
                         + "; the limit per entry is " + sizeText(m_limits.maxEntryBytes));
    if (auto r = sink.beginFile(info); !r)
        return r;
    if (auto r = copyData(info, sink); !r)
        return r;
    if (auto r = sink.endFile(); !r)
        return r;
    m_report.files.push_back(info.path);
    return {};
}

Result<void> ArchiveWalker::copyData(const ArchiveEntryInfo& info, EntrySink& sink)
{
    std::array<char, kChunk> buffer;
    const std::uint64_t inAtStart = consumed();
    std::uint64_t out = 0;
    const bool singleGzip =
        !m_singleGzipEntryName.empty() && archive_format(m_archive) == ARCHIVE_FORMAT_RAW;
    uLong crc = crc32(0L, Z_NULL, 0);
    for (;;) {
        const la_ssize_t n = archive_read_data(m_archive, buffer.data(), buffer.size());
        if (n == 0) {
            if (singleGzip)
                if (auto whole = checkGzipIntegrity(m_source, static_cast<std::uint32_t>(crc), out);
                    !whole)
                    m_report.warnings.push_back(where(info.path) + " " + whole.message()
                                                + "; its data was read but may be corrupt");
            return {};
        }
        if (n < 0)
            return brokeOffError(where(info.path)
                                 + " cannot be decompressed: " + libarchiveSays(m_archive));
        const auto produced = static_cast<std::uint64_t>(n);
        if (singleGzip)
            crc = crc32(crc, reinterpret_cast<const Bytef*>(buffer.data()), static_cast<uInt>(n));
        out += produced;
        m_report.bytes += produced;
        // Checked before the sink sees the bytes, so nothing past a limit is written.
        if (auto r = checkProduced(info, out, consumed() - inAtStart); !r)
            return r;
        if (auto r = sink.write(std::string_view(buffer.data(), static_cast<std::size_t>(n))); !r)
            return r;
    }
}

Result<void> ArchiveWalker::checkProduced(const ArchiveEntryInfo& info, std::uint64_t entryOut,
                                          std::uint64_t entryIn)
{
    if (entryOut > m_limits.maxEntryBytes)
        return makeError(where(info.path) + " extracts to more than "
                         + sizeText(m_limits.maxEntryBytes) + ", the limit per entry; refused");
    if (m_report.bytes > m_limits.maxTotalBytes)
        return makeError(m_name + " extracts to more than " + sizeText(m_limits.maxTotalBytes)
                         + " in all (at entry '" + info.path + "'); refused");
    const auto overRatio = [this](std::uint64_t out, std::uint64_t in) {
        return out > m_limits.ratioGraceBytes
               && out / std::max<std::uint64_t>(in, 1) > m_limits.maxRatio;
    };
    if (overRatio(entryOut, entryIn) || overRatio(m_report.bytes, consumed()))
        return makeError(where(info.path) + " expands more than "
                         + std::to_string(m_limits.maxRatio) + ":1 (" + std::to_string(entryOut)
                         + " bytes from " + std::to_string(entryIn)
                         + " compressed); refused as a likely zip bomb");
    return {};
}

std::uint64_t ArchiveWalker::consumed() const
{
    // -1: the last filter, i.e. the raw bytes read from the file or buffer.
    const la_int64_t n = archive_filter_bytes(m_archive, -1);
    return n > 0 ? static_cast<std::uint64_t>(n) : 0;
}

std::string ArchiveWalker::where(const std::string& path) const
{
    return m_name + ": entry '" + path + "'";
}

} // namespace relayhud::artifacts
