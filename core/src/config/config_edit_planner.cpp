#include "config_edit_planner.h"

#include <algorithm>

namespace relayhud::config {
namespace {

std::string spaces(std::size_t n) { return std::string(n, ' '); }

// "   -  " before a list item's first character.
bool isItemPrefix(std::string_view prefix)
{
    const std::size_t dash = prefix.find_first_not_of(' ');
    return dash != std::string_view::npos && prefix[dash] == '-'
           && prefix.find_first_not_of(' ', dash + 1) == std::string_view::npos
           && prefix.size() > dash + 1;
}

} // namespace

EditPlanner::EditPlanner(const ConfigText& text, const FileSection& file, Mode target,
                         std::string rationale)
    : m_text(text), m_file(file), m_target(target), m_rationale(std::move(rationale))
{
}

std::string EditPlanner::comment(std::size_t col) const { return spaces(col) + "# " + m_rationale; }

std::string EditPlanner::modeLine(std::size_t col) const
{
    return spaces(col) + "mode: " + modeName(m_target);
}

Result<EditPlanner::Layout> EditPlanner::layoutOf(const TestEntry& entry) const
{
    Layout layout;
    layout.start = entry.pos.line;
    layout.keyCol = entry.pos.column - 1;
    const std::string_view first = m_text.body(layout.start);
    if (!isItemPrefix(first.substr(0, layout.keyCol)) || first.substr(layout.keyCol, 5) != "names")
        return makeError("the entry at " + lineRef(layout.start)
                         + " is not written as `- names:` in block style; edit it by hand");
    if (entry.names.empty())
        return makeError("the entry at " + lineRef(layout.start) + " has no names");
    layout.dashCol = first.find('-');
    layout.end = m_text.blockEnd(layout.start, layout.keyCol);
    std::size_t lastItem = layout.start;
    for (const NameItem& item : entry.names)
        lastItem = std::max(lastItem, item.pos.line);
    layout.namesEnd = m_text.nextLineAtMost(lastItem, layout.end, layout.keyCol);
    return layout;
}

// The item's own line must hold just `- name  # comment` for it to move.
Result<std::size_t> EditPlanner::itemColumn(const NameItem& item) const
{
    const std::size_t col = item.pos.column - 1;
    const std::string_view body = m_text.body(item.pos.line);
    if (!isItemPrefix(body.substr(0, col)))
        return makeError("'" + item.name + "' at " + lineRef(item.pos.line)
                         + " is not a block list item (flow style `[...]`?); edit it by hand");
    const std::size_t next = item.pos.line + 1;
    if (next <= m_text.lineCount() && m_text.isContent(next)
        && m_text.indent(next) > body.find('-'))
        return makeError("'" + item.name + "' at " + lineRef(item.pos.line)
                         + " spans several lines; edit it by hand");
    return col;
}

// Comment-only lines directly above `line` (no blank line between) belong
// to the item on it; returns the first of them, or `line` itself.
std::size_t EditPlanner::commentsAbove(std::size_t line) const
{
    std::size_t first = line;
    while (first > 1) {
        const std::string_view body = m_text.body(first - 1);
        const std::size_t text = body.find_first_not_of(" \t");
        if (text == std::string_view::npos || body[text] != '#')
            break;
        --first;
    }
    return first;
}

Result<std::vector<Splice>> EditPlanner::setEntryMode(std::size_t entryIndex) const
{
    const TestEntry& entry = m_file.tests[entryIndex];
    Result<Layout> layout = layoutOf(entry);
    if (!layout)
        return layout.error();
    if (!entry.mode)
        return std::vector<Splice>{
            {layout->namesEnd, 0, {comment(layout->keyCol), modeLine(layout->keyCol)}}};
    const std::size_t line = entry.modePos.line;
    const std::string_view body = m_text.body(line);
    if (body.substr(layout->keyCol, 4) != "mode")
        return makeError("the mode at " + lineRef(line)
                         + " is not on its key's line; edit it by hand");
    std::size_t start = entry.modePos.column - 1;
    std::size_t stop = start;
    if (body[start] == '"' || body[start] == '\'') {
        stop = body.find(body[start], start + 1);
        if (stop == std::string_view::npos)
            return makeError("unclosed quote at " + lineRef(line));
        ++start; // keep the quotes, replace what is inside
    } else {
        while (stop < body.size() && body[stop] != ' ' && body[stop] != '#')
            ++stop;
    }
    std::string changed(body.substr(0, start));
    changed += modeName(m_target);
    changed += body.substr(stop);
    return std::vector<Splice>{{line, 0, {comment(layout->keyCol)}}, {line, 1, {changed}}};
}

const TestEntry* EditPlanner::findSibling(std::size_t entryIndex) const
{
    const TestEntry& source = m_file.tests[entryIndex];
    const TestEntry* best = nullptr;
    for (std::size_t i = 0; i < m_file.tests.size(); ++i) {
        const TestEntry& other = m_file.tests[i];
        if (i == entryIndex || other.signature != source.signature
            || other.effectiveMode() != m_target || other.names.empty())
            continue;
        if (i > entryIndex)
            return &other; // the nearest one below the source
        best = &other;
    }
    return best;
}

// `- names:` with the item lines, the target mode, then the other keys of
// `copyFrom` (edits, tags, labels, ...) verbatim.
Result<std::vector<std::string>> EditPlanner::entryLines(const std::string& dashPrefix,
                                                         std::vector<std::string> itemLines,
                                                         std::optional<std::size_t> copyFrom,
                                                         std::size_t keyCol) const
{
    std::vector<std::string> lines{comment(dashPrefix.find('-')), dashPrefix + "names:"};
    for (std::string& line : itemLines)
        lines.push_back(std::move(line));
    lines.push_back(modeLine(keyCol));
    if (!copyFrom)
        return lines;
    const TestEntry& source = m_file.tests[*copyFrom];
    Result<Layout> layout = layoutOf(source);
    if (!layout)
        return layout.error();
    if (layout->keyCol != keyCol)
        return makeError("the entry at " + lineRef(layout->start)
                         + " is indented unlike its neighbours; edit it by hand");
    for (std::size_t line = layout->namesEnd; line <= layout->end; ++line) {
        if (source.mode && line == source.modePos.line)
            continue;
        lines.emplace_back(m_text.body(line));
    }
    return lines;
}

Result<std::vector<Splice>> EditPlanner::moveNames(std::size_t entryIndex,
                                                   const std::vector<std::size_t>& names,
                                                   bool toSibling) const
{
    const TestEntry& source = m_file.tests[entryIndex];
    std::vector<Splice> splices;
    std::vector<std::string> moved; // item lines with their comments, re-indented later
    std::vector<std::size_t> movedColumns;
    for (const std::size_t n : names) {
        const NameItem& item = source.names[n];
        Result<std::size_t> column = itemColumn(item);
        if (!column)
            return column.error();
        const std::size_t from = commentsAbove(item.pos.line);
        splices.push_back({from, item.pos.line - from + 1, {}});
        for (std::size_t line = from; line <= item.pos.line; ++line) {
            moved.emplace_back(m_text.body(line));
            movedColumns.push_back(*column);
        }
    }
    // Re-indent each moved line from its old item column to the new one.
    auto reindent = [&](const std::string& itemPrefix) {
        std::vector<std::string> out;
        const std::size_t newDash = itemPrefix.find('-');
        for (std::size_t i = 0; i < moved.size(); ++i) {
            const std::string& line = moved[i];
            const std::size_t text = line.find_first_not_of(' ');
            if (line[text] == '#') // a comment: at the new dash column
                out.push_back(spaces(newDash) + line.substr(text));
            else
                out.push_back(itemPrefix + line.substr(movedColumns[i]));
        }
        return out;
    };
    if (const TestEntry* sibling = toSibling ? findSibling(entryIndex) : nullptr) {
        const NameItem& last = sibling->names.back();
        Result<std::size_t> siblingColumn = itemColumn(last);
        if (!siblingColumn)
            return siblingColumn.error();
        const std::string prefix(m_text.body(last.pos.line).substr(0, *siblingColumn));
        std::vector<std::string> lines{comment(prefix.find('-'))};
        for (std::string& line : reindent(prefix))
            lines.push_back(std::move(line));
        splices.push_back({last.pos.line + 1, 0, std::move(lines)});
        return splices;
    }
    Result<Layout> layout = layoutOf(source);
    if (!layout)
        return layout.error();
    Result<std::size_t> firstColumn = itemColumn(source.names.front());
    if (!firstColumn)
        return firstColumn.error();
    const std::string itemPrefix(
        m_text.body(source.names.front().pos.line).substr(0, *firstColumn));
    const std::string dashPrefix(m_text.body(layout->start).substr(0, layout->keyCol));
    Result<std::vector<std::string>> lines =
        entryLines(dashPrefix, reindent(itemPrefix), entryIndex, layout->keyCol);
    if (!lines)
        return lines.error();
    splices.push_back({layout->end + 1, 0, std::move(*lines)});
    return splices;
}

Result<std::vector<Splice>> EditPlanner::addEntry(const std::string& name,
                                                  std::optional<std::size_t> copyFrom,
                                                  std::optional<std::size_t> after,
                                                  bool first) const
{
    if (m_file.tests.empty()) {
        if (m_file.hasTestsKey)
            return makeError("the tests list of " + m_file.path
                             + " is empty or in flow style; add the entry by hand");
        const std::size_t fileKeyCol = m_file.pos.column - 1;
        const std::size_t dashCol = fileKeyCol + 2;
        std::vector<std::string> lines{spaces(fileKeyCol) + "tests:"};
        Result<std::vector<std::string>> entry = entryLines(
            spaces(dashCol) + "- ", {spaces(dashCol + 4) + "- " + name}, std::nullopt, dashCol + 2);
        if (!entry)
            return entry.error();
        lines.insert(lines.end(), entry->begin(), entry->end());
        return std::vector<Splice>{
            {m_text.blockEnd(m_file.pos.line, fileKeyCol) + 1, 0, std::move(lines)}};
    }
    const std::size_t anchorIndex = first ? 0 : after.value_or(m_file.tests.size() - 1);
    const TestEntry& anchor = m_file.tests[anchorIndex];
    Result<Layout> layout = layoutOf(anchor);
    if (!layout)
        return layout.error();
    Result<std::size_t> column = itemColumn(anchor.names.front());
    if (!column)
        return column.error();
    const std::string itemPrefix(m_text.body(anchor.names.front().pos.line).substr(0, *column));
    const std::string dashPrefix(m_text.body(layout->start).substr(0, layout->keyCol));
    Result<std::vector<std::string>> lines =
        entryLines(dashPrefix, {itemPrefix + name}, copyFrom, layout->keyCol);
    if (!lines)
        return lines.error();
    // First: above the first entry's own comments, so they stay with it.
    const std::size_t insertAt = first ? commentsAbove(layout->start) : layout->end + 1;
    return std::vector<Splice>{{insertAt, 0, std::move(*lines)}};
}

} // namespace relayhud::config
