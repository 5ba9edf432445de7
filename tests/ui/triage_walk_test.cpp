// The keyboard walk's order (matrix/triage_walk.h) with hand-made cells and
// tests, and the table of keys the `?` sheet and the README are written from.
#include "relayhud/ui/matrix/triage_walk.h"
#include "relayhud/ui/triage/key_table.h"

#include "tests_fixtures.h"

#include <gmock/gmock.h>

using namespace relayhud::ui;
using ::testing::ElementsAre;

namespace {

WalkCell failed(int row, int column, bool untriaged = true, CellState state = CellState::Failure)
{
    return {row, column, state, untriaged};
}

WalkCell green(int row, int column) { return {row, column, CellState::Success, false}; }

std::vector<std::pair<int, int>> places(const std::vector<WalkCell>& cells)
{
    std::vector<std::pair<int, int>> out;
    for (const WalkCell& c : cells)
        out.emplace_back(c.row, c.column);
    return out;
}

// Rows newest first; row 1 has a cancelled cell left of a failure, row 2 a
// triaged failure; row 3 a timeout and tests failing under a green.
std::vector<WalkCell> matrix()
{
    return {failed(3, 0, true, CellState::SuccessTestsFailed),
            failed(3, 4, true, CellState::TimedOut),
            failed(1, 1, true, CellState::Cancelled),
            failed(1, 5),
            green(0, 0),
            failed(2, 2, false),
            failed(0, 3)};
}

} // namespace

TEST(TriageWalk, StopsAreNewestCommitFirstThenWorstFirstThenLeftToRight)
{
    const TriageWalk walk(matrix());
    EXPECT_THAT(places(walk.stops()), ElementsAre(std::pair{0, 3}, std::pair{1, 5}, std::pair{1, 1},
                                                  std::pair{3, 4}, std::pair{3, 0}));
}

TEST(TriageWalk, StepsForwardAndBackWrappingAtTheEnds)
{
    const TriageWalk walk(matrix());
    auto step = walk.step(std::nullopt, true);
    ASSERT_TRUE(step);
    EXPECT_EQ(step->cell, failed(0, 3));
    EXPECT_FALSE(step->wrapped);
    step = walk.step(failed(1, 5), true);
    EXPECT_EQ(step->cell.column, 1) << "the cancelled cell of the same row comes after the failure";
    step = walk.step(failed(1, 1, true, CellState::Cancelled), true);
    EXPECT_EQ(places({step->cell}), places({failed(3, 4)})) << "row 2's only failure is triaged";
    step = walk.step(failed(3, 0, true, CellState::SuccessTestsFailed), true);
    EXPECT_TRUE(step->wrapped);
    EXPECT_EQ(places({step->cell}), places({failed(0, 3)}));
    step = walk.step(failed(0, 3), false);
    EXPECT_TRUE(step->wrapped);
    EXPECT_EQ(places({step->cell}), places({failed(3, 0)}));
    step = walk.step(failed(3, 4, true, CellState::TimedOut), false);
    EXPECT_EQ(places({step->cell}), places({failed(1, 1)}));
    EXPECT_FALSE(walk.step(std::nullopt, false)->wrapped);
}

TEST(TriageWalk, AGreenOrTriagedCellStandsBeforeItsRowsFailures)
{
    const TriageWalk walk(matrix());
    EXPECT_EQ(places({walk.step(green(1, 9), true)->cell}), places({failed(1, 5)}));
    EXPECT_EQ(places({walk.step(green(1, 0), false)->cell}), places({failed(0, 3)}));
    EXPECT_EQ(places({walk.step(failed(2, 2, false), true)->cell}), places({failed(3, 4)}));
}

TEST(TriageWalk, NothingToWalkToWhenTheOnlyStopIsHere)
{
    EXPECT_FALSE(TriageWalk({green(0, 0), failed(1, 1, false)}).step(std::nullopt, true));
    const TriageWalk one({failed(2, 2)});
    EXPECT_FALSE(one.step(failed(2, 2), true));
    EXPECT_FALSE(one.step(failed(2, 2), false));
    EXPECT_EQ(places({one.step(green(0, 0), true)->cell}), places({failed(2, 2)}));
}

TEST(TriageWalk, ALinkLandsOnTheRowsFirstUntriagedFailureElseItsFirstFailure)
{
    EXPECT_EQ(TriageWalk::landingColumn({green(4, 0), failed(4, 1, true, CellState::Cancelled),
                                         failed(4, 2, false), failed(4, 3)}),
              3)
        << "untriaged first, worst first";
    EXPECT_EQ(TriageWalk::landingColumn({green(4, 0), failed(4, 2, false), failed(4, 1, false)}),
              1);
    EXPECT_EQ(TriageWalk::landingColumn({green(4, 0), green(4, 1)}), std::nullopt);
}

TEST(TriageWalk, TestsOfARunStepWithoutWrapping)
{
    // passing, untriaged failure, tagged failure, untriaged failure, passing
    const std::vector<WalkTest> tests{
        {false, false}, {true, true}, {true, false}, {true, true}, {false, false}};
    EXPECT_EQ(TriageWalk::nextTest(tests, std::nullopt, true), 1u);
    EXPECT_EQ(TriageWalk::nextTest(tests, std::nullopt, false), 3u);
    EXPECT_EQ(TriageWalk::nextTest(tests, 1, true), 3u);
    EXPECT_EQ(TriageWalk::nextTest(tests, 3, true), std::nullopt);
    EXPECT_EQ(TriageWalk::nextTest(tests, 3, false), 1u);
    EXPECT_EQ(TriageWalk::nextTest(tests, 1, false), std::nullopt);
    EXPECT_EQ(TriageWalk::nextTest(tests, 0, false), std::nullopt);
    EXPECT_EQ(TriageWalk::firstFailing(tests), 1u);
    EXPECT_EQ(TriageWalk::firstFailing({{false, false}}), std::nullopt);
}

TEST(KeyTable, KeysReadAsTyped)
{
    EXPECT_EQ(keysText({QKeySequence(Qt::Key_J), QKeySequence(Qt::Key_K)}), u"j / k"_qs);
    EXPECT_EQ(keysText({QKeySequence(Qt::SHIFT | Qt::Key_T)}), u"T"_qs);
    EXPECT_EQ(keysText({QKeySequence(Qt::Key_Return), QKeySequence(Qt::Key_Enter)}), u"Enter"_qs);
    EXPECT_EQ(keysText({QKeySequence(Qt::CTRL | Qt::Key_K)}), u"Ctrl+K"_qs);
    EXPECT_EQ(normalizedKey(QKeySequence(Qt::SHIFT | Qt::Key_Question)),
              QKeySequence(Qt::Key_Question));
    for (const KeyEntry& entry : keyTable()) {
        EXPECT_FALSE(entry.keys.isEmpty());
        EXPECT_FALSE(entry.what.isEmpty());
    }
}
