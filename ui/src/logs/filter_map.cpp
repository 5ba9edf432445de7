#include "relayhud/ui/logs/filter_map.h"

#include <algorithm>

namespace relayhud::ui {

namespace {

std::uint64_t length(const ContextFilter::Range& r) { return r.last.value - r.first.value + 1; }

} // namespace

FilterMap::FilterMap(std::uint64_t context, std::uint64_t lineCount)
    : m_context(context), m_filter(context, context, lineCount)
{
}

void FilterMap::setLineCount(std::uint64_t lines)
{
    m_filter.setLineCount(lines);
    layOut();
}

void FilterMap::addMatches(std::span<const LineNumber> matches)
{
    m_filter.append(matches);
    layOut();
}

void FilterMap::layOut()
{
    const auto& ranges = m_filter.ranges();
    std::size_t k = m_firstRow.empty() ? 0 : m_firstRow.size() - 1;
    m_firstRow.resize(ranges.size());
    for (; k < ranges.size(); ++k)
        m_firstRow[k] = k == 0 ? 0 : m_firstRow[k - 1] + length(ranges[k - 1]) + 1;
}

std::uint64_t FilterMap::rowCount() const
{
    const auto& ranges = m_filter.ranges();
    return ranges.empty() ? 0 : m_firstRow.back() + length(ranges.back());
}

ViewRow FilterMap::rowAt(std::uint64_t row) const
{
    const auto& ranges = m_filter.ranges();
    const auto it = std::upper_bound(m_firstRow.begin(), m_firstRow.end(), row);
    if (it == m_firstRow.begin())
        return {ranges.empty() ? LineNumber{} : ranges.front().first};
    const auto k = static_cast<std::size_t>(it - m_firstRow.begin()) - 1;
    // The row just above the next range's first line is its separator.
    if (k + 1 < ranges.size() && row + 1 == m_firstRow[k + 1])
        return {ranges[k + 1].first, true};
    return {LineNumber{ranges[k].first.value + (row - m_firstRow[k])}};
}

std::uint64_t FilterMap::rowOf(LineNumber line) const
{
    const auto& ranges = m_filter.ranges();
    if (ranges.empty())
        return 0;
    const auto it =
        std::partition_point(ranges.begin(), ranges.end(),
                             [line](const ContextFilter::Range& r) { return r.first <= line; });
    if (it == ranges.begin())
        return 0;
    const auto k = static_cast<std::size_t>(it - ranges.begin()) - 1;
    if (line <= ranges[k].last)
        return m_firstRow[k] + (line.value - ranges[k].first.value);
    // Between two ranges: the next one's first line, or the last row.
    return k + 1 < ranges.size() ? m_firstRow[k + 1] : rowCount() - 1;
}

} // namespace relayhud::ui
