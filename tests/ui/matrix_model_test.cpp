// MatrixModel: what cells and headers report, under QAbstractItemModelTester.
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include "test_support.h"

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

MatrixSnapshot twoByThree()
{
    auto snap = snapshot({commit("aaaaaaa111", 2000, 101, "main"),
                          commit("bbbbbbb222", 1000, 0, "main", EventType::Nightly)},
                         {column("org/a", "build", 1),
                          column("org/a", "test (default, 1, 3, linux.spyre.1)", 2),
                          column("org/b", "lint", 3, Level::L2)});
    setCell(snap, 0, 0, cell(Conclusion::Success, 11));
    setCell(snap, 0, 1, cell(Conclusion::Failure, 12, 3));
    setCell(snap, 1, 2, running(13));
    return snap;
}

} // namespace

TEST(MatrixModel, EmptyModelPassesTheTester)
{
    MatrixModel model;
    CheckedModel checked(&model);
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_EQ(model.columnCount(), 0);
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}

TEST(MatrixModel, CellsReportStateAttemptsAndRowId)
{
    MatrixModel model;
    CheckedModel checked(&model);
    model.merge(twoByThree());
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), 3);

    const QModelIndex failing = model.index(0, 1);
    EXPECT_EQ(failing.data(MatrixModel::CellStateRole).toInt(),
              static_cast<int>(CellState::Failure));
    EXPECT_EQ(failing.data(MatrixModel::AttemptsRole).toInt(), 3);
    EXPECT_TRUE(failing.data(MatrixModel::RetriedRole).toBool());
    EXPECT_EQ(failing.data(MatrixModel::RunRowIdRole).toLongLong(), 12);
    EXPECT_EQ(failing.data(Qt::DisplayRole).toString(), QStringLiteral("✗"));

    EXPECT_EQ(model.index(1, 2).data(MatrixModel::CellStateRole).toInt(),
              static_cast<int>(CellState::InProgress));
    EXPECT_EQ(model.index(1, 0).data(MatrixModel::CellStateRole).toInt(),
              static_cast<int>(CellState::Empty));
    EXPECT_EQ(model.index(1, 0).data(MatrixModel::RunRowIdRole).toLongLong(), 0);
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}

TEST(MatrixModel, TooltipNamesBackendJobStateAndAttempts)
{
    MatrixModel model;
    model.merge(twoByThree());
    const QString tip = model.index(0, 1).data(Qt::AccessibleTextRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("failure"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("org/a"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("test (default, 1, 3, linux.spyre.1)")))
        << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("attempts: 3"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("aaaaaaa"))) << tip.toStdString();
}

TEST(MatrixModel, TooltipsEscapeCiText)
{
    auto snap = snapshot({commit("ccccccc", 5)}, {column("org/a", "<b>job</b>", 1)});
    setCell(snap, 0, 0, cell(Conclusion::Success, 1));
    MatrixModel model;
    model.merge(snap);
    const QString tip = model.index(0, 0).data(Qt::ToolTipRole).toString();
    EXPECT_FALSE(tip.contains(QStringLiteral("<b>job</b>"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QStringLiteral("&lt;b&gt;job&lt;/b&gt;"))) << tip.toStdString();
}

TEST(MatrixModel, HeadersDescribeCommitsAndJobs)
{
    MatrixModel model;
    model.merge(twoByThree());
    EXPECT_EQ(model.headerData(0, Qt::Vertical).toString(), QStringLiteral("aaaaaaa"));
    EXPECT_EQ(model.headerData(0, Qt::Vertical, MatrixModel::ShaRole).toString(),
              QStringLiteral("aaaaaaa111"));
    EXPECT_EQ(model.headerData(0, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong(), 101);
    EXPECT_EQ(model.headerData(1, Qt::Vertical, MatrixModel::EventTypeRole).toInt(),
              static_cast<int>(EventType::Nightly));
    EXPECT_EQ(model.headerData(2, Qt::Horizontal, MatrixModel::BackendRole).toString(),
              QStringLiteral("org/b"));
    EXPECT_EQ(model.headerData(2, Qt::Horizontal, MatrixModel::LevelRole).toInt(),
              static_cast<int>(Level::L2));
    EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(),
              QStringLiteral("test (default, 1, 3, linux.spyre.1)"));
    EXPECT_FALSE(model.headerData(9, Qt::Horizontal).isValid());
}

TEST(MatrixModel, StaleRunsAreNotShownAsRunning)
{
    auto snap = snapshot({commit("ddddddd", 5)}, {column("org/a", "j", 1)});
    MatrixCell zombie = running(4);
    zombie.flags |= MatrixCell::Stale;
    setCell(snap, 0, 0, zombie);
    MatrixModel model;
    model.merge(snap);
    EXPECT_EQ(model.index(0, 0).data(MatrixModel::CellStateRole).toInt(),
              static_cast<int>(CellState::Stale));
    EXPECT_TRUE(model.index(0, 0).data(MatrixModel::StaleRole).toBool());
}

// A run that said success while its JUnit fails tests (torch-spyre's
// variant B: real-backends.md 3.2) is not drawn as a green.
TEST(MatrixModel, AReportedSuccessWhoseTestsFailedHasItsOwnStateAndSaysSo)
{
    auto snap = snapshot({commit("eeeeeee", 5)}, {column("torch-spyre/torch-spyre", "j", 1)});
    MatrixCell claimed = cell(Conclusion::Success, 4);
    claimed.flags |= MatrixCell::ReportedGreenTestsFailed;
    setCell(snap, 0, 0, claimed);
    MatrixModel model;
    model.merge(snap);
    const QModelIndex index = model.index(0, 0);
    EXPECT_EQ(index.data(MatrixModel::CellStateRole).toInt(),
              static_cast<int>(CellState::SuccessTestsFailed));
    EXPECT_FALSE(isGreenish(CellState::SuccessTestsFailed));
    EXPECT_NE(cellStateGlyph(CellState::SuccessTestsFailed), cellStateGlyph(CellState::Success));
    EXPECT_NE(cellStateGlyph(CellState::SuccessTestsFailed), cellStateGlyph(CellState::Failure));
    const QString tip = index.data(Qt::AccessibleTextRole).toString();
    EXPECT_TRUE(tip.contains(QStringLiteral("reported success, tests failed")))
        << tip.toStdString();
}

TEST(MatrixModel, ChildrenOfCellsDoNotExist)
{
    MatrixModel model;
    model.merge(twoByThree());
    const QModelIndex parent = model.index(0, 0);
    EXPECT_EQ(model.rowCount(parent), 0);
    EXPECT_EQ(model.columnCount(parent), 0);
    EXPECT_FALSE(model.index(0, 0, parent).isValid());
}
