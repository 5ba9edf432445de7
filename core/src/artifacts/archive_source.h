#pragma once
// Opens a libarchive read handle on a file or a memory buffer with only the
// formats RelayHUD needs (zip, tar, gzip; raw for a single .gz), so the
// decoders of a dozen other formats are never exposed to untrusted input.
#include "relayhud/util/file_ops.h"
#include "relayhud/util/result.h"

#include <archive.h>

#include <memory>
#include <string>

namespace relayhud::artifacts {

struct ArchiveFree {
    void operator()(archive* a) const { archive_read_free(a); }
};
using ArchiveHandle = std::unique_ptr<archive, ArchiveFree>;

struct ArchiveSource {
    std::string path;                   // a file, or empty
    const std::string* bytes = nullptr; // a memory buffer, or null
    std::string name;                   // for messages and the .gz entry name
};

// A memory buffer handed to libarchive in slices (see openArchive).
struct MemoryCursor {
    const std::string* bytes = nullptr;
    std::size_t position = 0;
};

struct OpenedArchive {
    std::unique_ptr<MemoryCursor> cursor; // declared first: outlives the handle
    UniqueFd file;                        // likewise, for a file
    ArchiveHandle handle;
    // Set when the input is gzip: if it turns out to hold no tar, its one
    // entry is the decompressed file and gets this name (report.xml.gz ->
    // report.xml), since libarchive's raw reader calls it "data".
    std::string singleGzipEntryName;
    ArchiveSource source; // what was opened, for the gzip integrity check
};

Result<OpenedArchive> openArchive(const ArchiveSource& source);

} // namespace relayhud::artifacts
