#pragma once
// libarchive (3.6) reads a gzip stream without checking its CRC-32 or its
// length, so a corrupt .xml.gz imports without a word. The walker sums the
// CRC of what a single gzip inflates to and asks here whether it matches.
#include "artifacts/archive_source.h"

#include <cstdint>

namespace relayhud::artifacts {

// Whether `source` (a gzip file or buffer) inflated to `size` bytes whose
// CRC-32 is `crc` matches its trailer. A mismatch is checked again member by
// member with zlib (gzip allows members back to back, each with its own
// trailer); the Error says what failed.
Result<void> checkGzipIntegrity(const ArchiveSource& source, std::uint32_t crc, std::uint64_t size);

} // namespace relayhud::artifacts
