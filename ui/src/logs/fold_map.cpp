#include "relayhud/ui/logs/fold_map.h"

#include <algorithm>

namespace relayhud::ui {

void FoldMap::setLineCount(std::uint64_t lines)
{
    if (lines == m_lineCount)
        return;
    m_lineCount = lines;
    rebuild();
}

void FoldMap::setGroups(std::vector<LogGroup> groups)
{
    m_groups = std::move(groups);
    rebuild();
}

void FoldMap::clear()
{
    m_groups.clear();
    m_folded.clear();
    m_hidden.clear();
    m_lineCount = 0;
}

const LogGroup* FoldMap::groupStartingAt(LineNumber line) const
{
    const auto it = std::lower_bound(m_groups.begin(), m_groups.end(), line,
                                     [](const LogGroup& g, LineNumber l) { return g.start < l; });
    return it != m_groups.end() && it->start == line ? &*it : nullptr;
}

const LogGroup* FoldMap::groupContaining(LineNumber line) const
{
    const auto it = std::upper_bound(m_groups.begin(), m_groups.end(), line,
                                     [](LineNumber l, const LogGroup& g) { return l < g.start; });
    if (it == m_groups.begin())
        return nullptr;
    const LogGroup& g = *(it - 1);
    return line <= g.end ? &g : nullptr;
}

bool FoldMap::isFolded(LineNumber groupStart) const { return m_folded.count(groupStart.value) > 0; }

void FoldMap::setFolded(LineNumber groupStart, bool folded)
{
    if (!groupStartingAt(groupStart) || folded == isFolded(groupStart))
        return;
    if (folded)
        m_folded.insert(groupStart.value);
    else
        m_folded.erase(groupStart.value);
    rebuild();
}

void FoldMap::setAllFolded(bool folded)
{
    m_folded.clear();
    if (folded)
        for (const LogGroup& g : m_groups)
            m_folded.insert(g.start.value);
    rebuild();
}

void FoldMap::rebuild()
{
    m_hidden.clear();
    std::uint64_t hiddenSoFar = 0;
    for (const std::uint64_t header : m_folded) {
        const LogGroup* g = groupStartingAt(LineNumber{header});
        if (!g || header + 1 >= m_lineCount)
            continue;
        // A group still growing (or a log reset under it) can end past what is
        // indexed: hide only lines that exist.
        const std::uint64_t last = std::min(g->end.value, m_lineCount - 1);
        if (last <= header)
            continue;
        m_hidden.push_back({header, last, hiddenSoFar});
        hiddenSoFar += last - header;
    }
}

std::uint64_t FoldMap::rowCount() const
{
    const std::uint64_t hidden =
        m_hidden.empty() ? 0 : m_hidden.back().hiddenBefore + m_hidden.back().hidden();
    return m_lineCount - hidden;
}

ViewRow FoldMap::rowAt(std::uint64_t row) const
{
    // The last fold whose header row is above `row`: every line it hides, and
    // every line hidden before it, lies above the row's line.
    const auto it = std::partition_point(m_hidden.begin(), m_hidden.end(),
                                         [row](const Hidden& h) { return h.headerRow() < row; });
    if (it == m_hidden.begin())
        return {LineNumber{row}};
    const Hidden& h = *(it - 1);
    return {LineNumber{row + h.hiddenBefore + h.hidden()}};
}

std::uint64_t FoldMap::rowOf(LineNumber line) const
{
    const auto it = std::partition_point(m_hidden.begin(), m_hidden.end(),
                                         [line](const Hidden& h) { return h.header < line.value; });
    if (it == m_hidden.begin())
        return line.value;
    const Hidden& h = *(it - 1);
    if (line.value <= h.last)
        return h.headerRow();
    return line.value - h.hiddenBefore - h.hidden();
}

} // namespace relayhud::ui
