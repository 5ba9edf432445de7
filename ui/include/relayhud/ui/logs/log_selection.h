#pragma once
// What is selected in the log view: whole lines (a click in the gutter,
// Shift+arrows, a link's range) or characters (a drag over the text), from
// an anchor to a cursor in either order. Positions are text indexes of the
// decoded line (tabs kept), so copying gives the text as decoded.
#include "relayhud/logs/line_number.h"

#include <algorithm>
#include <compare>
#include <optional>

namespace relayhud::ui {

struct TextPosition {
    LineNumber line;
    int index = 0;
    auto operator<=>(const TextPosition&) const = default;
};

class LogSelection {
public:
    enum class Mode { None, Lines, Characters };

    void clear() { m_mode = Mode::None; }
    bool isEmpty() const;
    Mode mode() const { return m_mode; }

    void selectLines(LineNumber anchor, LineNumber cursor);
    void selectCharacters(TextPosition anchor, TextPosition cursor);
    // Moves the cursor end, keeping the anchor and the mode.
    void extendTo(TextPosition cursor);

    TextPosition anchor() const { return m_anchor; }
    TextPosition first() const { return std::min(m_anchor, m_cursor); }
    TextPosition last() const { return std::max(m_anchor, m_cursor); }
    LineNumber firstLine() const { return first().line; }
    LineNumber lastLine() const { return last().line; }

    // What of `line` is selected: the whole line, or text indexes [start, end)
    // (end -1: to the end of the line); nullopt when nothing.
    struct LinePart {
        bool whole = false;
        int start = 0;
        int end = -1;
    };
    std::optional<LinePart> partOf(LineNumber line) const;

private:
    Mode m_mode = Mode::None;
    TextPosition m_anchor;
    TextPosition m_cursor;
};

} // namespace relayhud::ui
