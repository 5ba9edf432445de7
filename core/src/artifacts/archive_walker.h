#pragma once
// Walks an opened archive entry by entry and enforces ArchiveLimits while the
// data is decompressed: counts, paths, bytes produced, and the ratio of bytes
// produced to compressed bytes consumed. Sizes in headers are never trusted.
#include "artifacts/archive_source.h"
#include "relayhud/artifacts/archive_reader.h"

#include <cstdint>
#include <string>
#include <vector>

struct archive_entry;

namespace relayhud::artifacts {

class ArchiveWalker {
public:
    ArchiveWalker(OpenedArchive& opened, const ArchiveLimits& limits, std::string name);

    // Headers only: every entry passing the filter, with its kind.
    Result<std::vector<ArchiveEntryInfo>> list(const EntryFilter& filter);
    // Regular files passing the filter go to the sink; links and devices
    // become warnings.
    Result<ExtractReport> extract(EntrySink& sink, const EntryFilter& filter);

private:
    // The next entry: true with m_entry set, false at the end, or an Error.
    Result<bool> next();
    Result<ArchiveEntryInfo> describe();
    Result<void> handle(const ArchiveEntryInfo& info, EntrySink& sink, const EntryFilter& filter);
    Result<void> copyData(const ArchiveEntryInfo& info, EntrySink& sink);
    Result<void> checkProduced(const ArchiveEntryInfo& info, std::uint64_t entryOut,
                               std::uint64_t entryIn);
    std::uint64_t consumed() const;
    std::string where(const std::string& path) const;

    archive* m_archive;
    archive_entry* m_entry = nullptr;
    std::string m_singleGzipEntryName;
    ArchiveSource m_source;
    ArchiveLimits m_limits;
    std::string m_name;
    ExtractReport m_report;
};

} // namespace relayhud::artifacts
