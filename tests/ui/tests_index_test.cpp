// The tests table's pure parts: natural order, filter words, the index's
// one-pass filter and the sorter's orders.
#include "relayhud/ui/tests/natural_order.h"
#include "relayhud/ui/tests/tests_index.h"
#include "relayhud/ui/tests/tests_sort.h"

#include "tests_fixtures.h"

#include <gmock/gmock.h>

#include <numeric>

using namespace relayhud;
using namespace relayhud::ui;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

std::vector<TestsIndex::Row> allRows(std::size_t count)
{
    std::vector<TestsIndex::Row> rows(count);
    std::iota(rows.begin(), rows.end(), TestsIndex::Row{0});
    return rows;
}

std::vector<StoredTestResult> indexSample()
{
    return {
        test::result(1, "test_ops.py", "TestCommonPRIVATEUSE1",
                     "test_compare_cpu_add_spyre_float16", TestOutcome::Failed,
                     "op__add,dtype__float16",
                     "AssertionError: Tensor-likes are not close!\nMismatched elements: 3"),
        test::result(2, "test_ops.py", "TestCommonPRIVATEUSE1", "test_compare_cpu_mul_spyre_int8",
                     TestOutcome::Passed, "op__mul,dtype__int8"),
        test::result(3, "test_view_ops.py", "TestOldViewOpsPRIVATEUSE1", "test_transposes_errors",
                     TestOutcome::XFailed, "", "NotImplementedError: aten::transpose"),
        test::result(4, "test_binary_ufuncs.py", "", "test_xor_spyre_int8", TestOutcome::Skipped,
                     "op__bitwise_xor,dtype__int8,dtype__bool"),
        test::result(5, "test_ops.py", "TestCommonPRIVATEUSE1",
                     "test_compare_cpu_Add_spyre_float32", TestOutcome::Error,
                     "op__add,dtype__float32", "RuntimeError: ÉCHEC du noyau"),
    };
}

} // namespace

TEST(NaturalOrder, NumbersByValueLettersWithoutCase)
{
    EXPECT_TRUE(naturalLess("test_x_2", "test_x_10"));
    EXPECT_FALSE(naturalLess("test_x_10", "test_x_2"));
    EXPECT_TRUE(naturalLess("TestA", "testb"));
    EXPECT_TRUE(naturalLess("shard 9 of 12", "shard 10 of 12"));
    EXPECT_EQ(naturalCompare("same", "same"), 0);
    EXPECT_NE(naturalCompare("Same", "same"), 0); // case breaks the tie: a strict order
    EXPECT_NE(naturalCompare("x01", "x1"), 0);
    EXPECT_TRUE(naturalLess("", "a"));
    EXPECT_TRUE(naturalLess("a", "a1"));
    // Digit runs longer than any integer type still compare by value.
    EXPECT_TRUE(naturalLess("v99999999999999999999999", "v100000000000000000000000"));
}

TEST(TestsFilter, WordsAreCaseFoldedAndDistinct)
{
    TestsFilter filter;
    filter.text = QStringLiteral("  Add\tFLOAT16  add \n");
    EXPECT_THAT(filter.words(), ElementsAre(QStringLiteral("add"), QStringLiteral("float16")));
    EXPECT_TRUE(TestsFilter{}.isEmpty());
    EXPECT_TRUE(filter.allowsOutcome(TestOutcome::Passed));
    filter.outcomes = outcomeBit(TestOutcome::Failed);
    EXPECT_FALSE(filter.allowsOutcome(TestOutcome::Passed));
    EXPECT_TRUE(filter.allowsOutcome(TestOutcome::Failed));
}

TEST(TestsIndex, FiltersByOutcomeFileOpDtypeAndWords)
{
    const auto results = indexSample();
    TestsIndex index;
    index.build(results);
    const auto rows = allRows(results.size());
    TestsFilter filter;
    EXPECT_EQ(index.filter(filter, rows), rows);
    filter.outcomes = outcomeBit(TestOutcome::Failed) | outcomeBit(TestOutcome::Error);
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(0u, 4u));
    filter = {};
    filter.file = QStringLiteral("test_ops.py");
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(0u, 1u, 4u));
    filter.op = QStringLiteral("add");
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(0u, 4u));
    filter = {};
    filter.dtype = QStringLiteral("bool"); // the second dtype of a case counts too
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(3u));
    filter = {};
    filter.text = QStringLiteral("COMPARE float");
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(0u, 4u));
    filter.text = QStringLiteral("compare mismatched"); // one word in the name, one in the message
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(0u));
    filter.text = QStringLiteral("échec"); // non-ASCII folds too
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(4u));
    filter.text = QStringLiteral("errors notimplementederror");
    EXPECT_THAT(index.filter(filter, rows), ElementsAre(2u));
    filter.text = QStringLiteral("nothing-like-this");
    EXPECT_THAT(index.filter(filter, rows), IsEmpty());
}

TEST(TestsIndex, KeepsTheGivenOrderAndSubset)
{
    const auto results = indexSample();
    TestsIndex index;
    index.build(results);
    TestsFilter filter;
    filter.text = QStringLiteral("spyre");
    EXPECT_THAT(index.filter(filter, {4, 3, 1, 0}), ElementsAre(4u, 3u, 1u, 0u));
    EXPECT_THAT(index.filter(filter, {2}), IsEmpty());
}

TEST(TestsIndex, UnknownChoiceShowsNothing)
{
    const auto results = indexSample();
    TestsIndex index;
    index.build(results);
    TestsFilter filter;
    filter.op = QStringLiteral("no-such-op");
    EXPECT_THAT(index.filter(filter, allRows(results.size())), IsEmpty());
}

TEST(TestsIndex, ChoicesCarryCountsInNaturalOrder)
{
    const auto results = indexSample();
    TestsIndex index;
    index.build(results);
    const auto files = index.fileChoices();
    ASSERT_EQ(files.size(), 3u);
    EXPECT_EQ(files[0].value, QStringLiteral("test_binary_ufuncs.py"));
    EXPECT_EQ(files[1].value, QStringLiteral("test_ops.py"));
    EXPECT_EQ(files[1].count, 3);
    const auto dtypes = index.dtypeChoices();
    ASSERT_EQ(dtypes.size(), 4u);
    EXPECT_EQ(dtypes[0].value, QStringLiteral("bool"));
    EXPECT_EQ(dtypes[3].value, QStringLiteral("int8"));
    EXPECT_EQ(dtypes[3].count, 2);
    EXPECT_EQ(index.className(index.classId(3)), "test_binary_ufuncs.py");
    EXPECT_EQ(index.className(index.classId(0)), "test_ops.py::TestCommonPRIVATEUSE1");
}

TEST(TestsIndex, HostileMarksAndTextAreHarmless)
{
    std::vector<StoredTestResult> results{
        test::result(1, "a.py", "T", "t1", TestOutcome::Passed, ",,op__,dtype__,op__add,,op__add"),
        test::result(2, "a.py", "T", "t2", TestOutcome::Failed, "op__x,garbage,dtype__",
                     std::string("bad \xff\xfe utf-8 \xc3") + std::string(10 << 20, 'x')),
        test::result(3, "", "", "", TestOutcome::Passed)};
    TestsIndex index;
    index.build(results);
    EXPECT_THAT(index.ops(0), ElementsAre("add"));
    EXPECT_THAT(index.dtypes(1), IsEmpty());
    const auto ops = index.opChoices();
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].value, QStringLiteral("add"));
    EXPECT_EQ(ops[0].count, 1); // a repeated tag counts once
    TestsFilter filter;
    filter.text = QStringLiteral("utf-8");
    EXPECT_THAT(index.filter(filter, allRows(3)), ElementsAre(1u));
    // Only the start of a 10 MB message is searched.
    filter.text = QString(64, u'x');
    EXPECT_THAT(index.filter(filter, allRows(3)), ElementsAre(1u));
    filter.text = QString(4000, u'x');
    EXPECT_THAT(index.filter(filter, allRows(3)), IsEmpty());
}

TEST(TestsSorter, OrdersByKeyThenAsTheResultsCame)
{
    const auto results = indexSample();
    TestsIndex index;
    index.build(results);
    const std::vector<std::uint8_t> historyKeys{4, 4, 0, 4, 1};
    const std::vector<std::uint8_t> classKeys{255, 0, 3, 255, 2};
    TestsSorter sorter;
    const TestsSorter::Source source{results, index, historyKeys, classKeys};
    EXPECT_THAT(sorter.order(source, TestsSortKey::Outcome, Qt::AscendingOrder),
                ElementsAre(0u, 4u, 2u, 3u, 1u)); // failed, error, xfailed, skipped, passed
    EXPECT_THAT(sorter.order(source, TestsSortKey::Outcome, Qt::DescendingOrder),
                ElementsAre(1u, 3u, 2u, 4u, 0u));
    // Ties (three tests of one file) keep the report's order, either way.
    EXPECT_THAT(sorter.order(source, TestsSortKey::File, Qt::DescendingOrder),
                ElementsAre(2u, 0u, 1u, 4u, 3u));
    EXPECT_THAT(sorter.order(source, TestsSortKey::History, Qt::AscendingOrder),
                ElementsAre(2u, 4u, 0u, 1u, 3u));
    // As the column reads, without case: "test_xor…" (no class) first as '_' < 'c';
    // "…_Add_…float32" after "…_add_…float16" as 16 < 32.
    EXPECT_THAT(sorter.order(source, TestsSortKey::Test, Qt::AscendingOrder),
                ElementsAre(3u, 0u, 4u, 1u, 2u));
    EXPECT_THAT(sorter.order(source, TestsSortKey::Op, Qt::AscendingOrder),
                ElementsAre(0u, 4u, 3u, 1u, 2u)); // tests without an op last
    // Untriaged first, then by class, tests without triage last; ties as they came.
    EXPECT_THAT(sorter.order(source, TestsSortKey::Class, Qt::AscendingOrder),
                ElementsAre(1u, 4u, 2u, 0u, 3u));
}
