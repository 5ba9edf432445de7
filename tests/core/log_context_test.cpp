// ContextFilter: grep's -A/-B/-C context, merged the way grep merges it.
#include "relayhud/logs/context_filter.h"

#include <gtest/gtest.h>

#include <random>

using namespace relayhud;

namespace {

using Range = ContextFilter::Range;

ContextFilter filterOf(std::vector<std::uint64_t> matches, std::uint64_t before,
                       std::uint64_t after, std::uint64_t lineCount)
{
    ContextFilter f(before, after, lineCount);
    std::vector<LineNumber> lines;
    for (auto m : matches)
        lines.push_back(LineNumber{m});
    f.append(lines);
    return f;
}

TEST(ContextFilter, ContextAroundOneMatch)
{
    const auto f = filterOf({5}, 2, 1, 100);
    EXPECT_EQ(f.ranges(), (std::vector<Range>{{{3}, {6}}}));
    EXPECT_EQ(f.rowCount(), 4U);
    EXPECT_EQ(f.lineAt(0), LineNumber{3});
    EXPECT_EQ(f.lineAt(3), LineNumber{6});
    EXPECT_TRUE(f.isMatch(LineNumber{5}));
    EXPECT_FALSE(f.isMatch(LineNumber{4}));
}

TEST(ContextFilter, ClampsAtBothEnds)
{
    EXPECT_EQ(filterOf({1}, 3, 0, 10).ranges(), (std::vector<Range>{{{0}, {1}}}));
    EXPECT_EQ(filterOf({8}, 0, 5, 10).ranges(), (std::vector<Range>{{{8}, {9}}}));
}

TEST(ContextFilter, TouchingGroupsMergeGapsSeparate)
{
    // 10..12 and 13..15 touch: one group, as grep prints them without "--".
    const auto touching = filterOf({10, 13}, 0, 2, 100);
    EXPECT_EQ(touching.ranges(), (std::vector<Range>{{{10}, {15}}}));
    EXPECT_FALSE(touching.startsGroup(3));
    const auto apart = filterOf({10, 14}, 0, 2, 100);
    EXPECT_EQ(apart.ranges(), (std::vector<Range>{{{10}, {12}}, {{14}, {16}}}));
    EXPECT_TRUE(apart.startsGroup(3));
    EXPECT_FALSE(apart.startsGroup(0));
    EXPECT_FALSE(apart.startsGroup(4));
    const auto overlapping = filterOf({10, 12, 20}, 2, 2, 100);
    EXPECT_EQ(overlapping.ranges(), (std::vector<Range>{{{8}, {14}}, {{18}, {22}}}));
}

// Against a brute-force reference: which lines show, and where "--" goes.
TEST(ContextFilter, EqualsBruteForce)
{
    std::mt19937 rng(5);
    for (int round = 0; round < 200; ++round) {
        const std::uint64_t lineCount = 1 + rng() % 200;
        const std::uint64_t before = rng() % 4;
        const std::uint64_t after = rng() % 4;
        std::vector<std::uint64_t> matches;
        for (std::uint64_t l = 0; l < lineCount; ++l)
            if (rng() % 9 == 0)
                matches.push_back(l);
        std::vector<bool> shown(lineCount, false);
        for (auto m : matches)
            for (std::uint64_t l = m > before ? m - before : 0; l <= m + after && l < lineCount;
                 ++l)
                shown[l] = true;
        // Built in two appends, as a streaming search would.
        ContextFilter f(before, after, lineCount);
        std::vector<LineNumber> lines;
        for (auto m : matches)
            lines.push_back(LineNumber{m});
        const std::size_t half = lines.size() / 2;
        f.append(std::span<const LineNumber>(lines).subspan(0, half));
        f.append(std::span<const LineNumber>(lines).subspan(half));
        std::uint64_t row = 0;
        for (std::uint64_t l = 0; l < lineCount; ++l) {
            if (!shown[l])
                continue;
            ASSERT_LT(row, f.rowCount());
            EXPECT_EQ(f.lineAt(row), LineNumber{l});
            EXPECT_EQ(f.startsGroup(row), row > 0 && !shown[l - 1]);
            ++row;
        }
        EXPECT_EQ(row, f.rowCount());
    }
}

TEST(ContextFilter, GrowingLogExtendsTheLastContext)
{
    ContextFilter f(0, 3, 11);
    const std::vector<LineNumber> m{{9}};
    f.append(m);
    EXPECT_EQ(f.ranges(), (std::vector<Range>{{{9}, {10}}}));
    f.setLineCount(20);
    EXPECT_EQ(f.ranges(), (std::vector<Range>{{{9}, {12}}}));
    EXPECT_EQ(f.rowCount(), 4U);
}

} // namespace
