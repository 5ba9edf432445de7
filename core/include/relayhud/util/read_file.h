#pragma once
// Reading a whole file that a user or CI named, without trusting it: only a
// regular file (not /dev/zero, a FIFO or a folder), and only up to a size
// fixed per kind, checked before a byte is read. A file over the limit is a
// one-line error that says both sizes, never an allocation that aborts.
#include "relayhud/util/result.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace relayhud {

// Per kind of input. Each is far above what real files need.
inline constexpr std::uint64_t kMaxConfigFileBytes = 16ull << 20;  // largest real config ~1.5 MB
inline constexpr std::uint64_t kMaxRuleFileBytes = 4ull << 20;     // pytorch's ruleset.toml ~30 KB
inline constexpr std::uint64_t kMaxReportFileBytes = 1ull << 30;   // a JUnit report
inline constexpr std::uint64_t kMaxWorkflowFileBytes = 4ull << 20; // a GitHub workflow ~50 KB

// `what` names the kind in messages: "an outcome config", "a rule file".
Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes,
                                    std::string_view what);

// "1.5 GiB", "16 MiB", "512 bytes": for such messages.
std::string byteSizeText(std::uint64_t bytes);

} // namespace relayhud
