#pragma once
// In-memory archives of generated reports, byte-identical on every call (fixed
// mtimes, no gzip timestamp): a blob regenerated after eviction keeps its
// ETag, so a client's Range resume stays valid.
#include "relayhud/model/types.h"

#include <string>
#include <utility>
#include <vector>

namespace relayhud::sim {

using ArchiveEntries = std::vector<std::pair<std::string, std::string>>; // path, content

std::string writeZip(const ArchiveEntries& entries, EpochSeconds mtime);
std::string writeTarGz(const ArchiveEntries& entries, EpochSeconds mtime);

} // namespace relayhud::sim
