// MatrixFilterProxy: row and column filters, and "hide all-green columns"
// that follows merges, under QAbstractItemModelTester.
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include "test_support.h"

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

// Rows: PR 1001 on main, a push to viable/strict, a nightly.
// Columns: org/a build (all green), org/a test (one red), org/b lint (green + running).
MatrixSnapshot proxySnapshot()
{
    auto snap = snapshot({commit("abc1234def", 300, 1001, "main"),
                          commit("0042ffee99", 200, 0, "viable/strict", EventType::Push),
                          commit("9999aaaa00", 100, 0, "main", EventType::Nightly)},
                         {column("org/a", "build", 1), column("org/a", "test (default, 1, 2)", 2),
                          column("org/b", "lint", 3, Level::L2)});
    setCell(snap, 0, 0, cell(Conclusion::Success, 1));
    setCell(snap, 1, 0, cell(Conclusion::Success, 2));
    setCell(snap, 0, 1, cell(Conclusion::Failure, 3));
    setCell(snap, 2, 1, cell(Conclusion::Success, 4));
    setCell(snap, 0, 2, cell(Conclusion::Success, 5));
    setCell(snap, 2, 2, running(6));
    return snap;
}

QStringList jobs(const QAbstractItemModel& m)
{
    QStringList out;
    for (int c = 0; c < m.columnCount(); ++c)
        out << m.headerData(c, Qt::Horizontal, MatrixModel::JobRole).toString();
    return out;
}

QStringList shas(const QAbstractItemModel& m)
{
    QStringList out;
    for (int r = 0; r < m.rowCount(); ++r)
        out << m.headerData(r, Qt::Vertical, MatrixModel::ShortShaRole).toString();
    return out;
}

class FilterProxyTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_model.merge(proxySnapshot());
        m_proxy.setSourceModel(&m_model);
        m_checked = std::make_unique<CheckedModel>(&m_proxy);
    }
    void TearDown() override { EXPECT_THAT(m_checked->warnings(), ::testing::IsEmpty()); }

    MatrixModel m_model;
    MatrixFilterProxy m_proxy;
    std::unique_ptr<CheckedModel> m_checked;
};

} // namespace

TEST_F(FilterProxyTest, NoFiltersShowEverything)
{
    EXPECT_EQ(m_proxy.rowCount(), 3);
    EXPECT_EQ(m_proxy.columnCount(), 3);
}

TEST_F(FilterProxyTest, BackendFilterKeepsOnlyTheirJobs)
{
    m_proxy.setBackends({QStringLiteral("org/b")});
    EXPECT_THAT(jobs(m_proxy), ::testing::ElementsAre(QStringLiteral("lint")));
    EXPECT_EQ(m_proxy.rowCount(), 3);
    m_proxy.setBackends({QStringLiteral("org/a"), QStringLiteral("org/b")});
    EXPECT_EQ(m_proxy.columnCount(), 3);
}

TEST_F(FilterProxyTest, ShaPrefixAndPrNumberSelectRows)
{
    m_proxy.setText(QStringLiteral("abc1"));
    EXPECT_THAT(shas(m_proxy), ::testing::ElementsAre(QStringLiteral("abc1234")));
    m_proxy.setText(QStringLiteral("#1001"));
    EXPECT_THAT(shas(m_proxy), ::testing::ElementsAre(QStringLiteral("abc1234")));
    // Digits match a PR number or a SHA prefix.
    m_proxy.setText(QStringLiteral("0042"));
    EXPECT_THAT(shas(m_proxy), ::testing::ElementsAre(QStringLiteral("0042ffe")));
    EXPECT_EQ(m_proxy.columnCount(), 3);
}

TEST_F(FilterProxyTest, OtherTextSelectsJobColumns)
{
    m_proxy.setText(QStringLiteral("DEFAULT"));
    EXPECT_THAT(jobs(m_proxy), ::testing::ElementsAre(QStringLiteral("test (default, 1, 2)")));
    EXPECT_EQ(m_proxy.rowCount(), 3);
}

TEST_F(FilterProxyTest, BranchAndEventTypeSelectRows)
{
    m_proxy.setBranch(QStringLiteral("main"));
    EXPECT_THAT(shas(m_proxy),
                ::testing::ElementsAre(QStringLiteral("abc1234"), QStringLiteral("9999aaa")));
    m_proxy.setEventType(static_cast<int>(EventType::Nightly));
    EXPECT_THAT(shas(m_proxy), ::testing::ElementsAre(QStringLiteral("9999aaa")));
    m_proxy.resetFilters();
    EXPECT_EQ(m_proxy.rowCount(), 3);
}

TEST_F(FilterProxyTest, HideAllGreenDropsColumnsWithNothingToLookAt)
{
    m_proxy.setHideAllGreen(true);
    EXPECT_THAT(jobs(m_proxy), ::testing::ElementsAre(QStringLiteral("test (default, 1, 2)"),
                                                      QStringLiteral("lint")));
}

TEST_F(FilterProxyTest, HideAllGreenOnlyLooksAtVisibleRows)
{
    m_proxy.setHideAllGreen(true);
    m_proxy.setBranch(QStringLiteral("viable/strict"));
    EXPECT_EQ(m_proxy.rowCount(), 0) << "its one commit is all green";
    EXPECT_EQ(m_proxy.columnCount(), 0);
}

TEST_F(FilterProxyTest, HideGreenHidesGreenRowsAsWellAsColumns)
{
    m_proxy.setHideAllGreen(true);
    EXPECT_THAT(shas(m_proxy),
                ::testing::ElementsAre(QStringLiteral("abc1234"), QStringLiteral("9999aaa")));
    EXPECT_THAT(jobs(m_proxy), ::testing::ElementsAre(QStringLiteral("test (default, 1, 2)"),
                                                      QStringLiteral("lint")));
    // A row is judged by the columns the other filters keep: lint alone
    // leaves the nightly (running), not the PR (green lint).
    m_proxy.setBackends({QStringLiteral("org/b")});
    EXPECT_THAT(shas(m_proxy), ::testing::ElementsAre(QStringLiteral("9999aaa")));
}

TEST_F(FilterProxyTest, FailuresOnlyAndUntriagedOnlyKeepRowsAndColumnsWithSuchACell)
{
    auto next = proxySnapshot();
    MatrixCell triaged = cell(Conclusion::Failure, 3);
    triaged.flags |= MatrixCell::Triaged;
    setCell(next, 0, 1, triaged); // the PR's test failure: classed
    MatrixCell untriaged = cell(Conclusion::Cancelled, 2);
    untriaged.flags |= MatrixCell::Untriaged;
    setCell(next, 1, 0, untriaged); // the push's build: cancelled, nobody looked
    m_model.merge(next);

    m_proxy.setCellFilter(CellFilter::Failures);
    EXPECT_THAT(shas(m_proxy),
                ::testing::ElementsAre(QStringLiteral("abc1234"), QStringLiteral("0042ffe")));
    EXPECT_THAT(jobs(m_proxy), ::testing::ElementsAre(QStringLiteral("build"),
                                                      QStringLiteral("test (default, 1, 2)")));
    m_proxy.setCellFilter(CellFilter::Untriaged);
    EXPECT_THAT(shas(m_proxy), ::testing::ElementsAre(QStringLiteral("0042ffe")));
    EXPECT_THAT(jobs(m_proxy), ::testing::ElementsAre(QStringLiteral("build")));
    EXPECT_FALSE(m_proxy.filters().hideAllGreen);

    // Tagging it (the next snapshot) takes it away; hide green replaces the filter.
    untriaged.flags = MatrixCell::Triaged;
    setCell(next, 1, 0, untriaged);
    m_model.merge(next);
    EXPECT_EQ(m_proxy.rowCount(), 0);
    m_proxy.setHideAllGreen(true);
    EXPECT_EQ(m_proxy.filters().cells, CellFilter::Any);
    EXPECT_EQ(m_proxy.rowCount(), 3);
}

TEST_F(FilterProxyTest, HideAllGreenFollowsAMerge)
{
    m_proxy.setHideAllGreen(true);
    auto next = proxySnapshot();
    setCell(next, 1, 0, cell(Conclusion::Failure, 2, 2)); // build turns red
    setCell(next, 0, 1, cell(Conclusion::Success, 3, 2)); // test turns green
    m_model.merge(next);
    EXPECT_THAT(jobs(m_proxy),
                ::testing::ElementsAre(QStringLiteral("build"), QStringLiteral("lint")));
}

TEST_F(FilterProxyTest, NewRowsAndColumnsPassThroughFilters)
{
    m_proxy.setBackends({QStringLiteral("org/a")});
    auto next = proxySnapshot();
    next.rows.insert(next.rows.begin(), commit("fff0000111", 400, 1002));
    next.columns.insert(next.columns.begin() + 2, column("org/a", "docs", 7));
    next.cells.assign(next.rows.size() * next.columns.size(), MatrixCell{});
    m_model.merge(next);
    EXPECT_EQ(m_proxy.rowCount(), 4);
    EXPECT_THAT(jobs(m_proxy), ::testing::ElementsAre(QStringLiteral("build"),
                                                      QStringLiteral("test (default, 1, 2)"),
                                                      QStringLiteral("docs")));
}

TEST_F(FilterProxyTest, FiltersChangedIsEmittedOncePerChange)
{
    int changes = 0;
    QObject::connect(&m_proxy, &MatrixFilterProxy::filtersChanged, [&] { ++changes; });
    m_proxy.setText(QStringLiteral("lint"));
    m_proxy.setText(QStringLiteral("lint"));
    EXPECT_EQ(changes, 1);
}
