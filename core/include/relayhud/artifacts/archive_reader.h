#pragma once
// Safe reading of downstream artifacts: .zip, .tar, .tar.gz/.tgz and single
// gzip files (report.xml.gz), from a file or a memory buffer, through
// libarchive. Listing, streaming, extraction into memory, or into a folder.
//
// Artifacts come from other people's CI, so every archive is treated as
// hostile:
// - An entry whose path would leave the extraction folder (`../x`, `/etc/x`,
//   `a/../../x`, `C:/x`, the same with backslashes) refuses the whole archive:
//   a CI artifact never needs one, so it is tampering or a broken packer, and
//   half an artifact would be worse than none. `..` is refused anywhere, even
//   where it would stay inside (`a/../b`). Backslashes count as separators.
// - Symlinks, hardlinks, devices, FIFOs and sockets are never created: they are
//   skipped with a warning in the report (artifacts made by `tar` of a results
//   folder may hold a harmless `latest` link; the reports beside it still count).
// - Limits (ArchiveLimits) on entry count, path length and depth, bytes per
//   entry, bytes in all, and compression ratio. Sizes are counted as bytes come
//   out of the decompressor, never taken from the archive's headers (a declared
//   size is only believed when it is already over a limit).
// - Anything libarchive cannot read (random bytes, a truncated zip) is an
//   Error naming the archive and the entry it broke in; never a crash.
#include "relayhud/util/result.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

struct ArchiveLimits {
    std::uint64_t maxTotalBytes = 2ull << 30; // all entries together, as extracted
    std::uint64_t maxEntryBytes = 1ull << 30; // one entry, as extracted
    std::uint64_t maxEntries = 100'000;       // headers read, skipped ones included
    // Extracted bytes per compressed byte consumed, for each entry and for the
    // archive so far. Deflate tops out near 1032:1 (a stream of zeros), so a
    // limit of 1000 would let a deflate bomb through; real JUnit XML and logs
    // compress 10-50:1. Checked only past ratioGraceBytes of output, so small
    // highly compressible files (empty reports, padding) never trip it.
    std::uint64_t maxRatio = 250;
    std::uint64_t ratioGraceBytes = 16ull << 20;
    std::size_t maxPathBytes = 1024; // of the cleaned relative path
    std::size_t maxPathDepth = 32;   // folders plus the file name
    // Archives inside archives, the outer one counted: a zip of .xml.gz
    // reports is 2. An importer opens none deeper (zips nested 5,000 deep in
    // .xml.gz entries once crashed it; 3,000 deep took 630 MB).
    std::size_t maxNesting = 3;
};

enum class EntryKind { File, Directory, Link, Special };

struct ArchiveEntryInfo {
    std::string path; // cleaned: relative, '/'-separated, no `.` or empty parts
    EntryKind kind = EntryKind::File;
    std::optional<std::uint64_t> declaredSize; // from the header; not trusted
};

struct ExtractedFile {
    std::string path;
    std::string bytes;
};

struct ExtractReport {
    std::vector<std::string> files;    // extracted regular files, in archive order
    std::vector<std::string> warnings; // entries skipped, and why
    std::uint64_t entries = 0;         // headers read
    std::uint64_t bytes = 0;           // extracted bytes
};

// Chooses entries by cleaned path. Empty: every entry.
using EntryFilter = std::function<bool(const std::string& path)>;

// Entries whose path ends with one of the suffixes, ignoring ASCII case
// (`suffixFilter({".xml", ".xml.gz"})`).
EntryFilter suffixFilter(std::vector<std::string> suffixes);

// Receives the regular files of an archive as they are decompressed, so a
// large report can be parsed without holding it whole. Calls come in order:
// beginFile, write (any number), endFile. A sink's Error stops the walk and is
// returned; after any Error no endFile follows.
class EntrySink {
public:
    virtual ~EntrySink() = default;
    virtual Result<void> beginFile(const ArchiveEntryInfo& entry) = 0;
    virtual Result<void> write(std::string_view chunk) = 0;
    virtual Result<void> endFile() = 0;
    // Directory entries, only when no filter is set. Default: ignored.
    virtual Result<void> directory(const ArchiveEntryInfo&) { return {}; }
};

class ArchiveReader {
public:
    // A file on disk; its name also names the entry of a single .gz file
    // (`report.xml.gz` holds `report.xml`).
    static ArchiveReader fromFile(std::string path, ArchiveLimits limits = {});
    // Bytes in memory; `name` plays the file name's part (messages, .gz entry).
    static ArchiveReader fromMemory(std::string bytes, std::string name = "archive",
                                    ArchiveLimits limits = {});

    const std::string& name() const { return m_name; }
    const ArchiveLimits& limits() const { return m_limits; }

    // Every entry passing the filter, links and devices included (with their
    // kind), without decompressing any data. Path and count limits apply.
    Result<std::vector<ArchiveEntryInfo>> list(const EntryFilter& filter = {}) const;

    // Streams the regular files passing the filter into the sink.
    Result<ExtractReport> stream(EntrySink& sink, const EntryFilter& filter = {}) const;

    // The regular files passing the filter, whole, in memory. Meant for small
    // files (JUnit reports); lower the limits for untrusted big archives.
    Result<std::vector<ExtractedFile>> extractToMemory(const EntryFilter& filter = {}) const;

    // Extracts into `destination`, which must not exist yet or be an empty
    // folder. All or nothing: the tree is built in a temporary sibling folder
    // and renamed into place only once every entry is written; on any Error
    // nothing is left behind. A path given twice keeps its last copy (tar's
    // rule for appended files).
    Result<ExtractReport> extractTo(const std::string& destination,
                                    const EntryFilter& filter = {}) const;

private:
    ArchiveReader(std::string path, std::shared_ptr<const std::string> bytes, std::string name,
                  ArchiveLimits limits);

    std::string m_path;                         // empty for a memory buffer
    std::shared_ptr<const std::string> m_bytes; // null for a file
    std::string m_name;
    ArchiveLimits m_limits;
};

} // namespace relayhud
