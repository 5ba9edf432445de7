#include "logs/line_index.h"

#include "logs/line_scan.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace relayhud::logs {
namespace {

// Appends (line, offset) unless it repeats the last start (a line longer than
// a cell is the first line start of several cells).
void addStart(std::vector<Checkpoint>& starts, std::uint64_t line, std::uint64_t offset)
{
    if (starts.empty() || starts.back().offset != offset)
        starts.push_back({line, offset});
}

// The start of the line after the chunk's last terminator, relative to the
// chunk, if a terminator ends inside it (the '\n' of a "\r\n" that straddles
// the end does not). memrchr keeps a chunk inside one long line cheap.
std::optional<std::uint64_t> lastLineStart(const char* data, std::uint64_t size, int after)
{
    const char* end = data + size;
    const auto* nl = static_cast<const char*>(::memrchr(data, '\n', size));
    const char* crFrom = nl ? nl + 1 : data;
    const char* crEnd = end;
    while (crEnd > crFrom) {
        const auto* cr = static_cast<const char*>(
            ::memrchr(crFrom, '\r', static_cast<std::size_t>(crEnd - crFrom)));
        if (!cr)
            break;
        if (isTerminatorAt(cr, end, after))
            return static_cast<std::uint64_t>(cr - data) + 1;
        crEnd = cr;
    }
    if (nl)
        return static_cast<std::uint64_t>(nl - data) + 1;
    return std::nullopt;
}

} // namespace

void indexChunk(const char* data, std::uint64_t offset, std::uint64_t size, bool startsLine,
                int after, ChunkIndex& out)
{
    out.offset = offset;
    out.size = size;
    out.terminators = 0;
    out.starts.clear();
    const char* end = data + size;
    std::uint64_t lines = 0;
    for (std::uint64_t cell = 0; cell < size; cell += kCellBytes) {
        const char* cellBegin = data + cell;
        const char* cellEnd = data + std::min(size, cell + kCellBytes);
        const bool atStart = cell == 0 ? startsLine : isTerminatorAt(cellBegin - 1, end, after);
        if (atStart) {
            addStart(out.starts, lines, offset + cell);
        } else {
            const char* t = terminatorFrom(cellBegin, cellEnd, cellEnd < end ? *cellEnd : after);
            // A start at the chunk's end belongs to the next chunk.
            if (t < cellEnd && t + 1 < end)
                addStart(out.starts, lines + 1, offset + static_cast<std::uint64_t>(t + 1 - data));
        }
        const int next = cellEnd < end ? static_cast<unsigned char>(*cellEnd) : after;
        lines += countTerminators(cellBegin, cellEnd, next);
    }
    out.terminators = lines;
    out.lastLineStart = lastLineStart(data, size, after);
    if (out.lastLineStart)
        *out.lastLineStart += offset;
}

void LineIndex::publish(const ChunkIndex& chunk)
{
    std::unique_lock lock(m_mutex);
    if (chunk.offset != m_extent.coveredBytes && chunk.offset == m_beforeLastChunk.offset) {
        m_checkpoints.resize(m_beforeLastChunk.checkpoints);
        m_extent = m_beforeLastChunk.extent;
    }
    m_beforeLastChunk = {chunk.offset, m_checkpoints.size(), m_extent};
    const std::uint64_t base = m_extent.terminators;
    for (const auto& s : chunk.starts)
        if (m_checkpoints.empty() || m_checkpoints.back().offset != s.offset)
            m_checkpoints.push_back({base + s.line, s.offset});
    m_extent.terminators += chunk.terminators;
    m_extent.coveredBytes = chunk.offset + chunk.size;
    if (chunk.lastLineStart)
        m_extent.tailStart = *chunk.lastLineStart;
    m_extent.atEnd = chunk.final;
}

void LineIndex::clear()
{
    std::unique_lock lock(m_mutex);
    m_checkpoints.clear();
    m_checkpoints.shrink_to_fit();
    m_extent = {};
    m_beforeLastChunk = {};
}

void LineIndex::reserveFor(std::uint64_t fileBytes)
{
    std::unique_lock lock(m_mutex);
    m_checkpoints.reserve(static_cast<std::size_t>(fileBytes / kCellBytes + 1));
}

IndexExtent LineIndex::extent() const
{
    std::shared_lock lock(m_mutex);
    return m_extent;
}

std::size_t LineIndex::memoryBytes() const
{
    std::shared_lock lock(m_mutex);
    return m_checkpoints.capacity() * sizeof(Checkpoint) + sizeof(*this);
}

std::uint64_t LineIndex::lastChunkOffset() const
{
    std::shared_lock lock(m_mutex);
    return m_beforeLastChunk.offset;
}

std::optional<Block> LineIndex::block(std::uint64_t line) const
{
    std::shared_lock lock(m_mutex);
    if (line >= m_extent.lineCount() || m_checkpoints.empty())
        return std::nullopt;
    auto it = std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), line,
                               [](std::uint64_t l, const Checkpoint& c) { return l < c.line; });
    const Checkpoint& cp = *(it - 1);
    Block b{cp.line, 0, cp.offset, 0, true};
    if (it != m_checkpoints.end()) {
        b.endLine = it->line;
        b.end = it->offset;
        return b;
    }
    b.endLine = m_extent.lineCount();
    const bool partial = b.endLine > m_extent.terminators;
    b.end = partial ? m_extent.coveredBytes : m_extent.tailStart;
    b.lastTerminated = !partial;
    return b;
}

std::vector<Checkpoint> LineIndex::cutPoints(Checkpoint from, std::uint64_t stride) const
{
    std::shared_lock lock(m_mutex);
    std::vector<Checkpoint> cuts{from};
    auto it = std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), from.offset,
                               [](std::uint64_t o, const Checkpoint& c) { return o < c.offset; });
    const bool partial = m_extent.lineCount() > m_extent.terminators;
    const Checkpoint end{m_extent.lineCount(),
                         partial ? m_extent.coveredBytes : m_extent.tailStart};
    for (; it != m_checkpoints.end() && it->offset < end.offset; ++it)
        if (it->offset >= cuts.back().offset + stride)
            cuts.push_back(*it);
    if (end.offset > cuts.back().offset)
        cuts.push_back(end);
    return cuts;
}

std::optional<Checkpoint> LineIndex::checkpointAtOrBefore(std::uint64_t offset) const
{
    std::shared_lock lock(m_mutex);
    auto it = std::upper_bound(m_checkpoints.begin(), m_checkpoints.end(), offset,
                               [](std::uint64_t o, const Checkpoint& c) { return o < c.offset; });
    if (it == m_checkpoints.begin())
        return std::nullopt;
    return *(it - 1);
}

} // namespace relayhud::logs
