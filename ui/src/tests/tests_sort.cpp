#include "relayhud/ui/tests/tests_sort.h"

#include "relayhud/ui/tests/natural_order.h"
#include "relayhud/ui/tests/outcome_style.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string_view>

namespace relayhud::ui {

namespace {

using Row = TestsSorter::Row;

constexpr std::size_t kMessageKeyBytes = 200; // enough to order messages

// Appends a key that orders as naturalCompare() does when compared bytewise:
// letters lower-cased, each run of digits as '0', its length (leading zeros
// dropped) and the digits, so that shorter numbers sort first.
void appendNaturalKey(std::string& key, std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        if (!isAsciiDigit(text[i])) {
            const char c = text[i++];
            key.push_back(c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c);
            continue;
        }
        std::size_t end = i;
        while (end < text.size() && isAsciiDigit(text[end]))
            ++end;
        while (i + 1 < end && text[i] == '0')
            ++i;
        key.push_back('0');
        key.push_back(static_cast<char>(std::min<std::size_t>(end - i, 255)));
        key.append(text.substr(i, end - i));
        i = end;
    }
}

// Keys for every row in one buffer, sorted through an 8-byte prefix kept
// beside each row so most comparisons never leave the array.
class KeyTable {
public:
    explicit KeyTable(std::size_t rows) { m_offsets.reserve(rows + 1); }
    std::string& key() { return m_keys; }
    void endRow() { m_offsets.push_back(m_keys.size()); }
    std::string_view at(Row row) const
    {
        const std::size_t begin = row == 0 ? 0 : m_offsets[row - 1];
        return std::string_view(m_keys).substr(begin, m_offsets[row] - begin);
    }

private:
    std::string m_keys;
    std::vector<std::size_t> m_offsets;
};

std::uint64_t prefixOf(std::string_view key)
{
    std::uint64_t prefix = 0;
    for (std::size_t i = 0; i < 8; ++i)
        prefix = (prefix << 8) | (i < key.size() ? static_cast<unsigned char>(key[i]) : 0u);
    return prefix;
}

std::vector<std::uint32_t> rankByKeys(const KeyTable& keys, std::size_t count)
{
    struct Item {
        std::uint64_t prefix;
        Row row;
    };
    std::vector<Item> items(count);
    for (Row row = 0; row < count; ++row)
        items[row] = {prefixOf(keys.at(row)), row};
    const auto less = [&keys](const Item& a, const Item& b) {
        if (a.prefix != b.prefix)
            return a.prefix < b.prefix;
        return keys.at(a.row) < keys.at(b.row);
    };
    std::sort(items.begin(), items.end(), less);
    std::vector<std::uint32_t> ranks(count);
    std::uint32_t rank = 0;
    for (std::size_t i = 0; i < items.size(); ++i) {
        if (i > 0 && less(items[i - 1], items[i]))
            ++rank;
        ranks[items[i].row] = rank;
    }
    return ranks;
}

template <typename Value>
std::vector<std::uint32_t> rankByValues(const std::vector<Value>& values)
{
    std::vector<Row> rows(values.size());
    std::iota(rows.begin(), rows.end(), Row{0});
    std::sort(rows.begin(), rows.end(), [&](Row a, Row b) { return values[a] < values[b]; });
    std::vector<std::uint32_t> ranks(values.size());
    std::uint32_t rank = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (i > 0 && values[rows[i - 1]] < values[rows[i]])
            ++rank;
        ranks[rows[i]] = rank;
    }
    return ranks;
}

// Tests without the mark sort after those with one.
void appendMarksKey(std::string& key, const std::vector<std::string_view>& values)
{
    key.push_back(values.empty() ? '\x02' : '\x01');
    for (std::string_view value : values) {
        appendNaturalKey(key, value);
        key.push_back('\x01');
    }
}

void appendKey(std::string& key, const TestsSorter::Source& s, TestsSortKey sortKey, Row row)
{
    const StoredTestResult& r = s.results[row];
    switch (sortKey) {
    case TestsSortKey::Test: // as the column reads: "Class::name", or the name alone
        if (!r.className.empty()) {
            appendNaturalKey(key, r.className);
            key.append("::");
        }
        appendNaturalKey(key, r.name);
        break;
    case TestsSortKey::File: appendNaturalKey(key, r.file); break;
    case TestsSortKey::Op: appendMarksKey(key, s.index.ops(row)); break;
    case TestsSortKey::Dtype: appendMarksKey(key, s.index.dtypes(row)); break;
    case TestsSortKey::Message:
        appendNaturalKey(key, std::string_view(r.message).substr(0, kMessageKeyBytes));
        break;
    default: break;
    }
}

std::vector<std::uint32_t> rankRows(const TestsSorter::Source& s, TestsSortKey key)
{
    const std::size_t count = s.results.size();
    switch (key) {
    case TestsSortKey::Outcome: {
        std::vector<int> values(count);
        for (Row row = 0; row < count; ++row)
            values[row] = outcomeRank(s.results[row].outcome);
        return rankByValues(values);
    }
    case TestsSortKey::Duration: {
        std::vector<double> values(count);
        for (Row row = 0; row < count; ++row) // NaN would break the sort's ordering
            values[row] = std::isfinite(s.results[row].durationSeconds)
                              ? s.results[row].durationSeconds
                              : -1.0;
        return rankByValues(values);
    }
    case TestsSortKey::History: return rankByValues(s.historyKeys);
    case TestsSortKey::Class: return rankByValues(s.classKeys);
    default: break;
    }
    KeyTable keys(count);
    for (Row row = 0; row < count; ++row) {
        appendKey(keys.key(), s, key, row);
        keys.endRow();
    }
    return rankByKeys(keys, count);
}

} // namespace

void TestsSorter::reset()
{
    for (auto& ranks : m_ranks)
        ranks.clear();
}

void TestsSorter::invalidate(TestsSortKey key) { m_ranks[static_cast<std::size_t>(key)].clear(); }

const std::vector<std::uint32_t>& TestsSorter::ranks(const Source& source, TestsSortKey key)
{
    auto& ranks = m_ranks[static_cast<std::size_t>(key)];
    if (ranks.size() != source.results.size())
        ranks = rankRows(source, key);
    return ranks;
}

std::vector<TestsSorter::Row> TestsSorter::order(const Source& source, TestsSortKey key,
                                                 Qt::SortOrder order)
{
    const std::vector<std::uint32_t>& byKey = ranks(source, key);
    std::vector<Row> rows(source.results.size());
    std::iota(rows.begin(), rows.end(), Row{0});
    // Ties keep the order the results came in (the report's), either way.
    if (order == Qt::DescendingOrder)
        std::stable_sort(rows.begin(), rows.end(),
                         [&](Row a, Row b) { return byKey[a] > byKey[b]; });
    else
        std::stable_sort(rows.begin(), rows.end(),
                         [&](Row a, Row b) { return byKey[a] < byKey[b]; });
    return rows;
}

} // namespace relayhud::ui
