#pragma once
// Which log line each row of the view shows. The view scrolls by rows; a
// folded group or a "matching lines only" filter make rows and lines differ.
// Every lookup is a binary search over groups or match ranges, never a walk
// over lines, so a jump in a 10 GB log costs what it costs in a small one.
#include "relayhud/logs/line_number.h"

#include <cstdint>

namespace relayhud::ui {

struct ViewRow {
    LineNumber line;        // the line shown; for a separator, the line after it
    bool separator = false; // a "--" row between non-adjacent ranges of a filter
};

class RowMap {
public:
    virtual ~RowMap() = default;
    virtual std::uint64_t rowCount() const = 0;
    // row < rowCount().
    virtual ViewRow rowAt(std::uint64_t row) const = 0;
    // The row showing `line`; a hidden line gives the nearest row that stands
    // for it (its folded group's header, the next range of a filter).
    virtual std::uint64_t rowOf(LineNumber line) const = 0;
};

} // namespace relayhud::ui
