// AttemptsModel: one row per attempt, under QAbstractItemModelTester.
#include "relayhud/ui/details/attempts_model.h"
#include "relayhud/ui/matrix/cell_state.h"

#include "test_support.h"

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

CheckRun attempt(int n, Conclusion conclusion)
{
    CheckRun run;
    run.downstreamRepo = "org/a";
    run.jobName = "test";
    run.runAttempt = n;
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = conclusion;
    run.reported.startedAt = 1'700'000'000 + n * 1000;
    run.reported.completedAt = *run.reported.startedAt + 125;
    run.reported.runUrl = "https://github.com/org/a/actions/runs/7/attempts/" + std::to_string(n);
    run.reported.tests = TestCounts{10, 8, 1, 1};
    return run;
}

} // namespace

TEST(AttemptsModel, ShowsEveryAttempt)
{
    AttemptsModel model;
    test::CheckedModel checked(&model);
    model.setAttempts({attempt(2, Conclusion::Success), attempt(1, Conclusion::Failure)});
    ASSERT_EQ(model.rowCount(), 2);
    ASSERT_EQ(model.columnCount(), AttemptsModel::ColumnCount);
    EXPECT_EQ(model.index(0, AttemptsModel::AttemptColumn).data().toInt(), 2);
    EXPECT_EQ(model.index(1, AttemptsModel::ResultColumn).data().toString(),
              QStringLiteral("failure"));
    EXPECT_EQ(
        model.index(1, AttemptsModel::ResultColumn).data(AttemptsModel::CellStateRole).toInt(),
        static_cast<int>(CellState::Failure));
    EXPECT_FALSE(
        model.index(1, AttemptsModel::StartedColumn).data(AttemptsModel::CellStateRole).isValid());
    EXPECT_EQ(model.index(0, AttemptsModel::DurationColumn).data().toString(),
              QStringLiteral("2m 05s"));
    EXPECT_EQ(model.index(0, AttemptsModel::TestsColumn).data().toString(),
              QStringLiteral("1 of 10 failed"));
    EXPECT_EQ(model.index(1, 0).data(AttemptsModel::RunUrlRole).toString(),
              QStringLiteral("https://github.com/org/a/actions/runs/7/attempts/1"));
    EXPECT_TRUE(model.headerData(AttemptsModel::TestsColumn, Qt::Horizontal, Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("self-reported")));
    model.setAttempts({});
    EXPECT_EQ(model.rowCount(), 0);
    EXPECT_THAT(checked.warnings(), ::testing::IsEmpty());
}
