// MatrixModel::merge: fine-grained signals (never a reset), selection kept
// across syncs, and the model always equal to the last snapshot.
#include "relayhud/ui/matrix/matrix_model.h"

#include "test_support.h"

#include <QItemSelectionModel>
#include <QSignalSpy>

#include <gmock/gmock.h>

#include <random>
#include <set>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

MatrixSnapshot base()
{
    auto snap = snapshot(
        {commit("sha-c", 300), commit("sha-b", 200), commit("sha-a", 100)},
        {column("org/a", "build", 1), column("org/a", "test", 3), column("org/b", "lint", 4)});
    setCell(snap, 0, 0, cell(Conclusion::Success, 1));
    setCell(snap, 1, 1, running(2));
    setCell(snap, 2, 2, cell(Conclusion::Failure, 3));
    return snap;
}

// base() after a sync: a newer commit on top, a new job between build and
// test, and the running cell finished red.
MatrixSnapshot afterSync()
{
    auto snap = snapshot(
        {commit("sha-d", 400), commit("sha-c", 300), commit("sha-b", 200), commit("sha-a", 100)},
        {column("org/a", "build", 1), column("org/a", "docs", 2), column("org/a", "test", 3),
         column("org/b", "lint", 4)});
    setCell(snap, 0, 3, running(9));
    setCell(snap, 1, 0, cell(Conclusion::Success, 1));
    setCell(snap, 2, 2, cell(Conclusion::Failure, 2, 2));
    setCell(snap, 3, 3, cell(Conclusion::Failure, 3));
    return snap;
}

void expectModelEquals(const MatrixModel& model, const MatrixSnapshot& snap)
{
    ASSERT_EQ(model.rowCount(), static_cast<int>(snap.rows.size()));
    ASSERT_EQ(model.columnCount(), static_cast<int>(snap.columns.size()));
    EXPECT_EQ(model.snapshot().rows, snap.rows);
    for (std::size_t c = 0; c < snap.columns.size(); ++c)
        EXPECT_EQ(model.snapshot().columns[c].job, snap.columns[c].job);
    EXPECT_EQ(model.snapshot().cells, snap.cells);
}

struct Spies {
    explicit Spies(MatrixModel& m)
        : rowsInserted(&m, &QAbstractItemModel::rowsInserted),
          columnsInserted(&m, &QAbstractItemModel::columnsInserted),
          rowsRemoved(&m, &QAbstractItemModel::rowsRemoved),
          columnsRemoved(&m, &QAbstractItemModel::columnsRemoved),
          dataChanged(&m, &QAbstractItemModel::dataChanged),
          reset(&m, &QAbstractItemModel::modelReset),
          layoutChanged(&m, &QAbstractItemModel::layoutChanged)
    {
    }
    QSignalSpy rowsInserted, columnsInserted, rowsRemoved, columnsRemoved, dataChanged, reset,
        layoutChanged;
};

} // namespace

TEST(MatrixMerge, NewRowsColumnsAndCellsArriveWithoutAReset)
{
    MatrixModel model;
    CheckedModel checked(&model);
    model.merge(base());
    Spies spies(model);

    model.merge(afterSync());

    expectModelEquals(model, afterSync());
    EXPECT_EQ(spies.reset.count(), 0);
    EXPECT_EQ(spies.layoutChanged.count(), 0);
    ASSERT_EQ(spies.rowsInserted.count(), 1);
    EXPECT_EQ(spies.rowsInserted.at(0).at(1).toInt(), 0); // first
    EXPECT_EQ(spies.rowsInserted.at(0).at(2).toInt(), 0); // last
    ASSERT_EQ(spies.columnsInserted.count(), 1);
    EXPECT_EQ(spies.columnsInserted.at(0).at(1).toInt(), 1);
    EXPECT_EQ(spies.columnsInserted.at(0).at(2).toInt(), 1);
    EXPECT_GE(spies.dataChanged.count(), 1);
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}

TEST(MatrixMerge, SelectedCellFollowsItsCommitAndJob)
{
    MatrixModel model;
    model.merge(base());
    QItemSelectionModel selection(&model);
    // sha-b x test: in progress before the sync, failed after it.
    selection.setCurrentIndex(model.index(1, 1), QItemSelectionModel::ClearAndSelect);

    model.merge(afterSync());

    const QModelIndex current = selection.currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(current.data(MatrixModel::ShaRole).toString(), QStringLiteral("sha-b"));
    EXPECT_EQ(current.data(MatrixModel::JobRole).toString(), QStringLiteral("test"));
    EXPECT_EQ(current.row(), 2);
    EXPECT_EQ(current.column(), 2);
    EXPECT_EQ(current.data(MatrixModel::AttemptsRole).toInt(), 2);
    EXPECT_TRUE(selection.isSelected(current));
}

TEST(MatrixMerge, VanishedRowsAndColumnsAreRemoved)
{
    MatrixModel model;
    CheckedModel checked(&model);
    model.merge(afterSync());
    QItemSelectionModel selection(&model);
    selection.setCurrentIndex(model.index(3, 3),
                              QItemSelectionModel::ClearAndSelect); // sha-a x lint
    Spies spies(model);

    model.merge(base());

    expectModelEquals(model, base());
    EXPECT_EQ(spies.reset.count(), 0);
    EXPECT_EQ(spies.rowsRemoved.count(), 1);
    EXPECT_EQ(spies.columnsRemoved.count(), 1);
    ASSERT_TRUE(selection.currentIndex().isValid());
    EXPECT_EQ(selection.currentIndex().data(MatrixModel::ShaRole).toString(),
              QStringLiteral("sha-a"));
    EXPECT_EQ(selection.currentIndex().data(MatrixModel::JobRole).toString(),
              QStringLiteral("lint"));
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}

TEST(MatrixMerge, ReorderedCommitsMoveByLayoutChangeKeepingSelection)
{
    MatrixModel model;
    CheckedModel checked(&model);
    model.merge(base());
    QItemSelectionModel selection(&model);
    selection.setCurrentIndex(model.index(2, 2),
                              QItemSelectionModel::ClearAndSelect); // sha-a x lint
    auto moved = base();
    std::swap(moved.rows[0], moved.rows[2]); // sha-a now newest
    std::swap(moved.cells[0], moved.cells[6]);
    std::swap(moved.cells[1], moved.cells[7]);
    std::swap(moved.cells[2], moved.cells[8]);
    Spies spies(model);

    model.merge(moved);

    expectModelEquals(model, moved);
    EXPECT_EQ(spies.layoutChanged.count(), 1);
    EXPECT_EQ(spies.reset.count(), 0);
    EXPECT_EQ(selection.currentIndex().row(), 0);
    EXPECT_EQ(selection.currentIndex().data(MatrixModel::ShaRole).toString(),
              QStringLiteral("sha-a"));
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}

TEST(MatrixMerge, IdenticalSnapshotEmitsNothing)
{
    MatrixModel model;
    model.merge(base());
    Spies spies(model);
    model.merge(base());
    EXPECT_EQ(spies.dataChanged.count() + spies.rowsInserted.count() + spies.rowsRemoved.count()
                  + spies.columnsInserted.count() + spies.columnsRemoved.count()
                  + spies.layoutChanged.count() + spies.reset.count(),
              0);
}

// Random subsets of a universe of commits and jobs, merged one after the
// other: the model must always equal the newest snapshot.
TEST(MatrixMerge, RandomSequencesAlwaysEndEqualToTheSnapshot)
{
    std::mt19937 rng(42);
    MatrixModel model;
    model.setShardGrouping(false); // "job-N": the model would fold them (shard_groups.h)
    CheckedModel checked(&model);
    for (int round = 0; round < 60; ++round) {
        std::vector<UpstreamCommit> rows;
        for (int i = 0; i < 12; ++i)
            if (rng() % 3 != 0)
                rows.push_back(commit("sha-" + std::to_string(i),
                                      1000 - i * 10 + (rng() % 40 == 0 ? 500 : 0)));
        std::stable_sort(rows.begin(), rows.end(),
                         [](const auto& a, const auto& b) { return a.time > b.time; });
        std::vector<MatrixColumn> columns;
        for (int j = 0; j < 9; ++j)
            if (rng() % 3 != 0)
                columns.push_back(
                    column(j < 4 ? "org/a" : "org/b", "job-" + std::to_string(j), j + 1));
        auto snap = snapshot(rows, columns);
        for (auto& c : snap.cells)
            if (rng() % 2)
                c = cell(rng() % 2 ? Conclusion::Success : Conclusion::Failure,
                         static_cast<std::int64_t>(rng() % 1000 + 1),
                         static_cast<std::uint8_t>(rng() % 3 + 1));
        model.merge(snap);
        expectModelEquals(model, snap);
        if (::testing::Test::HasFailure())
            FAIL() << "round " << round;
    }
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}

// The same, with what the model derives from the commits: PR rows (some
// expanded), shard groups (some open), switched on and off between merges.
// The model always ends equal to the derived picture, with no tester warning.
TEST(MatrixMerge, RandomSequencesWithPullRequestRowsAndShardGroups)
{
    std::mt19937 rng(7);
    MatrixModel model;
    CheckedModel checked(&model);
    std::set<std::int64_t> expandedPrs;
    QSet<QString> openGroups;
    for (int round = 0; round < 80; ++round) {
        std::vector<UpstreamCommit> rows;
        for (int i = 0; i < 14; ++i)
            if (rng() % 3 != 0)
                rows.push_back(commit("sha-" + std::to_string(i), 1000 - i * 10,
                                      static_cast<std::int64_t>(rng() % 5)));
        std::vector<MatrixColumn> columns;
        for (int j = 0; j < 10; ++j)
            if (rng() % 4 != 0)
                columns.push_back(
                    column(j < 5 ? "org/a" : "org/b", "shard-" + std::to_string(j % 5), j + 1));
        auto snap = snapshot(rows, columns);
        for (auto& c : snap.cells)
            if (rng() % 2) {
                c = cell(rng() % 3 ? Conclusion::Success : Conclusion::Failure,
                         static_cast<std::int64_t>(rng() % 1000 + 1));
                c.startedAt = static_cast<EpochSeconds>(rng() % 2000);
            }
        const bool prs = rng() % 2 == 0;
        const bool grouping = rng() % 4 != 0;
        if (rng() % 2)
            expandedPrs.insert(static_cast<std::int64_t>(rng() % 5));
        // Flip view and grouping before or after the merge.
        if (rng() % 2) {
            model.merge(snap);
            model.setPullRequestView(prs);
            model.setShardGrouping(grouping);
        } else {
            model.setShardGrouping(grouping);
            model.setPullRequestView(prs);
            model.merge(snap);
        }
        for (const std::int64_t pr : expandedPrs)
            model.setExpanded(pr, true);
        if (rng() % 3 == 0 && !expandedPrs.empty()) {
            model.setExpanded(*expandedPrs.begin(), false);
            expandedPrs.erase(expandedPrs.begin());
        }
        const MatrixSnapshot base = prs ? pullRequestMatrix(snap, expandedPrs).matrix : snap;
        const ShardMatrix derived = groupShards(base, openGroups);
        if (grouping && rng() % 2 && !derived.columns.empty()) {
            const QString family = derived.columns[rng() % derived.columns.size()].family;
            if (!family.isEmpty()) {
                openGroups.insert(family);
                model.setShardGroupExpanded(family, true);
            }
        }
        const MatrixSnapshot expected = grouping ? groupShards(base, openGroups).matrix : base;
        expectModelEquals(model, expected);
        if (::testing::Test::HasFailure())
            FAIL() << "round " << round << " prs " << prs << " grouping " << grouping;
    }
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}
