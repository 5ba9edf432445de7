// Shards of one job in one column showing the worst status (issue 17), as the
// PyTorch HUD's per-backend CRCR page groups numeric-suffix jobs
// (pytorch/test-infra torchci/pages/crcr/[org]/[repo].tsx detectGroups() and
// GroupedJobCell, @61a77570): the grouping rule, the worst-status order, the
// model's folded and expanded columns, and the header's click.
#include "relayhud/ui/matrix/job_header_view.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/matrix/shard_groups.h"

#include "test_support.h"

#include <QSignalSpy>
#include <QTest>

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

namespace {

std::vector<std::string> jobs(const MatrixSnapshot& snap)
{
    std::vector<std::string> out;
    for (const MatrixColumn& c : snap.columns)
        out.push_back(c.job);
    return out;
}

const std::string kShard1 = "test (default, 1, 3, linux.spyre.1)";
const std::string kShard2 = "test (default, 2, 3, linux.spyre.1)";
const std::string kShard3 = "test (default, 3, 3, linux.spyre.1)";

// org/a: three shards of "test (default, i, 3, ...)", a lint, and two
// "build-N" jobs (too few for the HUD's suffix rule); org/b: "e2e-1..3".
MatrixSnapshot sharded()
{
    MatrixSnapshot snap = snapshot(
        {commit("aaaa1111", 200, 5), commit("bbbb2222", 100, 6)},
        {column("org/a", "build-1", 1), column("org/a", "build-2", 2), column("org/a", "lint", 3),
         column("org/a", kShard1, 4), column("org/a", kShard2, 5), column("org/a", kShard3, 6),
         column("org/b", "e2e-1", 7), column("org/b", "e2e-2", 8), column("org/b", "e2e-3", 9)});
    // Row 0: shard 2 failed, shard 3 still running; e2e: one cancelled.
    setCell(snap, 0, 3, cell(Conclusion::Success, 11));
    setCell(snap, 0, 4, cell(Conclusion::Failure, 12));
    setCell(snap, 0, 5, running(13));
    setCell(snap, 0, 6, cell(Conclusion::Success, 14));
    setCell(snap, 0, 7, cell(Conclusion::Cancelled, 15));
    // Row 1: shard 1 timed out and shard 3 failed (tie: the first wins);
    // e2e: nothing ran.
    setCell(snap, 1, 3, cell(Conclusion::TimedOut, 21));
    setCell(snap, 1, 4, cell(Conclusion::Success, 22));
    setCell(snap, 1, 5, cell(Conclusion::Failure, 23));
    return snap;
}

} // namespace

TEST(ShardGroups, ShardsOfOneJobAndThreeSuffixJobsShareAColumn)
{
    const ShardMatrix grouped = groupShards(sharded(), {});
    EXPECT_THAT(jobs(grouped.matrix), ElementsAre("build-1", "build-2", "lint", kShard1, "e2e-1"));
    ASSERT_EQ(grouped.columns.size(), 5u);
    EXPECT_TRUE(grouped.columns[0].family.isEmpty()) << "two build-N jobs: under the HUD's 3";
    EXPECT_EQ(grouped.columns[3].members, 3);
    EXPECT_EQ(grouped.columns[3].groupName, QStringLiteral("default"));
    EXPECT_THAT(grouped.columns[3].memberColumns, ElementsAre(3, 4, 5));
    EXPECT_EQ(grouped.columns[4].groupName, QStringLiteral("e2e"));
    EXPECT_EQ(grouped.matrix.rows.size(), 2u);
    EXPECT_EQ(grouped.matrix.cells.size(), 10u);
}

TEST(ShardGroups, TheGroupCellIsTheWorstMemberInTheHudsOrder)
{
    const ShardMatrix grouped = groupShards(sharded(), {});
    // failure > in progress > success
    EXPECT_EQ(grouped.matrix.cell(0, 3).runRowId, CheckRunRow{12});
    // timed out and failure are equally bad: the first member wins
    EXPECT_EQ(grouped.matrix.cell(1, 3).runRowId, CheckRunRow{21});
    EXPECT_EQ(grouped.matrix.cell(0, 4).runRowId, CheckRunRow{15}); // cancelled over nothing
    EXPECT_TRUE(grouped.matrix.cell(1, 4).empty());
    EXPECT_EQ(shardSeverity(cell(Conclusion::Failure, 1)), 3);
    EXPECT_EQ(shardSeverity(cell(Conclusion::TimedOut, 1)), 3);
    EXPECT_EQ(shardSeverity(cell(Conclusion::Cancelled, 1)), 2);
    EXPECT_EQ(shardSeverity(running(1)), 1);
    EXPECT_EQ(shardSeverity(cell(Conclusion::Success, 1)), 0);
    EXPECT_EQ(shardSeverity(cell(Conclusion::Skipped, 1)), 0);
    EXPECT_EQ(shardSeverity(MatrixCell{}), -1);
}

TEST(ShardGroups, AnUntriagedMemberMarksTheGroupUntriaged)
{
    MatrixSnapshot snap = sharded();
    MatrixCell triaged = cell(Conclusion::Failure, 21);
    triaged.flags |= MatrixCell::Triaged;
    MatrixCell untriaged = cell(Conclusion::Failure, 23);
    untriaged.flags |= MatrixCell::Untriaged;
    setCell(snap, 1, 3, triaged);
    setCell(snap, 1, 5, untriaged);
    const MatrixCell group = groupShards(snap, {}).matrix.cell(1, 3);
    EXPECT_EQ(group.runRowId, CheckRunRow{21});
    EXPECT_TRUE(group.has(MatrixCell::Untriaged));
    EXPECT_FALSE(group.has(MatrixCell::Triaged));
}

TEST(ShardGroups, AnExpandedGroupShowsItsMembersOneByOne)
{
    const ShardMatrix folded = groupShards(sharded(), {});
    const QString family = folded.columns[3].family;
    const ShardMatrix open = groupShards(sharded(), {family});
    EXPECT_THAT(jobs(open.matrix),
                ElementsAre("build-1", "build-2", "lint", kShard1, kShard2, kShard3, "e2e-1"));
    EXPECT_TRUE(open.columns[4].expanded);
    EXPECT_THAT(open.columns[4].memberColumns, IsEmpty());
    EXPECT_EQ(open.matrix.cell(0, 4).runRowId, CheckRunRow{12});
    EXPECT_EQ(open.matrix.cell(0, 3).runRowId, CheckRunRow{11}) << "shard 1 is itself again";
}

TEST(ShardGroups, TheSameJobNamesInTwoBackendsAreTwoGroups)
{
    MatrixSnapshot snap = snapshot({commit("aaaa1111", 200, 5)},
                                   {column("org/a", kShard1, 1), column("org/a", kShard2, 2),
                                    column("org/b", kShard1, 3), column("org/b", kShard2, 4)});
    const ShardMatrix grouped = groupShards(snap, {});
    ASSERT_EQ(grouped.columns.size(), 2u);
    EXPECT_NE(grouped.columns[0].family, grouped.columns[1].family);
    EXPECT_EQ(grouped.matrix.columns[1].backend, "org/b");
}

TEST(ShardGroupModel, FoldedByDefaultAClickOnTheLabelOpensAndFoldsIt)
{
    MatrixModel model;
    model.merge(sharded());
    MatrixFilterProxy proxy;
    proxy.setSourceModel(&model);
    CheckedModel checked(&proxy);
    ASSERT_EQ(proxy.columnCount(), 5);
    const int group = 3;
    EXPECT_EQ(proxy.headerData(group, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt(), 3);
    EXPECT_EQ(proxy.index(0, group).data(MatrixModel::RunRowIdRole).toLongLong(), 12);
    EXPECT_THAT(proxy.index(0, group).data(Qt::ToolTipRole).toString().toStdString(),
                HasSubstr("the worst of 3 shards"))
        << proxy.index(0, group).data(Qt::ToolTipRole).toString().toStdString();
    EXPECT_THAT(proxy.index(0, group).data(Qt::ToolTipRole).toString().toStdString(),
                HasSubstr(kShard3 + ": in progress"));
    // A change on any member marks the folded column.
    model.setUnseen({13}); // shard 3, in progress
    EXPECT_TRUE(proxy.index(0, group).data(MatrixModel::UnseenRole).toBool());

    QItemSelectionModel selection(&proxy);
    selection.setCurrentIndex(proxy.index(0, group), QItemSelectionModel::ClearAndSelect);
    MatrixView view;
    view.setModel(&proxy);
    view.resize(600, 360);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    keepPictures(view, QStringLiteral("shard-group-folded"));
    JobHeaderView* header = view.jobHeader();
    QSignalSpy toggled(header, &JobHeaderView::shardGroupToggled);
    const auto labelOf = [&](int column) {
        return QPoint(header->sectionViewportPosition(column) + 5, header->height() - 10);
    };
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, labelOf(2)); // lint
    EXPECT_TRUE(toggled.isEmpty());
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, labelOf(group));
    ASSERT_EQ(toggled.count(), 1);
    const QString family =
        proxy.headerData(group, Qt::Horizontal, MatrixModel::ShardFamilyRole).toString();
    model.setShardGroupExpanded(family, true);
    ASSERT_EQ(proxy.columnCount(), 7);
    EXPECT_EQ(proxy.headerData(group, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt(), 0);
    EXPECT_TRUE(
        proxy.headerData(group + 1, Qt::Horizontal, MatrixModel::ShardExpandedRole).toBool());
    EXPECT_EQ(proxy.headerData(group + 2, Qt::Horizontal, MatrixModel::JobRole).toString(),
              QString::fromStdString(kShard3));
    EXPECT_EQ(proxy.index(0, group).data(MatrixModel::RunRowIdRole).toLongLong(), 11);
    keepPictures(view, QStringLiteral("shard-group-open"));
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, labelOf(group + 2));
    EXPECT_EQ(toggled.count(), 2) << "a shown shard's label folds its group";

    model.setShardGrouping(false);
    EXPECT_EQ(proxy.columnCount(), 9);
    EXPECT_TRUE(
        proxy.headerData(group, Qt::Horizontal, MatrixModel::ShardFamilyRole).toString().isEmpty());
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(ShardGroupModel, RevealingARunOrAJobOpensItsGroup)
{
    MatrixModel model;
    model.merge(sharded());
    EXPECT_EQ(model.columnCount(), 5);
    model.revealRun(23); // shard 3 on the second row
    EXPECT_EQ(model.columnCount(), 7);
    model.revealJob("org/b", "ci", "e2e-2");
    EXPECT_EQ(model.columnCount(), 9);
    model.revealRun(999); // unknown: nothing changes
    model.revealJob("org/a", "ci", "lint");
    EXPECT_EQ(model.columnCount(), 9);
}
