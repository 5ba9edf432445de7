#include "relayhud/util/natural_compare.h"
#include "relayhud/util/time.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

using namespace relayhud;

TEST(Time, ParsesIsoWithZ) { EXPECT_EQ(parseTimestamp("2026-05-04T20:48:28Z"), 1777927708); }

TEST(Time, ParsesClickHouseIsoWithNanoseconds)
{
    EXPECT_EQ(parseTimestamp("2026-05-04T20:48:28.123456789Z"), 1777927708);
}

TEST(Time, ParsesClickHouseSimpleFormat)
{
    EXPECT_EQ(parseTimestamp("2026-05-04 20:48:28"), 1777927708);
    EXPECT_EQ(parseTimestamp("2026-05-04 20:48:28.5"), 1777927708);
}

TEST(Time, HonoursOffsets) { EXPECT_EQ(parseTimestamp("2026-05-04T22:48:28+02:00"), 1777927708); }

TEST(Time, ZeroDateTimeMeansNotSet)
{
    EXPECT_FALSE(parseTimestamp("1970-01-01T00:00:00.000000000Z"));
    EXPECT_FALSE(parseTimestamp("1970-01-01 00:00:00"));
}

TEST(Time, RejectsGarbage)
{
    EXPECT_FALSE(parseTimestamp(""));
    EXPECT_FALSE(parseTimestamp("yesterday"));
    EXPECT_FALSE(parseTimestamp("2026-13-04T20:48:28Z"));
    EXPECT_FALSE(parseTimestamp("2026-05-04T20:48:28Zjunk"));
    EXPECT_FALSE(parseTimestamp("2026-05-04"));
}

TEST(Time, FormatRoundTrips)
{
    EXPECT_EQ(formatIso(1777927708), "2026-05-04T20:48:28Z");
    EXPECT_EQ(parseTimestamp(formatIso(951782400)), 951782400); // 2000-02-29
}

TEST(Time, InstantsAreEpochSecondsOrTimestamps)
{
    EXPECT_EQ(parseInstant("1777914000"), 1777914000);
    EXPECT_EQ(parseInstant("2026-05-04T17:00:00Z"), 1777914000);
    EXPECT_EQ(parseInstant("2038-01-20T00:00:00Z"), 2147558400); // past 32-bit time_t
    for (const char* bad : {"", "yesterday", "-5", "17e8", "99999999999999999999999"})
        EXPECT_FALSE(parseInstant(bad)) << bad;
}

// Every test process runs with the clock pinned (test_main.cpp): "now" is
// the tests' world, and it still moves, so a deadline can pass.
TEST(Clock, TheTestsRunAtTheirOwnNowAndTheClockMoves)
{
    const std::int64_t start = nowMilliseconds();
    EXPECT_GE(start, relayhud::test::kNow * 1000);
    EXPECT_LT(start, (relayhud::test::kNow + kSecondsPerDay) * 1000) << "pinned at the start";
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_GE(nowMilliseconds() - start, 19);
    EXPECT_EQ(nowSeconds(), nowMilliseconds() / 1000);
}

TEST(Clock, PinningMovesEveryReadingAndKeepsThePace)
{
    pinClock(2147558400); // 2038-01-20T00:00:00Z
    EXPECT_GE(nowSeconds(), 2147558400);
    EXPECT_LT(nowSeconds(), 2147558400 + 5);
    pinClock(-86400); // before 1970: whole seconds round down
    EXPECT_LE(nowSeconds(), -86400 + 5);
    EXPECT_EQ(nowSeconds() * 1000 <= nowMilliseconds(), true);
    relayhud::test::pinTestClock(); // as the other tests expect it
    EXPECT_LT(nowSeconds() - relayhud::test::kNow, 5);
}

TEST(NaturalCompare, OrdersNumbersByValue)
{
    EXPECT_TRUE(naturalLess("test (default, 2, 12)", "test (default, 10, 12)"));
    EXPECT_FALSE(naturalLess("test (default, 10, 12)", "test (default, 2, 12)"));
    EXPECT_TRUE(naturalLess("build", "test"));
    EXPECT_TRUE(naturalLess("a", "ab"));
    EXPECT_FALSE(naturalLess("same", "same"));
    EXPECT_TRUE(naturalLess("x007", "x8"));
}
