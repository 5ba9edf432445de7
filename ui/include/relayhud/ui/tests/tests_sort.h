#pragma once
// Row orders of the tests table. Each sort key is turned into a rank per row
// when first sorted by (strings through byte keys that order naturally, see
// naturalCompare) and kept, so sorting 100,000 rows again by the same key, or
// filtering, never compares strings. Ties keep the results' own order (the
// report's), so the default order, failing first, needs no string work.
#include "relayhud/model/test_results.h"
#include "relayhud/ui/tests/tests_index.h"

#include <Qt>

#include <array>
#include <cstdint>
#include <vector>

namespace relayhud::ui {

enum class TestsSortKey {
    Outcome,
    Test,
    File,
    Op,
    Dtype,
    Duration,
    History,
    Message,
    Class,
    Count
};

class TestsSorter {
public:
    using Row = TestsIndex::Row;
    struct Source {
        const std::vector<StoredTestResult>& results;
        const TestsIndex& index;
        // Per row, smaller first: the history column's order (TestsModel).
        const std::vector<std::uint8_t>& historyKeys;
        // Per row, smaller first: the class column's order (TestsModel).
        const std::vector<std::uint8_t>& classKeys;
    };

    // Forgets every rank (new data).
    void reset();
    // Forgets one key's ranks (its values changed, e.g. a history arrived).
    void invalidate(TestsSortKey key);
    // Every row, ordered by `key` in `order`; ties in the results' order.
    std::vector<Row> order(const Source& source, TestsSortKey key, Qt::SortOrder order);

private:
    const std::vector<std::uint32_t>& ranks(const Source& source, TestsSortKey key);

    std::array<std::vector<std::uint32_t>, static_cast<std::size_t>(TestsSortKey::Count)> m_ranks;
};

} // namespace relayhud::ui
