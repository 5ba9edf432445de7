#include "relayhud/ui/logs/log_selection.h"

namespace relayhud::ui {

bool LogSelection::isEmpty() const
{
    return m_mode == Mode::None || (m_mode == Mode::Characters && m_anchor == m_cursor);
}

void LogSelection::selectLines(LineNumber anchor, LineNumber cursor)
{
    m_mode = Mode::Lines;
    m_anchor = {anchor, 0};
    m_cursor = {cursor, 0};
}

void LogSelection::selectCharacters(TextPosition anchor, TextPosition cursor)
{
    m_mode = Mode::Characters;
    m_anchor = anchor;
    m_cursor = cursor;
}

void LogSelection::extendTo(TextPosition cursor)
{
    if (m_mode == Mode::None) {
        m_mode = Mode::Lines;
        m_anchor = cursor;
    }
    m_cursor = m_mode == Mode::Lines ? TextPosition{cursor.line, 0} : cursor;
}

std::optional<LogSelection::LinePart> LogSelection::partOf(LineNumber line) const
{
    if (isEmpty() || line < firstLine() || line > lastLine())
        return std::nullopt;
    if (m_mode == Mode::Lines)
        return LinePart{true, 0, -1};
    const TextPosition a = first();
    const TextPosition b = last();
    if (line > a.line && line < b.line)
        return LinePart{true, 0, -1};
    LinePart part{false, line == a.line ? a.index : 0, line == b.line ? b.index : -1};
    if (part.end == part.start)
        return std::nullopt;
    return part;
}

} // namespace relayhud::ui
