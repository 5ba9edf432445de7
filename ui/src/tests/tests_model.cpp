// TestsModel's structure: rows, groups, filtering, sorting and the layout
// changes that keep persistent indexes (the selection) on their tests.
#include "relayhud/ui/tests/tests_model.h"

#include "relayhud/ui/tests/history_strip.h"
#include "relayhud/ui/tests/natural_order.h"
#include "relayhud/ui/tests/outcome_style.h"

#include <algorithm>

namespace relayhud::ui {

namespace {

TestsSortKey sortKeyOf(int column)
{
    return static_cast<TestsSortKey>(
        std::clamp(column, 0, static_cast<int>(TestsSortKey::Count) - 1));
}

// The History column's order: new failures first, then the old ones, tests
// whose history holds a failure, other histories, and tests without one.
std::uint8_t historyKey(const TestHistorySummary& summary)
{
    if (summary.newFailure)
        return 0;
    if (summary.failedBefore)
        return 1;
    return summary.failures > 0 ? 2 : 3;
}
constexpr std::uint8_t kNoHistoryKey = 4;

// The Class column's order: untriaged failures first (the work left), then
// the classes in their enumeration's order, tests without triage last.
std::uint8_t classKey(const TestTriage& triage)
{
    const triage::FailureClass cls = triage.effective();
    if (cls == triage::FailureClass::Untriaged || cls == triage::FailureClass::Unset)
        return 0;
    return static_cast<std::uint8_t>(cls);
}
constexpr std::uint8_t kNoClassKey = 255;

int failing(const std::array<int, kTestOutcomeCount>& counts)
{
    int total = 0;
    for (std::size_t i = 0; i < kTestOutcomeCount; ++i)
        if (isFailingOutcome(static_cast<TestOutcome>(i)))
            total += counts[i];
    return total;
}

} // namespace

TestsModel::TestsModel(QObject* parent)
    : QAbstractItemModel(parent), m_results(std::make_shared<const std::vector<StoredTestResult>>())
{
}

QModelIndex TestsModel::index(int row, int column, const QModelIndex& parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    if (!parent.isValid())
        return createIndex(row, column, quintptr{0});
    return createIndex(row, column, static_cast<quintptr>(parent.row()) + 1);
}

QModelIndex TestsModel::parent(const QModelIndex& child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(static_cast<int>(child.internalId() - 1), 0, quintptr{0});
}

int TestsModel::rowCount(const QModelIndex& parent) const
{
    if (!parent.isValid())
        return static_cast<int>(m_grouping == Grouping::None ? m_visible.size() : m_groups.size());
    if (parent.column() != 0 || !isGroup(parent))
        return 0;
    return static_cast<int>(m_groups[static_cast<std::size_t>(parent.row())].rows.size());
}

int TestsModel::columnCount(const QModelIndex&) const { return ColumnCount; }

bool TestsModel::isGroup(const QModelIndex& index) const
{
    return m_grouping != Grouping::None && index.isValid() && index.internalId() == 0;
}

const TestsModel::Group* TestsModel::groupAt(const QModelIndex& index) const
{
    return isGroup(index) ? &m_groups[static_cast<std::size_t>(index.row())] : nullptr;
}

TestsModel::Row TestsModel::rowAt(const QModelIndex& index) const
{
    const auto position = static_cast<std::size_t>(index.row());
    if (m_grouping == Grouping::None)
        return m_visible[position];
    return m_groups[index.internalId() - 1].rows[position];
}

const StoredTestResult* TestsModel::result(const QModelIndex& index) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid) || isGroup(index))
        return nullptr;
    return &at(rowAt(index));
}

const TestHistory* TestsModel::history(TestId testId) const
{
    const auto row = m_rowOfTest.find(testId);
    if (row == m_rowOfTest.end())
        return nullptr;
    const auto entry = m_histories.find(row->second);
    return entry == m_histories.end() ? nullptr : &entry->second.history;
}

QModelIndex TestsModel::rowIndex(Row row, int column) const
{
    const Slot slot = m_slots[row];
    if (slot.position < 0)
        return {};
    return createIndex(slot.position, column, static_cast<quintptr>(slot.group + 1));
}

QModelIndex TestsModel::indexOfTest(TestId testId, int column) const
{
    const auto row = m_rowOfTest.find(testId);
    return row == m_rowOfTest.end() ? QModelIndex() : rowIndex(row->second, column);
}

std::uint32_t TestsModel::groupKey(Row row) const
{
    return m_grouping == Grouping::File ? m_index.fileId(row) : m_index.classId(row);
}

const std::string& TestsModel::groupLabel(std::uint32_t key) const
{
    return m_grouping == Grouping::File ? m_index.fileName(key) : m_index.className(key);
}

TestsSorter::Source TestsModel::sortSource() const
{
    return {*m_results, m_index, m_historyKeys, m_classKeys};
}

void TestsModel::setResults(std::vector<StoredTestResult> results,
                            const std::vector<TestHistory>& histories)
{
    setResults(std::make_shared<const std::vector<StoredTestResult>>(std::move(results)),
               histories);
}

void TestsModel::setResults(std::shared_ptr<const std::vector<StoredTestResult>> results,
                            const std::vector<TestHistory>& histories)
{
    beginResetModel();
    m_results =
        results ? std::move(results) : std::make_shared<const std::vector<StoredTestResult>>();
    m_index.build(*m_results);
    m_sorter.reset();
    m_rowOfTest.clear();
    m_histories.clear();
    m_rowOfTest.reserve(m_results->size());
    for (Row row = 0; row < m_results->size(); ++row)
        m_rowOfTest.emplace(at(row).testId, row);
    m_historyKeys.assign(m_results->size(), kNoHistoryKey);
    m_triage.clear();
    m_classKeys.assign(m_results->size(), kNoClassKey);
    for (const TestHistory& history : histories)
        if (const auto row = m_rowOfTest.find(history.testId); row != m_rowOfTest.end())
            applyHistory(row->second, history);
    // A file, op or dtype that no test of this run carries would hide everything.
    const auto known = [](const std::vector<TestsChoice>& choices, const QString& value) {
        return std::any_of(choices.begin(), choices.end(),
                           [&](const TestsChoice& c) { return c.value == value; });
    };
    if (!m_filter.file.isEmpty() && !known(m_index.fileChoices(), m_filter.file))
        m_filter.file.clear();
    if (!m_filter.op.isEmpty() && !known(m_index.opChoices(), m_filter.op))
        m_filter.op.clear();
    if (!m_filter.dtype.isEmpty() && !known(m_index.dtypeChoices(), m_filter.dtype))
        m_filter.dtype.clear();
    m_order = m_sorter.order(sortSource(), sortKeyOf(m_sortColumn), m_sortOrder);
    rebuild();
    endResetModel();
}

void TestsModel::applyHistory(Row row, TestHistory history)
{
    HistoryEntry& entry = m_histories[row];
    entry.squares = historySquares(history);
    const TestHistorySummary summary = summarizeHistory(history);
    entry.badge = summary.newFailure     ? HistoryBadge::NewFailure
                  : summary.failedBefore ? HistoryBadge::FailedBefore
                                         : HistoryBadge::None;
    entry.history = std::move(history);
    m_historyKeys[row] = entry.history.points.empty() ? kNoHistoryKey : historyKey(summary);
}

bool TestsModel::setHistory(TestHistory history)
{
    const auto found = m_rowOfTest.find(history.testId);
    if (found == m_rowOfTest.end())
        return false;
    const Row row = found->second;
    applyHistory(row, std::move(history));
    m_sorter.invalidate(TestsSortKey::History);
    if (const QModelIndex first = rowIndex(row, OutcomeColumn); first.isValid())
        emit dataChanged(first, first.siblingAtColumn(HistoryColumn));
    return true;
}

void TestsModel::setTriage(const std::unordered_map<TestId, TestTriage, IdHash>& triage)
{
    m_triage.clear();
    m_classKeys.assign(m_results->size(), kNoClassKey);
    for (const auto& [testId, entry] : triage)
        if (const auto row = m_rowOfTest.find(testId); row != m_rowOfTest.end()) {
            m_triage[row->second] = entry;
            m_classKeys[row->second] = classKey(entry);
        }
    m_sorter.invalidate(TestsSortKey::Class);
    // The panel calls this right after setResults() (a reset, which repaints
    // grouped children too); later changes come one test at a time.
    if (rowCount() > 0)
        emit dataChanged(index(0, ClassColumn), index(rowCount() - 1, ClassColumn));
}

bool TestsModel::setTestTriage(TestId testId, const TestTriage& triage)
{
    const auto found = m_rowOfTest.find(testId);
    if (found == m_rowOfTest.end())
        return false;
    m_triage[found->second] = triage;
    m_classKeys[found->second] = classKey(triage);
    m_sorter.invalidate(TestsSortKey::Class);
    if (const QModelIndex cell = rowIndex(found->second, ClassColumn); cell.isValid())
        emit dataChanged(cell, cell);
    return true;
}

const TestTriage* TestsModel::triage(TestId testId) const
{
    const auto row = m_rowOfTest.find(testId);
    if (row == m_rowOfTest.end())
        return nullptr;
    const auto entry = m_triage.find(row->second);
    return entry == m_triage.end() ? nullptr : &entry->second;
}

void TestsModel::setFilter(const TestsFilter& filter)
{
    if (filter == m_filter)
        return;
    relayout([&] {
        m_filter = filter;
        rebuild();
    });
}

void TestsModel::sort(int column, Qt::SortOrder order)
{
    if (column < 0 || column >= ColumnCount)
        return;
    relayout([&] {
        m_sortColumn = column;
        m_sortOrder = order;
        m_order = m_sorter.order(sortSource(), sortKeyOf(column), order);
        rebuild();
    });
}

void TestsModel::setGrouping(Grouping grouping)
{
    if (grouping == m_grouping)
        return;
    beginResetModel();
    m_grouping = grouping;
    rebuild();
    endResetModel();
}

void TestsModel::rebuild()
{
    m_index.filterInto(m_filter, m_order, m_visible);
    m_slots.assign(m_results->size(), Slot{});
    m_groups.clear();
    if (m_grouping != Grouping::None) {
        rebuildGroups();
        return;
    }
    for (std::size_t i = 0; i < m_visible.size(); ++i)
        m_slots[m_visible[i]] = {-1, static_cast<std::int32_t>(i)};
}

void TestsModel::rebuildGroups()
{
    const std::size_t keys =
        m_grouping == Grouping::File ? m_index.fileCount() : m_index.classCount();
    m_groupOfKey.assign(keys, -1);
    for (Row row : m_visible) {
        const std::uint32_t key = groupKey(row);
        if (m_groupOfKey[key] < 0) {
            m_groupOfKey[key] = static_cast<std::int32_t>(m_groups.size());
            m_groups.push_back(Group{key, {}, 0, {}});
        }
        Group& group = m_groups[static_cast<std::size_t>(m_groupOfKey[key])];
        group.rows.push_back(row);
        ++group.counts[static_cast<std::size_t>(at(row).outcome)];
        group.seconds += std::max(0.0, at(row).durationSeconds);
    }
    std::sort(m_groups.begin(), m_groups.end(), [this](const Group& a, const Group& b) {
        const bool failsA = failing(a.counts) > 0;
        const bool failsB = failing(b.counts) > 0;
        if (failsA != failsB)
            return failsA;
        return naturalLess(groupLabel(a.key), groupLabel(b.key));
    });
    for (std::size_t g = 0; g < m_groups.size(); ++g) {
        m_groupOfKey[m_groups[g].key] = static_cast<std::int32_t>(g);
        const auto& rows = m_groups[g].rows;
        for (std::size_t i = 0; i < rows.size(); ++i)
            m_slots[rows[i]] = {static_cast<std::int32_t>(g), static_cast<std::int32_t>(i)};
    }
}

TestsModel::Target TestsModel::targetOf(const QModelIndex& index) const
{
    if (isGroup(index))
        return {true, m_groups[static_cast<std::size_t>(index.row())].key, index.column()};
    return {false, rowAt(index), index.column()};
}

QModelIndex TestsModel::indexOf(const Target& target) const
{
    if (!target.isGroup)
        return rowIndex(target.id, target.column);
    const std::int32_t group = m_groupOfKey[target.id];
    return group < 0 ? QModelIndex() : createIndex(group, target.column, quintptr{0});
}

void TestsModel::relayout(const std::function<void()>& change)
{
    emit layoutAboutToBeChanged();
    const QModelIndexList before = persistentIndexList();
    std::vector<Target> targets;
    targets.reserve(static_cast<std::size_t>(before.size()));
    for (const QModelIndex& index : before)
        targets.push_back(targetOf(index));
    change();
    QModelIndexList after;
    after.reserve(before.size());
    for (const Target& target : targets)
        after.append(indexOf(target));
    changePersistentIndexList(before, after);
    emit layoutChanged();
}

} // namespace relayhud::ui
