#pragma once
// The tests table: one run's test results, filtered, sorted and optionally
// grouped by file or class (a two-level tree whose group rows carry counts).
//
// Built for 100,000 rows: the model keeps the visible rows as a vector of
// indices into the results and rebuilds it per filter in one pass over a
// TestsIndex; a filter or sort is a layout change that moves persistent
// indexes (the selection survives), a grouping change a reset. data() is
// asked only for the rows on screen.
#include "relayhud/model/test_results.h"
#include "relayhud/ui/tests/tests_filter.h"
#include "relayhud/ui/tests/tests_index.h"
#include "relayhud/ui/tests/tests_panel_data.h"
#include "relayhud/ui/tests/tests_sort.h"

#include <QAbstractItemModel>
#include <QByteArray>

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace relayhud::ui {

class TestsModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column {
        OutcomeColumn,
        TestColumn,
        FileColumn,
        OpColumn,
        DtypeColumn,
        DurationColumn,
        HistoryColumn,
        MessageColumn,
        ClassColumn, // shown second (TestsPanel moves it); last here to keep the sort keys
        ColumnCount
    };
    enum Role {
        OutcomeRole = Qt::UserRole, // int(TestOutcome); a group's worst outcome
        GroupRole,                  // bool: a group row
        TestIdRole,                 // qint64, test rows
        HistoryStripRole,           // QByteArray of StripSquare, oldest first; empty: none
        HistoryBadgeRole,           // int(HistoryBadge)
        GroupNameRole,              // QString: the group's file or file::Class
        IdentityRole,               // QString: file::Class::name, test rows
        ClassRole,                  // int(FailureClass) of a triaged or suggested test; else none
        ClassHumanRole,             // bool: ClassRole is a person's tag, not a suggestion
        // bool: ClassRole is a suggestion whose evidence is still being fetched
        ClassProvisionalRole,
    };
    enum class Grouping { None, File, Class };
    enum class HistoryBadge { None, NewFailure, FailedBefore };

    explicit TestsModel(QObject* parent = nullptr);

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

    // A new run: replaces everything (a new subject, not a refresh). The
    // filter, grouping and sort order stay. The results are shared, not
    // copied: 100,000 of them arrive from the loader in a shared_ptr.
    void setResults(std::shared_ptr<const std::vector<StoredTestResult>> results,
                    const std::vector<TestHistory>& histories);
    void setResults(std::vector<StoredTestResult> results,
                    const std::vector<TestHistory>& histories);
    void setFilter(const TestsFilter& filter);
    const TestsFilter& filter() const { return m_filter; }
    void setGrouping(Grouping grouping);
    Grouping grouping() const { return m_grouping; }
    // Adds or replaces one test's history; false when no row has that test.
    bool setHistory(TestHistory history);

    // Triage of the run's failures, by test id (TestsPanelData::triage);
    // replaces what there was.
    void setTriage(const std::unordered_map<TestId, TestTriage, IdHash>& triage);
    // One test's triage changed (a tag set or undone); false when no row has it.
    bool setTestTriage(TestId testId, const TestTriage& triage);
    // nullptr when the test has no triage entry (it did not fail).
    const TestTriage* triage(TestId testId) const;

    // nullptr for a group row or an invalid index.
    const StoredTestResult* result(const QModelIndex& index) const;
    const TestHistory* history(TestId testId) const;
    // The test's row when it passes the filter, else invalid.
    QModelIndex indexOfTest(TestId testId, int column = 0) const;
    std::size_t testCount() const { return m_results->size(); }
    std::size_t visibleTestCount() const { return m_visible.size(); }
    const std::vector<StoredTestResult>& results() const { return *m_results; }
    const TestsIndex& testsIndex() const { return m_index; }
    int sortColumn() const { return m_sortColumn; }
    Qt::SortOrder sortOrder() const { return m_sortOrder; }

private:
    using Row = TestsIndex::Row;
    struct Group {
        std::uint32_t key = 0; // file or class id
        std::array<int, kTestOutcomeCount> counts{};
        double seconds = 0;
        std::vector<Row> rows;
    };
    struct Slot { // where a row is shown: its group (-1 when flat) and position
        std::int32_t group = -1;
        std::int32_t position = -1;
    };
    struct HistoryEntry {
        TestHistory history;
        QByteArray squares;
        HistoryBadge badge = HistoryBadge::None;
    };
    // What a persistent index points at, independent of positions.
    struct Target {
        bool isGroup = false;
        std::uint32_t id = 0; // group key or result row
        int column = 0;
    };

    void rebuild();
    void rebuildGroups();
    void relayout(const std::function<void()>& change);
    Target targetOf(const QModelIndex& index) const;
    QModelIndex indexOf(const Target& target) const;
    QModelIndex rowIndex(Row row, int column) const;
    std::uint32_t groupKey(Row row) const;
    bool isGroup(const QModelIndex& index) const;
    const Group* groupAt(const QModelIndex& index) const;
    Row rowAt(const QModelIndex& index) const;
    void applyHistory(Row row, TestHistory history);
    TestsSorter::Source sortSource() const;

    QVariant testData(Row row, int column, int role) const;
    QVariant testDisplay(Row row, int column) const;
    QVariant testToolTip(Row row, int column) const;
    QVariant groupData(const Group& group, int column, int role) const;
    const std::string& groupLabel(std::uint32_t key) const;

    const StoredTestResult& at(Row row) const { return (*m_results)[row]; }

    std::shared_ptr<const std::vector<StoredTestResult>> m_results;
    TestsIndex m_index;
    TestsSorter m_sorter;
    std::unordered_map<TestId, Row, IdHash> m_rowOfTest;
    std::unordered_map<Row, HistoryEntry> m_histories;
    std::vector<std::uint8_t> m_historyKeys; // per row, the History column's sort key
    std::unordered_map<Row, TestTriage> m_triage;
    std::vector<std::uint8_t> m_classKeys; // per row, the Class column's sort key
    TestsFilter m_filter;
    Grouping m_grouping = Grouping::None;
    int m_sortColumn = OutcomeColumn;
    Qt::SortOrder m_sortOrder = Qt::AscendingOrder;
    std::vector<Row> m_order;   // every row, sorted
    std::vector<Row> m_visible; // the rows passing the filter, sorted
    std::vector<Group> m_groups;
    std::vector<Slot> m_slots; // per row
    std::vector<std::int32_t> m_groupOfKey;
};

// The Class cell's tooltip: who tagged it and why, or why it is suggested.
QString triageToolTip(const TestTriage& triage);

// "3 failed · 1,200 passed · 12 skipped": the non-zero counts, failing first.
QString testCountsText(const std::array<int, kTestOutcomeCount>& counts);

} // namespace relayhud::ui
