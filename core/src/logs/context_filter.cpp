#include "relayhud/logs/context_filter.h"

#include <algorithm>

namespace relayhud {

ContextFilter::ContextFilter(std::uint64_t before, std::uint64_t after, std::uint64_t lineCount)
    : m_before(before), m_after(after), m_lineCount(lineCount)
{
}

void ContextFilter::addRange(std::uint64_t first, std::uint64_t last)
{
    if (!m_ranges.empty() && first <= m_ranges.back().last.value + 1) {
        Range& r = m_ranges.back();
        if (last > r.last.value) {
            m_rows += last - r.last.value;
            r.last = LineNumber{last};
        }
        return;
    }
    m_rowStarts.push_back(m_rows);
    m_ranges.push_back({LineNumber{first}, LineNumber{last}});
    m_rows += last - first + 1;
}

void ContextFilter::append(std::span<const LineNumber> matches)
{
    for (LineNumber m : matches) {
        m_matches.push_back(m);
        const std::uint64_t first = m.value > m_before ? m.value - m_before : 0;
        const std::uint64_t limit = std::max(m_lineCount, m.value + 1) - 1;
        const std::uint64_t last = std::min(limit, m.value + std::min(m_after, limit - m.value));
        addRange(first, last);
    }
}

void ContextFilter::setLineCount(std::uint64_t lineCount)
{
    m_lineCount = lineCount;
    if (m_matches.empty() || m_ranges.empty())
        return;
    const std::uint64_t last = m_matches.back().value;
    addRange(last, std::min(lineCount - 1, last + m_after));
}

LineNumber ContextFilter::lineAt(std::uint64_t row) const
{
    const auto it = std::upper_bound(m_rowStarts.begin(), m_rowStarts.end(), row) - 1;
    const auto& r = m_ranges[static_cast<std::size_t>(it - m_rowStarts.begin())];
    return LineNumber{r.first.value + (row - *it)};
}

bool ContextFilter::startsGroup(std::uint64_t row) const
{
    return row > 0 && std::binary_search(m_rowStarts.begin(), m_rowStarts.end(), row);
}

bool ContextFilter::isMatch(LineNumber line) const
{
    return std::binary_search(m_matches.begin(), m_matches.end(), line);
}

} // namespace relayhud
