#pragma once
// Rows of "matching lines only, with N lines of context" (grep -C N): the
// engine's ContextFilter says which lines (ranges merged where they overlap
// or touch); this lays them out as rows with a "--" separator row between
// ranges that do not touch, and maps lines back to rows. Matches arrive
// streaming, in file order, while the search runs.
#include "relayhud/logs/context_filter.h"
#include "relayhud/ui/logs/row_map.h"

#include <span>
#include <vector>

namespace relayhud::ui {

class FilterMap : public RowMap {
public:
    FilterMap(std::uint64_t context, std::uint64_t lineCount);

    std::uint64_t context() const { return m_context; }
    void setLineCount(std::uint64_t lines);
    // Matches after every match added so far, in increasing order.
    void addMatches(std::span<const LineNumber> matches);
    std::size_t rangeCount() const { return m_filter.ranges().size(); }

    std::uint64_t rowCount() const override;
    ViewRow rowAt(std::uint64_t row) const override;
    std::uint64_t rowOf(LineNumber line) const override;

private:
    // Lays out ranges from the last one laid out (the only one a new match or
    // a longer log can extend) to the end.
    void layOut();

    std::uint64_t m_context;
    ContextFilter m_filter;
    std::vector<std::uint64_t> m_firstRow; // row of each range's first line
};

} // namespace relayhud::ui
