#include "logs/search_scan.h"

#include "logs/escape_scan.h"
#include "logs/line_scan.h"
#include "logs/log_data.h"

#include <algorithm>
#include <array>
#include <cstring>

#include <re2/re2.h>

namespace relayhud::logs {
namespace {

// Regex matches inside a long line are looked for in windows overlapping by this.
constexpr std::size_t kOverlapBytes = 64 * 1024;

// Past the terminator that starts at brk (a '\n', or a '\r' perhaps followed
// by '\n'), or end when the line has none.
const char* pastTerminator(const char* brk, const char* end)
{
    if (brk >= end)
        return end;
    if (*brk == '\r' && brk + 1 < end && brk[1] == '\n')
        return brk + 2;
    return brk + 1;
}

// After the last terminator in [begin, end) that can be told without the byte
// after end, or nullptr.
const char* lastLineEnd(const char* begin, const char* end)
{
    const auto size = static_cast<std::size_t>(end - begin);
    const auto* nl = static_cast<const char*>(::memrchr(begin, '\n', size));
    const char* from = nl ? nl + 1 : begin;
    // A '\r' in the last byte may be the first half of "\r\n": not decidable.
    for (const char* p = end - 1; p-- > from;)
        if (*p == '\r' && p[1] != '\n')
            return p + 1;
    return nl ? nl + 1 : nullptr;
}

} // namespace

void ScanSink::add(std::uint64_t line, std::string_view content)
{
    lines.push_back(line);
    if (keepText)
        texts.emplace_back(content.substr(0, textCap));
}

BlockScanner::BlockScanner(const CompiledPattern& pattern, const LogData& data)
    : m_pattern(pattern), m_regex(pattern.copyRegexes()), m_data(data)
{
}

BlockScanner::~BlockScanner() = default;
BlockScanner::BlockScanner(BlockScanner&&) noexcept = default;

bool BlockScanner::lineMatches(std::string_view content)
{
    return m_pattern.contains(content, m_regex.line.get());
}

Result<void> BlockScanner::scan(Checkpoint from, Checkpoint to, const std::atomic<bool>& cancelled,
                                ScanSink& sink)
{
    if (m_pattern.matchesNothing() || to.offset <= from.offset)
        return {};
    if (m_pattern.matchesEverything() && !sink.keepText) {
        for (std::uint64_t l = from.line; l < to.line; ++l)
            sink.lines.push_back(l);
        return {};
    }
    if (to.offset - from.offset > 2 * kWindowBytes)
        return scanStreaming(from, to, cancelled, sink);
    m_buffer.resize(static_cast<std::size_t>(to.offset - from.offset));
    if (auto r = m_data.readExactly(from.offset, m_buffer.data(), m_buffer.size()); !r)
        return r;
    scanBuffer(m_buffer.data(), m_buffer.size(), from.line, sink);
    return {};
}

// Display text is the raw text without escape sequences; none spans a line
// break, so stripping the whole block first keeps every line where it was
// and the rest of the search is the same for both kinds of text.
void BlockScanner::scanBuffer(char* data, std::size_t size, std::uint64_t firstLine, ScanSink& sink)
{
    if (m_pattern.display())
        size = stripEscapesInPlace(data, size);
    const char* end = data + size;
    if (m_pattern.matchesEverything()) {
        for (const char* p = data; p < end; ++firstLine) {
            const char* brk = findLineBreak(p, end);
            sink.add(firstLine, std::string_view(p, static_cast<std::size_t>(brk - p)));
            p = pastTerminator(brk, end);
        }
    } else if (m_pattern.isLiteral()) {
        const LiteralFinder* literal = m_pattern.literal();
        scanCandidates(data, end, firstLine, std::span(&literal, 1), false, sink);
    } else if (!m_pattern.prefilter().empty()) {
        scanCandidates(data, end, firstLine, m_pattern.prefilter(), true, sink);
    } else {
        scanRegex(data, end, firstLine, sink);
    }
}

// Lines that hold one of the finders' needles are candidates; with `verify`
// each is then matched whole (a regex behind its required literals).
// Line numbers are counted only up to the lines that match.
void BlockScanner::scanCandidates(const char* pos, const char* end, std::uint64_t line,
                                  std::span<const LiteralFinder* const> finders, bool verify,
                                  ScanSink& sink)
{
    std::array<const char*, kMaxFinders> hits{};
    const char* counted = pos;
    while (pos < end) {
        const char* hit = end;
        for (std::size_t f = 0; f < finders.size(); ++f) {
            if (!hits[f] || hits[f] < pos)
                hits[f] = finders[f]->find(pos, end);
            hit = std::min(hit, hits[f]);
        }
        if (hit >= end)
            return;
        const char* start = lineStartBefore(pos, hit);
        const char* brk = findLineBreak(hit, end);
        const std::string_view content(start, static_cast<std::size_t>(brk - start));
        if (!verify || lineMatches(content)) {
            line += countTerminators(counted, start, static_cast<unsigned char>(*start));
            counted = start;
            sink.add(line, content);
        }
        pos = pastTerminator(brk, end);
    }
}

// Regex without a required literal: RE2 runs over stretches of lines that
// end in '\n'; a line ending in '\r' ("\r\n" or a lone '\r', where '$' and
// '.' would see the '\r') is matched alone on its content.
void BlockScanner::scanRegex(const char* pos, const char* end, std::uint64_t line, ScanSink& sink)
{
    const char* next = nullptr;
    while (pos < end) {
        if (!next || next < pos) {
            const void* cr = std::memchr(pos, '\r', static_cast<std::size_t>(end - pos));
            next = cr ? static_cast<const char*>(cr) : end;
        }
        const char* regionEnd = next < end ? lineStartBefore(pos, next) : end;
        if (regionEnd > pos)
            line = scanPlainRegion(pos, regionEnd, line, sink);
        if (next >= end)
            return;
        const std::string_view content(regionEnd, static_cast<std::size_t>(next - regionEnd));
        if (lineMatches(content))
            sink.add(line, content);
        pos = pastTerminator(next, end);
        ++line;
    }
}

// Lines in [begin, end) end with '\n' (the last may end the data instead).
// RE2 finds the next match in the whole stretch; after a match the lines
// that follow are tried one by one (a DFA pass each, no match position
// needed) until kDenseMisses in a row fail, so a pattern that matches most
// lines does not pay for a located match per line. Returns the line number
// at end.
std::uint64_t BlockScanner::scanPlainRegion(const char* begin, const char* end, std::uint64_t line,
                                            ScanSink& sink)
{
    constexpr int kDenseMisses = 8;
    const std::string_view region(begin, static_cast<std::size_t>(end - begin));
    const bool endsWithNewline = end[-1] == '\n';
    const char* cur = begin; // a line start; `line` is its number
    TextRange found;
    while (cur < end
           && m_pattern.find(region, static_cast<std::size_t>(cur - begin), found,
                             std::string_view::npos, m_regex.block.get())) {
        // An empty match after the final '\n' belongs to the next line.
        if (found.start == region.size() && endsWithNewline)
            break;
        const char* start = lineStartBefore(cur, begin + found.start);
        line += countTerminators(cur, start, '\n');
        cur = start;
        for (int misses = 0; cur < end && misses < kDenseMisses; ++line) {
            const char* brk = findLineBreak(cur, end);
            const std::string_view content(cur, static_cast<std::size_t>(brk - cur));
            if (cur == start || lineMatches(content)) {
                sink.add(line, content);
                misses = 0;
            } else {
                ++misses;
            }
            cur = pastTerminator(brk, end);
        }
    }
    return line + countTerminators(cur, end, kNoByte);
}

Result<void> BlockScanner::scanStreaming(Checkpoint from, Checkpoint to,
                                         const std::atomic<bool>& cancelled, ScanSink& sink)
{
    std::uint64_t pos = from.offset;
    std::uint64_t line = from.line;
    while (pos < to.offset && !cancelled) {
        std::size_t n = static_cast<std::size_t>(std::min(kWindowBytes, to.offset - pos));
        m_buffer.resize(n);
        if (auto r = m_data.readExactly(pos, m_buffer.data(), n); !r)
            return r;
        const char* b = m_buffer.data();
        if (pos + n < to.offset) {
            const char* cut = lastLineEnd(b, b + n);
            if (!cut) {
                auto next = scanLongLine(pos, to.offset, line, sink);
                if (!next)
                    return next.error();
                pos = *next;
                ++line;
                continue;
            }
            n = static_cast<std::size_t>(cut - b);
        }
        const std::uint64_t lines = countTerminators(b, b + n, kNoByte);
        scanBuffer(m_buffer.data(), n, line, sink);
        line += lines;
        pos += n;
    }
    return {};
}

// A line with no terminator in its first window: matched window by window
// (raw bytes), then followed to its end. Returns where the next line starts.
Result<std::uint64_t> BlockScanner::scanLongLine(std::uint64_t start, std::uint64_t limit,
                                                 std::uint64_t line, ScanSink& sink)
{
    bool matched = false;
    std::string head;
    for (std::uint64_t fresh = start;;) {
        const std::uint64_t windowStart = fresh == start ? start : fresh - kOverlapBytes;
        const std::uint64_t windowEnd = std::min(fresh + kWindowBytes, limit);
        m_buffer.resize(static_cast<std::size_t>(windowEnd - windowStart) + 1);
        auto got = m_data.readAt(windowStart, m_buffer.data(), m_buffer.size());
        if (!got)
            return got.error();
        const char* b = m_buffer.data();
        const char* freshBegin = b + (fresh - windowStart);
        const char* windowLimit = b + (windowEnd - windowStart);
        const char* brk = findLineBreak(freshBegin, windowLimit);
        if (head.empty())
            head.assign(b, std::min<std::size_t>(sink.textCap, static_cast<std::size_t>(brk - b)));
        if (!matched) {
            // One byte of context on each side keeps ^, $ and \b honest at the cuts.
            const std::size_t from = fresh == start ? 0 : 1;
            const std::string_view text(b, static_cast<std::size_t>(brk - b));
            const bool last = brk < windowLimit || windowEnd >= limit;
            TextRange found;
            matched = m_pattern.find(text, from, found, last ? text.size() : text.size() - 1,
                                     m_regex.block.get());
        }
        if (brk < windowLimit || windowEnd >= limit) {
            if (matched)
                sink.add(line, head);
            if (brk >= windowLimit)
                return windowEnd;
            const char* past = pastTerminator(brk, b + *got);
            return windowStart + static_cast<std::uint64_t>(past - b);
        }
        fresh = windowEnd;
    }
}

} // namespace relayhud::logs
