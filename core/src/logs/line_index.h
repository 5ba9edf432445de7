#pragma once
// The line index: where lines start, at a fraction of a percent of the file.
//
// Instead of one entry per line (klogg's block offsets plus per-line deltas
// cost 1-2 bytes a line, which is 3% and more of a log of short lines), the
// index keeps a *checkpoint* per 4 KiB cell of the file: the first line start
// at or after the cell's first byte, with its line number. Equal checkpoints
// (a line longer than a cell) are stored once. That is at most 16 bytes per
// 4 KiB (0.4%), whatever the line lengths, and it is bounded on both sides:
// every line that starts between two checkpoints starts less than 4 KiB after
// the first of them (proof: such a line's own cell has that checkpoint as its
// first line start), so locating any line costs a binary search and a scan of
// at most 4 KiB, and a line longer than that is bounded by checkpoints.
//
// Because checkpoints sit on a fixed grid, chunks of the file can be indexed
// independently (in parallel) and published in order. Readers take a shared
// lock; the indexer appends under the exclusive lock once per chunk.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <shared_mutex>
#include <vector>

namespace relayhud::logs {

inline constexpr std::uint64_t kCellBytes = 4096;

struct Checkpoint {
    std::uint64_t line = 0;
    std::uint64_t offset = 0;
};

// What one chunk of the file contributes; lines are relative to the chunk.
struct ChunkIndex {
    std::uint64_t offset = 0; // a multiple of kCellBytes
    std::uint64_t size = 0;
    std::uint64_t terminators = 0;
    std::vector<Checkpoint> starts;             // line relative to the chunk
    std::optional<std::uint64_t> lastLineStart; // after the chunk's last terminator
    bool final = false;                         // the data ended inside or right after it
};

// Scans one chunk held in data[0, size) (plus data[size] when `after` is not
// kNoByte). startsLine: the chunk's first byte starts a line.
void indexChunk(const char* data, std::uint64_t offset, std::uint64_t size, bool startsLine,
                int after, ChunkIndex& out);

// The published extent of the index.
struct IndexExtent {
    std::uint64_t terminators = 0;  // lines known complete
    std::uint64_t coveredBytes = 0; // bytes [0, coveredBytes) scanned
    std::uint64_t tailStart = 0;    // start of the line after the last terminator
    bool atEnd = false;             // the scan reached the end of the data
    std::uint64_t lineCount() const
    {
        return terminators + (atEnd && coveredBytes > tailStart ? 1 : 0);
    }
};

// Where a line lies: [start, next) holds its content and terminator.
struct LineSpan {
    std::uint64_t start = 0;
    std::uint64_t next = 0;
    bool terminated = true;
};

// The lines that start between one checkpoint and the next: [firstLine,
// endLine) starting at `start`; the last of them ends (terminator included)
// at `end`, where the next block starts or the indexed data stops.
struct Block {
    std::uint64_t firstLine = 0;
    std::uint64_t endLine = 0;
    std::uint64_t start = 0;
    std::uint64_t end = 0;
    bool lastTerminated = true; // false: the last line is the file's unterminated tail
};

class LineIndex {
public:
    // Appends a chunk; chunks come in file order. A chunk that starts where
    // the previous one started replaces it (a refresh re-scans the last chunk,
    // whose end may have been provisional).
    void publish(const ChunkIndex& chunk);
    // Drops everything (the file was truncated or replaced).
    void clear();
    // Room for the checkpoints of a file of this size (one per cell at most),
    // so publishing never copies the table.
    void reserveFor(std::uint64_t fileBytes);

    IndexExtent extent() const;
    std::size_t memoryBytes() const;
    // Where the last published chunk starts: a refresh re-scans from there.
    std::uint64_t lastChunkOffset() const;

    // The block holding `line`, or nothing when the line is not indexed yet.
    std::optional<Block> block(std::uint64_t line) const;
    // `from` (a line start), then checkpoints after it about `stride` bytes
    // apart, then the indexed end: line-aligned cuts for splitting work. The
    // end is after the last complete line, or after the unterminated last
    // line once the scan has reached the end of the file.
    std::vector<Checkpoint> cutPoints(Checkpoint from, std::uint64_t stride) const;
    // The line that starts at or before `offset`, looking only at checkpoints
    // (the caller counts terminators from there).
    std::optional<Checkpoint> checkpointAtOrBefore(std::uint64_t offset) const;

private:
    struct Undo {
        std::uint64_t offset = 0;
        std::size_t checkpoints = 0;
        IndexExtent extent;
    };

    mutable std::shared_mutex m_mutex;
    std::vector<Checkpoint> m_checkpoints;
    IndexExtent m_extent;
    Undo m_beforeLastChunk; // the state a re-scan of the last chunk returns to
};

} // namespace relayhud::logs
