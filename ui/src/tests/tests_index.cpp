#include "relayhud/ui/tests/tests_index.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/tests/natural_order.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>

namespace relayhud::ui {

namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

bool isAscii(std::string_view text)
{
    return std::all_of(text.begin(), text.end(),
                       [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// At most `maxBytes` of `text`, cut where a UTF-8 sequence starts.
std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return text;
    std::size_t end = maxBytes;
    while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
        --end;
    return text.substr(0, end);
}

// The id of `name`, added with a zero count when new.
std::uint32_t intern(std::unordered_map<std::string, std::uint32_t>& ids,
                     std::vector<std::string>& names, std::vector<int>& counts,
                     std::string_view name)
{
    auto [it, added] = ids.try_emplace(std::string(name), static_cast<std::uint32_t>(names.size()));
    if (added) {
        names.emplace_back(name);
        counts.push_back(0);
    }
    return it->second;
}

std::uint32_t find(const std::vector<std::string>& names, const QString& value)
{
    const std::string wanted = value.toStdString();
    const auto it = std::find(names.begin(), names.end(), wanted);
    return it == names.end() ? kNone : static_cast<std::uint32_t>(it - names.begin());
}

} // namespace

struct TestsIndex::Builder {
    std::unordered_map<std::string, std::uint32_t> files, ops, dtypes;
    std::unordered_map<std::string, std::uint32_t> classes; // keyed by the label
    std::vector<std::uint32_t> rowOps, rowDtypes;
    const StoredTestResult* previous = nullptr; // reports list a class's tests together
    std::uint32_t previousClass = 0;
};

struct TestsIndex::Criteria {
    std::uint8_t outcomes = 0;
    std::uint32_t file = kNone;
    std::uint32_t op = kNone;
    std::uint32_t dtype = kNone;
    std::vector<std::string> words; // case-folded UTF-8
};

void TestsIndex::build(const std::vector<StoredTestResult>& results)
{
    *this = TestsIndex();
    m_rows.reserve(results.size());
    m_textBegins.reserve(results.size());
    std::size_t textBytes = 0;
    for (const StoredTestResult& result : results)
        textBytes +=
            result.identity.size() + std::min(result.message.size(), kSearchedMessageBytes) + 2;
    m_text.reserve(textBytes + textBytes / 16); // case folding may grow non-ASCII text a little
    Builder builder;
    for (const StoredTestResult& result : results)
        addRow(result, builder);
}

void TestsIndex::addRow(const StoredTestResult& result, Builder& builder)
{
    RowInfo row;
    m_textBegins.push_back(m_text.size());
    row.outcome = result.outcome;
    row.file = intern(builder.files, m_files, m_fileCounts, result.file);
    ++m_fileCounts[row.file];
    std::string label =
        result.className.empty() ? result.file : result.file + "::" + result.className;
    auto [it, added] =
        builder.classes.try_emplace(label, static_cast<std::uint32_t>(m_classes.size()));
    if (added)
        m_classes.push_back({row.file, result.className, std::move(label)});
    row.klass = it->second;
    addMarks(row, result.marks, builder);
    appendSearchText(result.identity, std::numeric_limits<std::size_t>::max());
    appendSearchText(result.message, kSearchedMessageBytes);
    m_rows.push_back(row);
}

std::uint32_t TestsIndex::internClass(std::uint32_t file, const StoredTestResult& result,
                                      Builder& builder)
{
    std::string label =
        result.className.empty() ? result.file : result.file + "::" + result.className;
    auto [it, added] =
        builder.classes.try_emplace(label, static_cast<std::uint32_t>(m_classes.size()));
    if (added)
        m_classes.push_back({file, result.className, std::move(label)});
    return it->second;
}

void TestsIndex::addMarks(RowInfo& row, std::string_view marks, Builder& builder)
{
    builder.rowOps.clear();
    builder.rowDtypes.clear();
    // A value counts once per test, however often its tag repeats.
    const auto add = [](std::vector<std::uint32_t>& values, std::uint32_t id) {
        if (std::find(values.begin(), values.end(), id) == values.end() && values.size() < 255)
            values.push_back(id);
    };
    while (!marks.empty()) {
        const std::size_t comma = marks.find(',');
        const std::string_view tag = marks.substr(0, comma);
        marks = comma == std::string_view::npos ? std::string_view() : marks.substr(comma + 1);
        if (tag.starts_with("op__") && tag.size() > 4)
            add(builder.rowOps, intern(builder.ops, m_ops, m_opCounts, tag.substr(4)));
        else if (tag.starts_with("dtype__") && tag.size() > 7)
            add(builder.rowDtypes, intern(builder.dtypes, m_dtypes, m_dtypeCounts, tag.substr(7)));
    }
    for (std::uint32_t id : builder.rowOps)
        ++m_opCounts[id];
    for (std::uint32_t id : builder.rowDtypes)
        ++m_dtypeCounts[id];
    row.marksBegin = static_cast<std::uint32_t>(m_rowMarks.size());
    row.opCount = static_cast<std::uint8_t>(builder.rowOps.size());
    row.dtypeCount = static_cast<std::uint8_t>(builder.rowDtypes.size());
    m_rowMarks.insert(m_rowMarks.end(), builder.rowOps.begin(), builder.rowOps.end());
    m_rowMarks.insert(m_rowMarks.end(), builder.rowDtypes.begin(), builder.rowDtypes.end());
}

void TestsIndex::appendSearchText(std::string_view text, std::size_t maxBytes)
{
    text = utf8Prefix(text, maxBytes);
    if (isAscii(text)) {
        const std::size_t at = m_text.size();
        m_text.resize(at + text.size());
        std::transform(
            text.begin(), text.end(), m_text.begin() + static_cast<std::ptrdiff_t>(at),
            [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
    } else {
        m_text += toQString(text).toCaseFolded().toStdString();
    }
    m_text.push_back('\n'); // words never hold a newline, so no match spans two texts
}

std::vector<std::string_view> TestsIndex::ops(Row row) const
{
    const RowInfo& info = m_rows[row];
    std::vector<std::string_view> values;
    for (std::uint32_t i = 0; i < info.opCount; ++i)
        values.emplace_back(m_ops[m_rowMarks[info.marksBegin + i]]);
    return values;
}

std::vector<std::string_view> TestsIndex::dtypes(Row row) const
{
    const RowInfo& info = m_rows[row];
    std::vector<std::string_view> values;
    for (std::uint32_t i = 0; i < info.dtypeCount; ++i)
        values.emplace_back(m_dtypes[m_rowMarks[info.marksBegin + info.opCount + i]]);
    return values;
}

std::vector<TestsChoice> TestsIndex::choices(const std::vector<std::string>& names,
                                             const std::vector<int>& counts)
{
    std::vector<std::size_t> order(names.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(),
              [&](std::size_t a, std::size_t b) { return naturalLess(names[a], names[b]); });
    std::vector<TestsChoice> result;
    result.reserve(order.size());
    for (std::size_t i : order)
        result.push_back({toQString(names[i]), counts[i]});
    return result;
}

std::vector<TestsChoice> TestsIndex::fileChoices() const { return choices(m_files, m_fileCounts); }
std::vector<TestsChoice> TestsIndex::opChoices() const { return choices(m_ops, m_opCounts); }
std::vector<TestsChoice> TestsIndex::dtypeChoices() const
{
    return choices(m_dtypes, m_dtypeCounts);
}

bool TestsIndex::resolve(const TestsFilter& filter, Criteria& criteria) const
{
    criteria.outcomes = filter.outcomes;
    const auto lookUp = [](const std::vector<std::string>& names, const QString& value,
                           std::uint32_t& id) {
        id = value.isEmpty() ? kNone : find(names, value);
        return value.isEmpty() || id != kNone;
    };
    if (!lookUp(m_files, filter.file, criteria.file) || !lookUp(m_ops, filter.op, criteria.op)
        || !lookUp(m_dtypes, filter.dtype, criteria.dtype))
        return false; // a value no test carries: nothing passes
    for (const QString& word : filter.words())
        criteria.words.push_back(word.toStdString());
    if (criteria.words.size() > 255) // the per-row match counter is a byte
        criteria.words.resize(255);
    return true;
}

bool TestsIndex::passes(const RowInfo& row, const Criteria& criteria) const
{
    if (criteria.outcomes != 0 && (criteria.outcomes & outcomeBit(row.outcome)) == 0)
        return false;
    if (criteria.file != kNone && row.file != criteria.file)
        return false;
    const auto has = [&](std::uint32_t begin, std::uint32_t count, std::uint32_t id) {
        const auto first = m_rowMarks.begin() + begin;
        return std::find(first, first + count, id) != first + count;
    };
    if (criteria.op != kNone && !has(row.marksBegin, row.opCount, criteria.op))
        return false;
    return criteria.dtype == kNone
           || has(row.marksBegin + row.opCount, row.dtypeCount, criteria.dtype);
}

// The row holding `offset`, at or after `from`: hits come in text order, so
// a gallop forward from the last hit's row, then a binary search, finds it
// in a step or two when most rows match and in log steps when few do.
TestsIndex::Row TestsIndex::rowAtTextOffset(std::size_t offset, Row from) const
{
    const auto count = static_cast<Row>(m_textBegins.size());
    Row low = from;
    Row step = 1;
    while (low + step < count && m_textBegins[low + step] <= offset) {
        low += step;
        step *= 2;
    }
    const auto first = m_textBegins.begin() + static_cast<std::ptrdiff_t>(low);
    const auto last =
        m_textBegins.begin() + static_cast<std::ptrdiff_t>(std::min(count, low + step));
    return static_cast<Row>(std::upper_bound(first, last, offset) - m_textBegins.begin()) - 1;
}

// For each row, how many of the words (taken in turn) it holds: a row holds
// them all when its count equals words.size(). One memmem scan of the whole
// text per word, jumping to the next row after each hit, beats a search per
// row: most rows hold no hit and are skipped at memory speed.
void TestsIndex::matchWords(const std::vector<std::string>& words) const
{
    m_matched.assign(m_rows.size(), 0);
    const char* const begin = m_text.data();
    const char* const end = begin + m_text.size();
    for (std::size_t k = 0; k < words.size(); ++k) {
        const std::string& word = words[k];
        const char* at = begin;
        Row row = 0;
        while (at < end) {
            const void* hit =
                ::memmem(at, static_cast<std::size_t>(end - at), word.data(), word.size());
            if (!hit)
                break;
            row = rowAtTextOffset(static_cast<std::size_t>(static_cast<const char*>(hit) - begin),
                                  row);
            if (m_matched[row] == k)
                m_matched[row] = static_cast<std::uint8_t>(k + 1);
            at = row + 1 < m_rows.size() ? begin + m_textBegins[row + 1] : end;
        }
    }
}

std::vector<TestsIndex::Row> TestsIndex::filter(const TestsFilter& filter,
                                                const std::vector<Row>& order) const
{
    std::vector<Row> result;
    filterInto(filter, order, result);
    return result;
}

void TestsIndex::filterInto(const TestsFilter& filter, const std::vector<Row>& order,
                            std::vector<Row>& out) const
{
    out.clear();
    Criteria criteria;
    if (!resolve(filter, criteria))
        return;
    const std::size_t wanted = criteria.words.size();
    if (wanted > 0)
        matchWords(criteria.words);
    for (Row row : order)
        if ((wanted == 0 || m_matched[row] == wanted) && passes(m_rows[row], criteria))
            out.push_back(row);
}

} // namespace relayhud::ui
