#pragma once
// A .gz log is decompressed once into a cache folder and read from there: the
// viewer needs random access, which a gzip stream does not give.
#include "relayhud/util/result.h"

#include <cstdint>
#include <string>

namespace relayhud::logs {

// Whether the open file starts with the gzip magic (1f 8b).
bool looksGzipped(int fd);

// The path of the decompressed copy of `path` in `cacheDir`, made now when
// missing. The copy is named by a hash of the source's path, size, mtime and
// inode, so an edited source gets a new copy; it appears atomically (temp
// file, fsync, rename), so a crash or a corrupt stream never leaves a
// half-written copy that a later open would trust. The inflation is bounded
// as an archive's is (ratio, total: a gzip bomb is an error), and the copies
// in cacheDir together stay under capBytes, least recently opened first out.
Result<std::string> decompressedCopy(const std::string& path, int fd, const std::string& cacheDir,
                                     std::uint64_t capBytes);

} // namespace relayhud::logs
