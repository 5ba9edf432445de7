#pragma once
// One log line made ready to paint: decoded, in UTF-16, tabs expanded to
// columns, styles and highlights as column ranges. Columns are monospace
// cells; "text index" is a position in the decoded text (tabs kept), which is
// what selection and copy work in.
#include "relayhud/logs/line_decoder.h"
#include "relayhud/logs/log_file.h"

#include <QString>

#include <cstdint>
#include <vector>

namespace relayhud::ui {

struct StyledRange {
    int start = 0; // columns
    int end = 0;
    TextStyle style;
};

struct ColumnHighlight {
    int start = 0; // columns
    int end = 0;
    int rule = 0; // the rule's index in LineHighlighter; kSearchRule for the search
};

class DisplayLine {
public:
    static constexpr int kTabWidth = 8;

    // Decodes the engine's line (the view calls it only for lines it paints).
    static DisplayLine fromLogLine(const LogLine& line);

    LineNumber number;
    LineKind kind = LineKind::Normal;
    QString timestamp; // "23:58:10.461"; empty when the line has none
    std::string utf8;  // the decoded text, as the engine gives it (matching runs on it)
    QString display;   // tabs expanded; one QChar per column (surrogates: two)
    std::vector<StyledRange> styles;
    bool truncated = false;
    std::uint64_t fullLength = 0; // bytes of the whole line in the file

    // Highlights computed for LineHighlighter generation `highlightGeneration`.
    std::uint64_t highlightGeneration = 0;
    std::vector<ColumnHighlight> highlights;

    int columns() const { return static_cast<int>(display.size()); }
    // "… [line cut: 104,857,600 bytes]" for a truncated line, else "".
    QString cutMarker() const;
    // Columns of the text and the cut marker with its gap.
    int paintedColumns() const;

    // The decoded text (tabs kept), as copied.
    QString text() const;
    int textLength() const;
    int columnOf(int textIndex) const;
    // The text index of the character at `column` (a column inside a tab is
    // the tab); past the end: textLength().
    int textIndexAt(int column) const;

    // UTF-8 byte ranges of `utf8` (sorted, non-overlapping) to columns.
    template <class Range, class Out>
    void mapByteRanges(const std::vector<Range>& ranges, Out&& out) const;

    std::size_t memoryChars() const
    {
        return utf8.size() + 2 * static_cast<std::size_t>(display.size());
    }

private:
    struct Tab {
        int textIndex = 0;
        int column = 0; // where it starts
        int extra = 0;  // columns added by this tab and the ones before it
    };
    std::vector<Tab> m_tabs; // empty: columns are text indexes
    int m_textLength = 0;

    friend class Utf8Columns;
};

// Walks `utf8` forward, turning byte offsets into columns; offsets must not
// decrease between calls.
class Utf8Columns {
public:
    explicit Utf8Columns(const DisplayLine& line) : m_line(line) {}
    int columnAt(std::size_t byteOffset);

private:
    const DisplayLine& m_line;
    std::size_t m_byte = 0;
    int m_textIndex = 0;
};

template <class Range, class Out>
void DisplayLine::mapByteRanges(const std::vector<Range>& ranges, Out&& out) const
{
    Utf8Columns walk(*this);
    for (const Range& r : ranges) {
        const int start = walk.columnAt(r.start);
        const int end = walk.columnAt(r.start + r.length);
        if (end > start)
            out(r, start, end);
    }
}

} // namespace relayhud::ui
