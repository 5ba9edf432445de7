#pragma once
// Reading a whole file that a user or CI named, without trusting it: only a
// regular file (not /dev/zero, a FIFO or a folder), and only up to a size
// fixed per kind, checked before a byte is read. A file over the limit is a
// one-line error that says both sizes, never an allocation that aborts.
#include "relayhud/util/file_ops.h"
#include "relayhud/util/huge_pages.h"
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

// A file a user or CI named, open for reading, and its size: the one way
// logs, reports and the files of a local folder are opened. A FIFO with no
// writer would block open() for good (two such log links froze the window),
// so it opens with O_NONBLOCK, checks what it opened with fstat, refuses all
// but a regular file in one line ("PATH is a FIFO, not a regular file; a job
// log must be one"), then clears O_NONBLOCK for ordinary reads.
struct OpenedFile {
    artifacts::UniqueFd fd;
    std::uint64_t size = 0;
};
Result<OpenedFile> openRegularFile(const std::string& path, std::string_view what);

// `what` names the kind in messages: "an outcome config", "a rule file".
Result<std::string> readRegularFile(const std::string& path, std::uint64_t maxBytes,
                                    std::string_view what);

// A large file's bytes in huge pages (util/huge_pages.h): a std::string of
// 40 MB is zeroed one 4 KiB page at a time first (reading a 37 MB JUnit
// report that way took 210 ms, in huge pages 9). Writable, for parsers that
// work in place; not terminated.
class FileBytes {
public:
    FileBytes() = default;
    FileBytes(FileBytes&&) noexcept = default;
    FileBytes& operator=(FileBytes&&) noexcept = default;
    FileBytes(const FileBytes&) = delete;
    FileBytes& operator=(const FileBytes&) = delete;
    // A large buffer is kept for the next read (see read_file.cpp).
    ~FileBytes();

    char* data() { return m_pages.data(); }
    const char* data() const { return m_pages.data(); }
    std::size_t size() const { return m_size; }
    bool empty() const { return m_size == 0; }
    std::string_view view() const { return {m_pages.data(), m_size}; }

private:
    friend Result<FileBytes> readRegularFileBytes(const std::string&, std::uint64_t,
                                                  std::string_view);
    HugePages m_pages;
    std::size_t m_size = 0; // bytes read
};

// readRegularFile into FileBytes: the same checks and messages.
Result<FileBytes> readRegularFileBytes(const std::string& path, std::uint64_t maxBytes,
                                       std::string_view what);

// "1.5 GiB", "16 MiB", "512 bytes": for such messages.
std::string byteSizeText(std::uint64_t bytes);

} // namespace relayhud
