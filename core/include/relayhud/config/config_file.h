#pragma once
// Reading a config from disk and writing an edited one back: atomically
// (a temporary file in the same folder, then rename), never over a file that
// changed since it was read, never a text that does not parse.
#include "relayhud/util/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace relayhud::config {

// What "unchanged since loaded" compares: size, mtime and a content hash
// (mtime alone misses a same-second rewrite; the hash alone needs a read).
struct FileStamp {
    std::uintmax_t size = 0;
    std::int64_t mtimeNs = 0;
    std::uint64_t hash = 0;

    bool operator==(const FileStamp&) const = default;
};

struct LoadedConfig {
    std::string path;
    std::string text;
    FileStamp stamp;
};

Result<LoadedConfig> loadConfigFile(const std::string& path);

// Refuses (and writes nothing) when the file is read-only, changed on disk
// since `loaded` was read, or `text` does not parse as a config.
Result<void> saveConfigFile(const LoadedConfig& loaded, std::string_view text);

} // namespace relayhud::config
