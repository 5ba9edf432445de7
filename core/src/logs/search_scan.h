#pragma once
// The search's inner loop: which lines of a stretch of the file match a
// compiled pattern. One BlockScanner per thread (it owns reusable buffers).
#include "logs/line_index.h"
#include "logs/search_pattern.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::logs {

class LogData;

// Where matches go: line numbers, and with keepText each line's text as it
// was matched (Display text without escapes; cut at textCap), for scanners
// that look at the lines they find.
struct ScanSink {
    std::vector<std::uint64_t> lines;
    bool keepText = false;
    std::size_t textCap = 4096;
    std::vector<std::string> texts;

    void add(std::uint64_t line, std::string_view content);
};

class BlockScanner {
public:
    // Stretches up to this size are read and scanned whole.
    static constexpr std::uint64_t kWindowBytes = 1 << 20;

    BlockScanner(const CompiledPattern& pattern, const LogData& data);
    ~BlockScanner();
    BlockScanner(BlockScanner&&) noexcept;

    // The lines in [from, to) (both line starts, as the index gives them)
    // that match. Stops early, without error, once `cancelled` is set.
    Result<void> scan(Checkpoint from, Checkpoint to, const std::atomic<bool>& cancelled,
                      ScanSink& sink);

private:
    void scanBuffer(char* data, std::size_t size, std::uint64_t firstLine, ScanSink& sink);
    void scanCandidates(const char* pos, const char* end, std::uint64_t line,
                        std::span<const LiteralFinder* const> finders, bool verify, ScanSink& sink);
    void scanRegex(const char* data, const char* end, std::uint64_t line, ScanSink& sink);
    std::uint64_t scanPlainRegion(const char* begin, const char* end, std::uint64_t line,
                                  ScanSink& sink);
    bool lineMatches(std::string_view content);
    Result<void> scanStreaming(Checkpoint from, Checkpoint to, const std::atomic<bool>& cancelled,
                               ScanSink& sink);
    Result<std::uint64_t> scanLongLine(std::uint64_t start, std::uint64_t limit, std::uint64_t line,
                                       ScanSink& sink);

    const CompiledPattern& m_pattern;
    CompiledPattern::RegexCopies m_regex; // this thread's own
    const LogData& m_data;
    std::string m_buffer;
};

} // namespace relayhud::logs
