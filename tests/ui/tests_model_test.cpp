// TestsModel: flat and grouped, filtered and sorted, always under
// QAbstractItemModelTester; persistent indexes follow their tests.
#include "relayhud/ui/tests/history_strip.h"
#include "relayhud/ui/tests/outcome_style.h"
#include "relayhud/ui/tests/tests_model.h"

#include "test_support.h"
#include "tests_fixtures.h"

#include <QFont>
#include <QSignalSpy>

#include <cmath>

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using ::testing::IsEmpty;
using Grouping = TestsModel::Grouping;
using O = std::optional<TestOutcome>;

namespace {

std::vector<StoredTestResult> modelSample()
{
    return {
        test::result(11, "test_ops.py", "TestCommonPRIVATEUSE1", "test_x_10", TestOutcome::Passed,
                     "op__add,dtype__float16"),
        test::result(12, "test_ops.py", "TestCommonPRIVATEUSE1", "test_x_2", TestOutcome::Failed,
                     "op__add,dtype__int8", "AssertionError: not close\nMismatched elements: 3"),
        test::result(13, "test_view_ops.py", "TestViewOps", "test_view", TestOutcome::Passed),
        test::result(14, "test_view_ops.py", "TestViewOps", "test_t", TestOutcome::Skipped, "",
                     "requires a second device"),
        test::result(15, "test_nn.py", "", "test_relu", TestOutcome::Error, "op__relu",
                     "RuntimeError: setup broke"),
    };
}

QStringList column(const QAbstractItemModel& model, int col, const QModelIndex& parent = {})
{
    QStringList values;
    for (int row = 0; row < model.rowCount(parent); ++row)
        values << model.index(row, col, parent).data().toString();
    return values;
}

} // namespace

TEST(TestsModel, ShowsOneRowPerTestFailingFirst)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    model.setResults(modelSample(), {});
    ASSERT_EQ(model.rowCount(), 5);
    ASSERT_EQ(model.columnCount(), TestsModel::ColumnCount);
    EXPECT_EQ(column(model, TestsModel::OutcomeColumn),
              (QStringList{u"failed"_qs, u"error"_qs, u"skipped"_qs, u"passed"_qs, u"passed"_qs}));
    EXPECT_EQ(column(model, TestsModel::TestColumn),
              (QStringList{u"TestCommonPRIVATEUSE1::test_x_2"_qs, u"test_relu"_qs,
                           u"TestViewOps::test_t"_qs, u"TestCommonPRIVATEUSE1::test_x_10"_qs,
                           u"TestViewOps::test_view"_qs}));
    const QModelIndex first = model.index(0, TestsModel::MessageColumn);
    EXPECT_EQ(first.data().toString(), u"AssertionError: not close ↵ Mismatched elements: 3"_qs);
    EXPECT_EQ(first.siblingAtColumn(TestsModel::OpColumn).data().toString(), u"add"_qs);
    EXPECT_EQ(first.siblingAtColumn(TestsModel::DtypeColumn).data().toString(), u"int8"_qs);
    EXPECT_EQ(first.siblingAtColumn(TestsModel::FileColumn).data().toString(), u"test_ops.py"_qs);
    EXPECT_EQ(first.data(TestsModel::TestIdRole).toLongLong(), 12);
    EXPECT_EQ(first.data(TestsModel::OutcomeRole).toInt(), static_cast<int>(TestOutcome::Failed));
    EXPECT_TRUE(first.siblingAtColumn(TestsModel::TestColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"test_ops.py::TestCommonPRIVATEUSE1::test_x_2"_qs));
    EXPECT_EQ(model.result(first)->testId, TestId{12});
    EXPECT_EQ(model.visibleTestCount(), 5u);
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(TestsModel, SortsAnyColumnNaturally)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    model.setResults(modelSample(), {});
    model.sort(TestsModel::TestColumn, Qt::AscendingOrder);
    // As shown, without case: "test_relu" before "TestCommon…" ('_' < 'c').
    EXPECT_EQ(column(model, TestsModel::TestColumn).mid(0, 3),
              (QStringList{u"test_relu"_qs, u"TestCommonPRIVATEUSE1::test_x_2"_qs,
                           u"TestCommonPRIVATEUSE1::test_x_10"_qs}));
    model.sort(TestsModel::DurationColumn, Qt::DescendingOrder);
    EXPECT_EQ(model.index(0, 0).data(TestsModel::TestIdRole).toLongLong(), 15);
    // Durations a report gets wrong (NaN, negative) sort last and read as "—".
    auto odd = modelSample();
    odd[0].durationSeconds = std::nan("");
    odd[1].durationSeconds = -5;
    model.setResults(std::move(odd), {});
    EXPECT_EQ(model.index(3, TestsModel::DurationColumn).data().toString(), u"—"_qs);
    EXPECT_EQ(model.index(4, TestsModel::DurationColumn).data().toString(), u"—"_qs);
    model.sort(TestsModel::OpColumn, Qt::AscendingOrder);
    EXPECT_EQ(column(model, TestsModel::OpColumn),
              (QStringList{u"add"_qs, u"add"_qs, u"relu"_qs, QString(), QString()}));
    EXPECT_EQ(model.sortColumn(), TestsModel::OpColumn);
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(TestsModel, FilterMovesPersistentIndexesWithTheirTests)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    model.setResults(modelSample(), {});
    const QPersistentModelIndex view(model.indexOfTest(TestId{13}, TestsModel::TestColumn));
    const QPersistentModelIndex failed(model.indexOfTest(TestId{12}));
    ASSERT_EQ(view.row(), 4);
    TestsFilter filter;
    filter.text = u"view"_qs;
    QSignalSpy layouts(&model, &QAbstractItemModel::layoutChanged);
    model.setFilter(filter);
    EXPECT_EQ(layouts.count(), 1);
    EXPECT_EQ(model.rowCount(), 2);
    EXPECT_EQ(view.row(), 1);
    EXPECT_EQ(view.column(), TestsModel::TestColumn);
    EXPECT_EQ(view.data(TestsModel::TestIdRole).toLongLong(), 13);
    EXPECT_FALSE(failed.isValid()); // filtered out
    EXPECT_FALSE(model.indexOfTest(TestId{12}).isValid());
    model.setFilter(filter); // unchanged: no layout change
    EXPECT_EQ(layouts.count(), 1);
    filter = {};
    filter.outcomes = outcomeBit(TestOutcome::Passed) | outcomeBit(TestOutcome::Error);
    model.setFilter(filter);
    EXPECT_EQ(model.rowCount(), 3);
    EXPECT_EQ(view.data(TestsModel::TestIdRole).toLongLong(), 13);
    filter.dtype = u"float16"_qs;
    model.setFilter(filter);
    EXPECT_EQ(column(model, TestsModel::TestColumn),
              (QStringList{u"TestCommonPRIVATEUSE1::test_x_10"_qs}));
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(TestsModel, GroupsByFileAsATreeWithCounts)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    model.setResults(modelSample(), {});
    model.setGrouping(Grouping::File);
    ASSERT_EQ(model.rowCount(), 3);
    // Failing groups first, then by name.
    EXPECT_EQ(column(model, TestsModel::TestColumn),
              (QStringList{u"test_nn.py — 1 error"_qs, u"test_ops.py — 1 failed · 1 passed"_qs,
                           u"test_view_ops.py — 1 passed · 1 skipped"_qs}));
    const QModelIndex ops = model.index(1, 0);
    EXPECT_TRUE(ops.data(TestsModel::GroupRole).toBool());
    EXPECT_EQ(ops.data(TestsModel::GroupNameRole).toString(), u"test_ops.py"_qs);
    EXPECT_EQ(ops.data(TestsModel::OutcomeRole).toInt(), static_cast<int>(TestOutcome::Failed));
    EXPECT_TRUE(ops.data(Qt::FontRole).value<QFont>().bold());
    EXPECT_EQ(model.result(ops), nullptr);
    ASSERT_EQ(model.rowCount(ops), 2);
    EXPECT_EQ(model.rowCount(ops.siblingAtColumn(1)), 0); // only column 0 has children
    const QModelIndex child = model.index(0, TestsModel::TestColumn, ops);
    EXPECT_EQ(child.data().toString(), u"TestCommonPRIVATEUSE1::test_x_2"_qs);
    EXPECT_EQ(child.parent(), ops);
    EXPECT_EQ(model.indexOfTest(TestId{12}, TestsModel::TestColumn), child);
    EXPECT_EQ(model.index(0, 0, model.index(2, 0)).data(TestsModel::OutcomeRole).toInt(),
              static_cast<int>(TestOutcome::Skipped));
    EXPECT_EQ(model.index(2, 0).data(TestsModel::OutcomeRole).toInt(),
              static_cast<int>(TestOutcome::Passed)); // a skip among passes is no headline
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(TestsModel, GroupedFilterKeepsGroupsAndChildrenIndexed)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    model.setResults(modelSample(), {});
    model.setGrouping(Grouping::Class);
    ASSERT_EQ(model.rowCount(), 3);
    const QPersistentModelIndex viewGroup(model.index(2, 0));
    ASSERT_EQ(viewGroup.data(TestsModel::GroupNameRole).toString(),
              u"test_view_ops.py::TestViewOps"_qs);
    const QPersistentModelIndex skipped(model.indexOfTest(TestId{14}, TestsModel::MessageColumn));
    TestsFilter filter;
    filter.outcomes = outcomeBit(TestOutcome::Skipped) | outcomeBit(TestOutcome::Failed);
    model.setFilter(filter);
    ASSERT_EQ(model.rowCount(), 2);
    EXPECT_EQ(viewGroup.row(), 1);
    EXPECT_EQ(skipped.parent(), QModelIndex(viewGroup));
    EXPECT_EQ(skipped.row(), 0);
    EXPECT_EQ(skipped.data().toString(), u"requires a second device"_qs);
    EXPECT_EQ(model.index(0, TestsModel::TestColumn).data().toString(),
              u"test_ops.py::TestCommonPRIVATEUSE1 — 1 failed"_qs);
    filter.outcomes = outcomeBit(TestOutcome::Error);
    model.setFilter(filter);
    EXPECT_FALSE(viewGroup.isValid());
    EXPECT_EQ(column(model, TestsModel::TestColumn), (QStringList{u"test_nn.py — 1 error"_qs}));
    model.setGrouping(Grouping::None);
    EXPECT_EQ(model.rowCount(), 1);
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(TestsModel, HistoriesGiveStripsAndBadges)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    model.setResults(modelSample(),
                     {test::history(12, {O(TestOutcome::Passed), std::nullopt,
                                         O(TestOutcome::Passed), O(TestOutcome::Failed)}),
                      test::history(999, {O(TestOutcome::Failed)})});
    const QModelIndex failed = model.indexOfTest(TestId{12}, TestsModel::HistoryColumn);
    const QByteArray squares = failed.data(TestsModel::HistoryStripRole).toByteArray();
    ASSERT_EQ(squares.size(), 4);
    EXPECT_EQ(static_cast<StripSquare>(squares[1]), StripSquare::Missing);
    EXPECT_EQ(static_cast<StripSquare>(squares[3]), StripSquare::Failing);
    EXPECT_EQ(failed.data(TestsModel::HistoryBadgeRole).toInt(),
              static_cast<int>(TestsModel::HistoryBadge::NewFailure));
    EXPECT_TRUE(failed.data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"the job's run before, of any PR, passed"_qs));
    EXPECT_TRUE(model.indexOfTest(TestId{11}, TestsModel::HistoryColumn)
                    .data(TestsModel::HistoryStripRole)
                    .toByteArray()
                    .isEmpty());

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    EXPECT_TRUE(
        model.setHistory(test::history(15, {O(TestOutcome::Error), O(TestOutcome::Error)})));
    ASSERT_EQ(changed.count(), 1);
    EXPECT_EQ(model.indexOfTest(TestId{15}).data(TestsModel::HistoryBadgeRole).toInt(),
              static_cast<int>(TestsModel::HistoryBadge::FailedBefore));
    EXPECT_FALSE(model.setHistory(test::history(999, {O(TestOutcome::Passed)})));
    EXPECT_NE(model.history(TestId{15}), nullptr);
    EXPECT_EQ(model.history(TestId{11}), nullptr);
    model.sort(TestsModel::HistoryColumn, Qt::AscendingOrder);
    EXPECT_EQ(model.index(0, 0).data(TestsModel::TestIdRole).toLongLong(), 12); // new first
    EXPECT_EQ(model.index(1, 0).data(TestsModel::TestIdRole).toLongLong(), 15);
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(TestsModel, CiTextStaysPlainAndBounded)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    const std::string huge =
        "<b>bold</b> <img src=x onerror=alert(1)> " + std::string(10 << 20, 'y');
    std::vector<StoredTestResult> results{
        test::result(1, "a.py", "T", "t<script>", TestOutcome::Failed, "", huge),
        test::result(2, "a.py", "T", "bad", TestOutcome::Failed, "",
                     std::string("\xff\xfe\xc3 broken\r\nsecond line"))};
    model.setResults(std::move(results), {});
    const QModelIndex message = model.indexOfTest(TestId{1}, TestsModel::MessageColumn);
    EXPECT_LE(message.data().toString().size(), 161);
    const QString tip = message.data(Qt::ToolTipRole).toString();
    EXPECT_LE(tip.size(), 2200);
    EXPECT_TRUE(tip.contains(u"&lt;b&gt;bold&lt;/b&gt;"_qs));
    EXPECT_FALSE(tip.contains(u"<b>"_qs));
    EXPECT_TRUE(model.indexOfTest(TestId{1}, TestsModel::TestColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(u"t&lt;script&gt;"_qs));
    EXPECT_EQ(model.indexOfTest(TestId{2}, TestsModel::MessageColumn).data().toString(),
              QStringLiteral("\ufffd\ufffd\ufffd broken ↵ second line"));
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(TestsModel, NewResultsKeepFilterButDropMissingChoices)
{
    TestsModel model;
    test::CheckedModel checked(&model);
    model.setResults(modelSample(), {});
    TestsFilter filter;
    filter.file = u"test_nn.py"_qs;
    filter.text = u"relu"_qs;
    model.setFilter(filter);
    model.setGrouping(Grouping::File);
    EXPECT_EQ(model.rowCount(), 1);
    model.setResults({test::result(1, "other.py", "", "test_relu", TestOutcome::Passed)}, {});
    EXPECT_EQ(model.filter().file, QString());
    EXPECT_EQ(model.filter().text, u"relu"_qs);
    EXPECT_EQ(model.grouping(), Grouping::File);
    EXPECT_EQ(model.rowCount(), 1);
    model.setResults(std::vector<StoredTestResult>{}, {});
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.testCount(), 0u);
    EXPECT_THAT(checked.warnings(), IsEmpty());
}
