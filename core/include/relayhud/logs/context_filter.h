#pragma once
// "Filter to matching lines" with grep's context: the matching lines plus up
// to `before` lines before and `after` lines after each (-B, -A; -C sets
// both), merged where they overlap or touch. Ranges that do not touch are
// separate groups; grep prints "--" between them, a view a separator row.
// Built incrementally, so a view can follow a search as its matches stream.
#include "relayhud/logs/line_number.h"

#include <cstdint>
#include <span>
#include <vector>

namespace relayhud {

class ContextFilter {
public:
    struct Range {
        LineNumber first;
        LineNumber last; // inclusive
        bool operator==(const Range&) const = default;
    };

    // lineCount bounds the context after the last lines.
    ContextFilter(std::uint64_t before, std::uint64_t after, std::uint64_t lineCount);

    // Matches in increasing order, after every match added so far.
    void append(std::span<const LineNumber> matches);
    // The log grew (tail mode): context after the last match may grow too.
    void setLineCount(std::uint64_t lineCount);

    const std::vector<Range>& ranges() const { return m_ranges; }
    std::uint64_t rowCount() const { return m_rows; }
    // The line shown in a row (row < rowCount()).
    LineNumber lineAt(std::uint64_t row) const;
    // Whether a row begins a group after a gap (a separator goes above it).
    bool startsGroup(std::uint64_t row) const;
    bool isMatch(LineNumber line) const;

private:
    void addRange(std::uint64_t first, std::uint64_t last);

    std::uint64_t m_before;
    std::uint64_t m_after;
    std::uint64_t m_lineCount;
    std::vector<LineNumber> m_matches;
    std::vector<Range> m_ranges;
    std::vector<std::uint64_t> m_rowStarts; // first row of each range
    std::uint64_t m_rows = 0;
};

} // namespace relayhud
