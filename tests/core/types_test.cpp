#include "relayhud/model/types.h"

#include <gtest/gtest.h>

using namespace relayhud;

TEST(Types, EnumsRoundTripThroughText)
{
    for (auto c :
         {Conclusion::Success, Conclusion::Failure, Conclusion::Cancelled, Conclusion::TimedOut})
        EXPECT_EQ(conclusionFromString(toString(c)), c);
    for (auto s : {RunStatus::Queued, RunStatus::InProgress, RunStatus::Completed})
        EXPECT_EQ(runStatusFromString(toString(s)), s);
    for (auto l : {Level::L1, Level::L2, Level::L3, Level::L4})
        EXPECT_EQ(levelFromString(toString(l)), l);
    for (auto e :
         {EventType::PullRequest, EventType::Push, EventType::Nightly, EventType::Periodic})
        EXPECT_EQ(eventTypeFromString(toString(e)), e);
}

TEST(Types, UnknownTextMapsToUnknown)
{
    EXPECT_EQ(conclusionFromString("exploded"), Conclusion::None);
    EXPECT_EQ(runStatusFromString("paused"), RunStatus::Unknown);
    EXPECT_EQ(levelFromString("L9"), Level::Unknown);
    EXPECT_FALSE(eventTypeFromString("schedule"));
}

TEST(Types, StaleOnlyWhenInProgressPastSixHours)
{
    CheckRun run;
    run.reported.status = RunStatus::InProgress;
    run.reported.startedAt = 1000;
    EXPECT_FALSE(run.isStale(1000 + kStaleAfterSeconds));
    EXPECT_TRUE(run.isStale(1000 + kStaleAfterSeconds + 1));
    run.reported.status = RunStatus::Completed;
    EXPECT_FALSE(run.isStale(1000 + 10 * kStaleAfterSeconds));
}

TEST(Types, ShortSha) { EXPECT_EQ(Sha{"0123456789abcdef"}.shortSha(), "0123456"); }
