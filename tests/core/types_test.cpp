#include "relayhud/model/ids.h"
#include "relayhud/model/types.h"
#include "relayhud/util/split.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <unordered_map>

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

// rfindFast is std::string_view::rfind, found faster: the same answer for
// every needle and start, at the edges too.
TEST(TextSearch, RfindFastAnswersAsRfind)
{
    const std::string_view text = "test_spyre_x_spyre_spyre_float16_spyre";
    const std::string_view needles[] = {"spyre", "s", "e", "test", "16_spyre", "nope", "", text};
    for (std::string_view needle : needles)
        for (std::size_t from : {std::size_t{0}, std::size_t{1}, std::size_t{5}, std::size_t{19},
                                 text.size() - 1, text.size(), std::string_view::npos})
            EXPECT_EQ(rfindFast(text, needle, from), text.rfind(needle, from))
                << needle << " from " << from;
    EXPECT_EQ(rfindFast("", "x"), std::string_view::npos);
    EXPECT_EQ(rfindFast("ab", "abc"), std::string_view::npos);
}

// A row id is its own type: no integer becomes one, and it becomes no
// integer, without saying so (model/ids.h).
static_assert(!std::is_convertible_v<std::int64_t, relayhud::TestRunId>);
static_assert(!std::is_convertible_v<relayhud::TestRunId, std::int64_t>);
static_assert(!std::is_convertible_v<relayhud::TestRunId, bool>);
// Nor is one kind of row another's.
static_assert(!std::is_convertible_v<relayhud::TestRunId, relayhud::CheckRunRow>);
static_assert(!std::is_convertible_v<std::int64_t, relayhud::CheckRunRow>);
static_assert(!std::is_convertible_v<relayhud::CheckRunRow, relayhud::JobRow>);
static_assert(!std::is_convertible_v<relayhud::JobRow, relayhud::CheckRunRow>);
static_assert(!std::is_convertible_v<relayhud::TestMessageId, relayhud::TestRunId>);
static_assert(!std::is_convertible_v<std::int64_t, relayhud::TeamSeq>);

TEST(Types, ARowIdIsNoneUntilItHoldsARowAndComparesByItsValue)
{
    using relayhud::TestRunId;
    EXPECT_FALSE(TestRunId{});
    EXPECT_TRUE(TestRunId{7});
    EXPECT_EQ(TestRunId{7}, TestRunId{7});
    EXPECT_NE(TestRunId{7}, TestRunId{8});
    EXPECT_LT(TestRunId{7}, TestRunId{8});
    EXPECT_FALSE(TestRunId{8} < TestRunId{7});
    EXPECT_EQ(TestRunId{7}.value, 7);
}

TEST(Types, IdHashKeysAnUnorderedMapByTheRowsValue)
{
    using relayhud::CheckRunRow;
    std::unordered_map<CheckRunRow, std::string, relayhud::IdHash> byRow;
    byRow.emplace(CheckRunRow{7}, "seven");
    byRow.emplace(CheckRunRow{8}, "eight");
    EXPECT_FALSE(byRow.emplace(CheckRunRow{7}, "again").second) << "one entry per row";
    ASSERT_EQ(byRow.size(), 2u);
    EXPECT_EQ(byRow.at(CheckRunRow{7}), "seven");
    EXPECT_EQ(byRow.count(CheckRunRow{9}), 0u);
    EXPECT_EQ(relayhud::IdHash{}(CheckRunRow{7}), relayhud::IdHash{}(CheckRunRow{7}));
}
