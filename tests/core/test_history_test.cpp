// Per-test history: summarizeHistory on hand-made histories, and
// TestResultStore::testHistory on a real cache with several jobs, SHAs and attempts.
#include "outcome_letters.h"
#include "relayhud/store/test_result_store.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::testing;

namespace {

using namespace relayhud::test::outcome_letters;

// One point per entry, SHAs "s0", "s1", ...; nullopt: the run lacks the test.
TestHistory history(const std::vector<std::optional<TestOutcome>>& outcomes)
{
    TestHistory h{7, {}};
    for (std::size_t i = 0; i < outcomes.size(); ++i) {
        TestHistoryPoint p;
        p.sha = Sha{"s" + std::to_string(i)};
        p.commitTime = static_cast<EpochSeconds>(i);
        p.outcome = outcomes[i];
        h.points.push_back(p);
    }
    return h;
}

} // namespace

TEST(HistorySummary, FailingOutcomes)
{
    EXPECT_TRUE(isFailingOutcome(F));
    EXPECT_TRUE(isFailingOutcome(E));
    EXPECT_TRUE(isFailingOutcome(X));
    EXPECT_FALSE(isFailingOutcome(P));
    EXPECT_FALSE(isFailingOutcome(S));
    EXPECT_FALSE(isFailingOutcome(TestOutcome::XFailed));
}

TEST(HistorySummary, EmptyAndAllGreen)
{
    const auto empty = summarizeHistory(history({}));
    EXPECT_EQ(empty.runs, 0);
    EXPECT_EQ(empty.flipRate, 0.0);
    EXPECT_TRUE(empty.firstFailingSha.empty());
    const auto green = summarizeHistory(history({P, P, S, P}));
    EXPECT_EQ(green.runs, 4);
    EXPECT_EQ(green.failures, 0);
    EXPECT_EQ(green.flipRate, 0.0);
    EXPECT_FALSE(green.newFailure);
    EXPECT_FALSE(green.failedBefore);
}

TEST(HistorySummary, ANewFailureStartsItsStreakAtTheLatestSha)
{
    const auto s = summarizeHistory(history({P, P, P, F}));
    EXPECT_EQ(s.failures, 1);
    EXPECT_TRUE(s.newFailure);
    EXPECT_FALSE(s.failedBefore);
    EXPECT_EQ(s.firstFailingSha.value, "s3");
    EXPECT_DOUBLE_EQ(s.flipRate, 1.0 / 3.0);
}

TEST(HistorySummary, AStreakGoesBackToItsFirstFailingSha)
{
    const auto s = summarizeHistory(history({F, P, E, F, X}));
    EXPECT_EQ(s.failures, 4);
    EXPECT_FALSE(s.newFailure);
    EXPECT_TRUE(s.failedBefore);
    EXPECT_EQ(s.firstFailingSha.value, "s2");
    EXPECT_DOUBLE_EQ(s.flipRate, 2.0 / 4.0);
}

TEST(HistorySummary, GapsNeitherBreakAStreakNorCountAsFlips)
{
    const auto s = summarizeHistory(history({P, F, std::nullopt, F, std::nullopt, F}));
    EXPECT_EQ(s.runs, 4);
    EXPECT_EQ(s.firstFailingSha.value, "s1");
    EXPECT_TRUE(s.failedBefore);
    EXPECT_DOUBLE_EQ(s.flipRate, 1.0 / 3.0);
    // The previous point with an outcome passed, past a gap: still new.
    const auto n = summarizeHistory(history({P, std::nullopt, std::nullopt, F}));
    EXPECT_TRUE(n.newFailure);
    EXPECT_EQ(n.firstFailingSha.value, "s3");
}

TEST(HistorySummary, ATestMissingFromTheLatestRunIsNotFailingThere)
{
    const auto s = summarizeHistory(history({F, F, std::nullopt}));
    EXPECT_EQ(s.failures, 2);
    EXPECT_TRUE(s.firstFailingSha.empty());
    EXPECT_FALSE(s.newFailure);
    EXPECT_FALSE(s.failedBefore);
}

TEST(HistorySummary, AFirstEverFailureIsNeitherNewNorOld)
{
    const auto s = summarizeHistory(history({std::nullopt, F}));
    EXPECT_EQ(s.firstFailingSha.value, "s1");
    EXPECT_FALSE(s.newFailure);
    EXPECT_FALSE(s.failedBefore);
    EXPECT_EQ(s.flipRate, 0.0);
}

TEST(HistorySummary, AlternatingIsAllFlips)
{
    EXPECT_DOUBLE_EQ(summarizeHistory(history({P, F, P, F, P})).flipRate, 1.0);
}

namespace {

class HistoryCache : public ::testing::Test {
protected:
    void SetUp() override { m_cache = openCacheOk(":memory:"); }

    // A run of `job` on `sha` (commit time `time`) with the given results;
    // returns the check run row.
    CheckRunRow run(const std::string& sha, EpochSeconds time, const std::string& job, int attempt,
                    const std::vector<std::pair<std::string, TestOutcome>>& tests)
    {
        const auto row =
            addRun(*m_cache, completedRun(sha, job, attempt, Conclusion::Failure, time), time);
        auto writer =
            TestResultStore(*m_cache).beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
        EXPECT_TRUE(writer);
        for (const auto& [name, outcome] : tests)
            EXPECT_TRUE((*writer)->add(makeCase("TestOps", name, outcome)));
        EXPECT_TRUE((*writer)->commit({}));
        return row;
    }

    TestId testId(CheckRunRow row, const std::string& name)
    {
        auto info = TestResultStore(*m_cache).testRunForCheckRun(row);
        const auto results = TestResultStore(*m_cache).testResults((*info)->id);
        for (const auto& r : *results)
            if (r.name == name)
                return r.testId;
        ADD_FAILURE() << name;
        return TestId{};
    }

    std::string strip(const TestHistory& h)
    {
        std::string out;
        for (const auto& p : h.points)
            out += p.sha.value + ":" + (p.outcome ? outcomeName(*p.outcome) : "-") + " ";
        return out;
    }

    relayhud::testing::TestCache m_cache;
};

} // namespace

TEST_F(HistoryCache, OnePointPerShaOfTheSameJobOldestFirst)
{
    run("c1", 100, "test", 1, {{"test_a", P}, {"test_b", P}});
    run("c2", 200, "test", 1, {{"test_a", P}});
    run("c2", 200, "build", 1, {{"test_a", F}}); // another job: not in the strip
    run("c3", 300, "test", 1, {{"test_a", F}, {"test_b", S}});
    const auto row = run("c4", 400, "test", 1, {{"test_a", F}, {"test_b", P}});
    run("c5", 500, "test", 1, {{"test_a", P}}); // newer than the asked run
    const auto a = testId(row, "test_a");
    const auto b = testId(row, "test_b");

    auto h = TestResultStore(*m_cache).testHistory(row, {b, a}, 10);
    ASSERT_TRUE(h) << h.message();
    ASSERT_EQ(h->size(), 2u);
    EXPECT_EQ((*h)[0].testId, b);
    EXPECT_EQ(strip((*h)[1]), "c1:passed c2:passed c3:failed c4:failed ");
    EXPECT_EQ(strip((*h)[0]), "c1:passed c2:- c3:skipped c4:passed ");
    EXPECT_EQ((*h)[1].points.back().checkRunRow, row);
    EXPECT_EQ((*h)[1].points.front().commitTime, 100);
    const auto summary = summarizeHistory((*h)[1]);
    EXPECT_EQ(summary.firstFailingSha.value, "c3");
    EXPECT_TRUE(summary.failedBefore);
}

TEST_F(HistoryCache, KeepsTheNewestShasUpToMaxShas)
{
    CheckRunRow row;
    for (int i = 1; i <= 6; ++i)
        row = run("c" + std::to_string(i), 100 * i, "test", 1, {{"test_a", i % 2 ? P : F}});
    auto h = TestResultStore(*m_cache).testHistory(row, {testId(row, "test_a")}, 3);
    ASSERT_TRUE(h);
    EXPECT_EQ(strip((*h)[0]), "c4:failed c5:passed c6:failed ");
    EXPECT_TRUE(summarizeHistory((*h)[0]).newFailure);
    auto none = TestResultStore(*m_cache).testHistory(row, {testId(row, "test_a")}, 0);
    ASSERT_TRUE(none);
    EXPECT_TRUE((*none)[0].points.empty());
}

TEST_F(HistoryCache, NewestAttemptWithResultsPerShaButTheAskedRunOnItsOwnSha)
{
    run("c1", 100, "test", 1, {{"test_a", F}});
    run("c1", 100, "test", 2, {{"test_a", P}}); // the rerun passed
    const auto first = run("c2", 200, "test", 1, {{"test_a", F}});
    run("c2", 200, "test", 2, {{"test_a", P}});
    // A third attempt whose artifacts expired has no results: skipped.
    const auto expired =
        addRun(*m_cache, completedRun("c1", "test", 3, Conclusion::Failure, 100), 100);
    ASSERT_TRUE(TestResultStore(*m_cache).recordTestRunState(
        {expired, TestRunSource::Artifacts, "a", "u"}, TestRunState::Expired, "gone"));
    const auto a = testId(first, "test_a");

    auto h = TestResultStore(*m_cache).testHistory(first, {a}, 10);
    ASSERT_TRUE(h);
    EXPECT_EQ(strip((*h)[0]), "c1:passed c2:failed ");
    EXPECT_EQ((*h)[0].points[0].runAttempt, 2);
    EXPECT_EQ((*h)[0].points[1].checkRunRow, first);
}

TEST_F(HistoryCache, ShasWithTheSameCommitTimeEndOnTheAskedOne)
{
    run("c1", 100, "test", 1, {{"test_a", P}});
    run("c3", 200, "test", 1, {{"test_a", P}});
    const auto row = run("c2", 200, "test", 1, {{"test_a", F}});
    auto h = TestResultStore(*m_cache).testHistory(row, {testId(row, "test_a")}, 10);
    ASSERT_TRUE(h);
    ASSERT_EQ((*h)[0].points.size(), 3u);
    EXPECT_EQ((*h)[0].points.back().sha.value, "c2");
}

TEST_F(HistoryCache, AnAskedRunWithoutResultsStillShowsTheJobsPast)
{
    run("c1", 100, "test", 1, {{"test_a", F}});
    const auto done = run("c2", 200, "test", 1, {{"test_a", P}});
    const auto a = testId(done, "test_a");
    const auto row = addRun(*m_cache, completedRun("c3", "test", 1, Conclusion::Failure, 300), 300);
    auto h = TestResultStore(*m_cache).testHistory(row, {a, TestId{999999}}, 10);
    ASSERT_TRUE(h);
    EXPECT_EQ(strip((*h)[0]), "c1:failed c2:passed ");
    EXPECT_EQ(strip((*h)[1]), "c1:- c2:- "); // an unknown test: points without outcomes
}

TEST_F(HistoryCache, AnUnknownCheckRunIsAnError)
{
    auto h = TestResultStore(*m_cache).testHistory(CheckRunRow{123456}, {TestId{1}}, 10);
    ASSERT_FALSE(h);
    EXPECT_NE(h.message().find("123456"), std::string::npos);
}
