#include "relayhud/util/natural_compare.h"
#include "relayhud/util/time.h"

#include <gtest/gtest.h>

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

TEST(NaturalCompare, OrdersNumbersByValue)
{
    EXPECT_TRUE(naturalLess("test (default, 2, 12)", "test (default, 10, 12)"));
    EXPECT_FALSE(naturalLess("test (default, 10, 12)", "test (default, 2, 12)"));
    EXPECT_TRUE(naturalLess("build", "test"));
    EXPECT_TRUE(naturalLess("a", "ab"));
    EXPECT_FALSE(naturalLess("same", "same"));
    EXPECT_TRUE(naturalLess("x007", "x8"));
}
