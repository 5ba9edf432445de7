// The trend charts' data (verdict/trends.h, TrendStore::trendRuns): each chart's
// points from a real SQLite cache filled with known runs, results and tags.
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/trend_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/verdict/trends.h"

#include "test_results_fixtures.h"
#include "test_world.h"

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::testing;
using namespace relayhud::verdict;
using triage::FailureClass;

namespace {

constexpr EpochSeconds kDay = 86400;
constexpr EpochSeconds kDay0 = 20425 * kDay; // a midnight UTC
using relayhud::test::kAscend;
using relayhud::test::kSpyre;

std::string trendSha(int n)
{
    std::string s = "a0000" + std::to_string(n / 10) + std::to_string(n % 10);
    return s + std::string(40 - s.size(), 'f');
}

using Tests = std::vector<std::pair<std::string, TestOutcome>>;

// One run to store, said fluently: RunSpec(2).job("build").conclusion(Failure).
class RunSpec {
public:
    explicit RunSpec(int commit) : m_commit(commit) {} // SHA n, committed at kDay0 + n hours
    RunSpec& job(std::string v) { return set(m_job, std::move(v)); }
    RunSpec& repo(std::string v) { return set(m_repo, std::move(v)); }
    RunSpec& attempt(int v) { return set(m_attempt, v); }
    RunSpec& conclusion(Conclusion v) { return set(m_conclusion, v); }
    RunSpec& status(RunStatus v) { return set(m_status, v); }
    RunSpec& queue(double v) { return set(m_queue, std::optional<double>(v)); } // relay-measured
    RunSpec& execution(double v) { return set(m_execution, std::optional<double>(v)); }
    RunSpec& reported(TestCounts v) { return set(m_reported, std::optional<TestCounts>(v)); }
    RunSpec& stored(Tests v)
    {
        return set(m_stored, std::optional<Tests>(std::move(v)));
    }                                                                  // artifacts
    RunSpec& dayOffset(EpochSeconds v) { return set(m_dayOffset, v); } // whole days later

private:
    template <class T, class V>
    RunSpec& set(T& field, V&& value)
    {
        field = std::forward<V>(value);
        return *this;
    }
    friend class TrendsTest;

    int m_commit = 0;
    std::string m_job = "test";
    std::string m_repo = kSpyre;
    int m_attempt = 1;
    Conclusion m_conclusion = Conclusion::Success;
    RunStatus m_status = RunStatus::Completed;
    std::optional<double> m_queue;
    std::optional<double> m_execution;
    std::optional<TestCounts> m_reported;
    std::optional<Tests> m_stored;
    EpochSeconds m_dayOffset = 0;
};

class TrendsTest : public ::testing::Test {
protected:
    void SetUp() override { m_cache = openCacheOk(":memory:"); }

    static EpochSeconds commitTime(const RunSpec& s)
    {
        return kDay0 + s.m_dayOffset * kDay + s.m_commit * 3600;
    }

    CheckRunRow add(const RunSpec& s)
    {
        const EpochSeconds time = commitTime(s);
        CheckRun r = completedRun(trendSha(s.m_commit), s.m_job, s.m_attempt, s.m_conclusion, time);
        r.downstreamRepo = s.m_repo;
        r.checkRunId = CheckRunId{s.m_repo + "-" + r.checkRunId.value};
        r.reported.status = s.m_status;
        r.reported.startedAt = time + 60;
        r.reported.completedAt = time + 60 + 1200;
        if (s.m_status != RunStatus::Completed)
            r.reported.completedAt.reset();
        r.reported.tests = s.m_reported;
        r.trusted.queueTimeSeconds = s.m_queue;
        r.trusted.executionTimeSeconds = s.m_execution;
        const auto row = addRun(*m_cache, r, time);
        if (s.m_stored)
            store(row, *s.m_stored);
        return row;
    }

    void store(CheckRunRow row, const Tests& tests)
    {
        auto writer =
            TestResultStore(*m_cache).beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
        ASSERT_TRUE(writer);
        TestRunTotals totals;
        for (const auto& [name, outcome] : tests) {
            ASSERT_TRUE((*writer)->add(makeCase("TestOps", name, outcome)));
            ++totals.outcomes[static_cast<std::size_t>(outcome)];
        }
        ASSERT_TRUE((*writer)->commit(totals));
    }

    std::vector<TrendRun> runs(const TrendRunQuery& query = {})
    {
        auto r = TrendStore(*m_cache).trendRuns(query);
        EXPECT_TRUE(r) << (r ? "" : r.message());
        return r ? std::move(*r) : std::vector<TrendRun>{};
    }

    relayhud::testing::TestCache m_cache;
};

} // namespace

TEST_F(TrendsTest, TrendRunsKeepTheNewestAttemptWithTimingsAndCounts)
{
    add(RunSpec(1).conclusion(Conclusion::Failure).queue(30.0));
    const auto retry = add(RunSpec(1)
                               .attempt(2)
                               .queue(45.5)
                               .execution(900.0)
                               .reported(TestCounts{10, 8, 0, 2})
                               .stored(Tests{{"t1", TestOutcome::Passed},
                                             {"t2", TestOutcome::Skipped},
                                             {"t3", TestOutcome::XFailed},
                                             {"t4", TestOutcome::Failed}}));
    const auto all = runs();
    ASSERT_EQ(all.size(), 1u);
    const TrendRun& r = all.front();
    EXPECT_EQ(r.checkRunRow, retry);
    EXPECT_EQ(r.attempt, 2);
    EXPECT_EQ(r.repo, kSpyre);
    EXPECT_EQ(r.workflow, "CI");
    EXPECT_EQ(r.job, "test");
    EXPECT_EQ(r.sha.value, trendSha(1));
    EXPECT_EQ(r.commitTime, kDay0 + 3600);
    EXPECT_EQ(r.conclusion, Conclusion::Success);
    EXPECT_EQ(r.startedAt, kDay0 + 3660);
    EXPECT_EQ(r.queueSeconds, 45.5);
    EXPECT_EQ(r.executionSeconds, 900.0);
    EXPECT_EQ(r.reportedTests, (TestCounts{10, 8, 0, 2}));
    EXPECT_EQ(r.storedExecuted, 3); // every outcome but skipped
}

TEST_F(TrendsTest, TrendRunsFollowTheWindowAndTheBackend)
{
    add(RunSpec(1));
    add(RunSpec(2).repo(kAscend));
    add(RunSpec(3));
    const auto window = runs({kDay0 + 2 * 3600, kDay0 + 3 * 3600, ""});
    ASSERT_EQ(window.size(), 1u);
    EXPECT_EQ(window.front().sha.value, trendSha(2));
    const auto spyre = runs({0, 0, kSpyre});
    ASSERT_EQ(spyre.size(), 2u);
    EXPECT_EQ(spyre[0].sha.value, trendSha(1)); // oldest commit first
    EXPECT_EQ(spyre[1].sha.value, trendSha(3));
    EXPECT_TRUE(runs({0, 0, "nobody/nothing"}).empty());
}

TEST_F(TrendsTest, AWindowThatEndsBeforeItStartsIsAnError)
{
    auto r = TrendStore(*m_cache).trendRuns({kDay0, kDay0 - 1, ""});
    ASSERT_FALSE(r);
    EXPECT_NE(r.message().find("ends"), std::string::npos) << r.message();
    auto f = failuresByClass(*m_cache, {}, kDay0, kDay0);
    EXPECT_FALSE(f);
}

TEST_F(TrendsTest, PassRatePerBackendCountsOnlyRunsWithAVerdict)
{
    add(RunSpec(1).job("a"));
    add(RunSpec(1).job("b").conclusion(Conclusion::Failure));
    add(RunSpec(1).job("c").conclusion(Conclusion::Skipped));
    add(RunSpec(1).job("d").conclusion(Conclusion::None).status(RunStatus::InProgress));
    add(RunSpec(2).job("a").conclusion(Conclusion::TimedOut));
    add(RunSpec(2).job("a").repo(kAscend));
    add(RunSpec(3).job("a").dayOffset(1));

    const auto series = passRates(runs(), "");
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].name, kAscend);
    ASSERT_EQ(series[0].byCommit.size(), 1u);
    EXPECT_DOUBLE_EQ(series[0].byCommit[0].rate(), 1.0);

    const PassRateSeries& spyre = series[1];
    EXPECT_EQ(spyre.name, kSpyre);
    ASSERT_EQ(spyre.byCommit.size(), 3u);
    EXPECT_EQ(spyre.byCommit[0].sha.value, trendSha(1));
    EXPECT_EQ(spyre.byCommit[0].completed, 2); // skipped and running runs left out
    EXPECT_EQ(spyre.byCommit[0].succeeded, 1);
    EXPECT_DOUBLE_EQ(spyre.byCommit[0].rate(), 0.5);
    EXPECT_EQ(spyre.byCommit[1].completed, 1);
    EXPECT_EQ(spyre.byCommit[1].succeeded, 0);
    ASSERT_EQ(spyre.byDay.size(), 2u);
    EXPECT_EQ(spyre.byDay[0].time, kDay0);
    EXPECT_TRUE(spyre.byDay[0].sha.empty());
    EXPECT_EQ(spyre.byDay[0].completed, 3);
    EXPECT_EQ(spyre.byDay[0].succeeded, 1);
    EXPECT_EQ(spyre.byDay[1].time, kDay0 + kDay);
    EXPECT_DOUBLE_EQ(spyre.byDay[1].rate(), 1.0);
}

TEST_F(TrendsTest, PassRateForOneBackendHasASeriesPerJob)
{
    add(RunSpec(1).job("a"));
    add(RunSpec(1).job("b").conclusion(Conclusion::Failure));
    add(RunSpec(2).job("b"));
    add(RunSpec(2).job("z").repo(kAscend));
    const auto series = passRates(runs(), kSpyre);
    ASSERT_EQ(series.size(), 2u);
    EXPECT_EQ(series[0].name, "CI / a");
    EXPECT_EQ(series[1].name, "CI / b");
    ASSERT_EQ(series[1].byCommit.size(), 2u);
    EXPECT_DOUBLE_EQ(series[1].byCommit[0].rate(), 0.0);
    EXPECT_DOUBLE_EQ(series[1].byCommit[1].rate(), 1.0);
}

TEST_F(TrendsTest, FailuresTakeThePersonsClassOverTheSuggestionPerDay)
{
    add(RunSpec(1).stored(Tests{{"t_reg", TestOutcome::Passed}, {"t_tag", TestOutcome::Passed}}));
    add(RunSpec(2)
            .conclusion(Conclusion::Failure)
            .stored(Tests{{"t_reg", TestOutcome::Failed},
                          {"t_tag", TestOutcome::Failed},
                          {"t_xf", TestOutcome::XFailed}}));
    // A failed job with no results: the job itself is the failure.
    add(RunSpec(3).job("build").conclusion(Conclusion::Failure).dayOffset(2));
    TriageTag tag;
    tag.target = {kSpyre, "CI", "test", Sha{trendSha(2)}, 1, "test/test_ops.py::TestOps::t_tag"};
    tag.cls = FailureClass::Flaky;
    tag.author = "me";
    tag.timeMs = 1;
    ASSERT_TRUE(TriageStore(*m_cache).setTriageTags({tag}));

    auto f = failuresByClass(*m_cache, runs(), kDay0, kDay0 + 4 * kDay);
    ASSERT_TRUE(f) << f.message();
    ASSERT_EQ(f->days.size(), 4u); // quiet days are listed too
    EXPECT_EQ(f->days[0], kDay0);
    EXPECT_EQ(f->days[3], kDay0 + 3 * kDay);
    ASSERT_EQ(f->classes, (std::vector<FailureClass>{FailureClass::Regression, FailureClass::Flaky,
                                                     FailureClass::Untriaged}));
    EXPECT_EQ(f->counts[0], (std::vector<int>{1, 0, 0, 0}));
    EXPECT_EQ(f->counts[1], (std::vector<int>{1, 0, 0, 0}));
    EXPECT_EQ(f->counts[2], (std::vector<int>{0, 0, 1, 0}));
    EXPECT_EQ(f->tagged, 1);
    EXPECT_EQ(f->suggested, 2); // the xfailed test is not a failure
}

TEST_F(TrendsTest, NoFailuresGiveEmptyClassesOverTheWindowsDays)
{
    add(RunSpec(1));
    auto f = failuresByClass(*m_cache, runs(), kDay0, kDay0 + 2 * kDay);
    ASSERT_TRUE(f) << f.message();
    EXPECT_EQ(f->days.size(), 2u);
    EXPECT_TRUE(f->classes.empty());
    EXPECT_TRUE(f->counts.empty());
}

TEST_F(TrendsTest, TimingsKeepRunsWithRelayMeasuredTimesInTimeOrder)
{
    const auto late = add(RunSpec(2).queue(12.0).execution(300.0));
    add(RunSpec(3)); // no relay times: left out
    const auto early = add(RunSpec(1).job("other").queue(5.0));
    const auto points = timings(runs());
    ASSERT_EQ(points.size(), 2u);
    EXPECT_EQ(points[0].checkRunRow, early);
    EXPECT_EQ(points[0].queueSeconds, 5.0);
    EXPECT_FALSE(points[0].executionSeconds);
    EXPECT_EQ(points[0].time, kDay0 + 3600 + 60); // the run's start
    EXPECT_EQ(points[1].checkRunRow, late);
    EXPECT_EQ(points[1].sha.value, trendSha(2));
    EXPECT_EQ(points[1].executionSeconds, 300.0);
    EXPECT_EQ(points[1].job.label(true), kSpyre + ": CI / test");
}

TEST_F(TrendsTest, TestsExecutedPreferTheArtifactsAndFlagAShrinkingSuite)
{
    const Tests ten = [] {
        Tests t;
        for (int i = 0; i < 10; ++i)
            t.push_back({"t" + std::to_string(i), TestOutcome::Passed});
        return t;
    }();
    add(RunSpec(1).reported(TestCounts{99, 99, 0, 0}).stored(ten));
    add(RunSpec(2).reported(TestCounts{12, 9, 0, 2})); // self-reported only: 10 ran
    add(RunSpec(3));                                   // no count at all: a gap
    add(RunSpec(4).stored(Tests(ten.begin(), ten.begin() + 8)));
    add(RunSpec(4).job("other").stored(ten));
    const auto points = testsExecuted(runs(), {kSpyre, "CI", "test"});
    ASSERT_EQ(points.size(), 3u);
    EXPECT_EQ(points[0].executed, 10);
    EXPECT_EQ(points[0].source, CountSource::Artifacts);
    EXPECT_EQ(points[1].executed, 10);
    EXPECT_EQ(points[1].source, CountSource::SelfReported);
    EXPECT_FALSE(points[1].shrank);
    EXPECT_EQ(points[2].sha.value, trendSha(4));
    EXPECT_EQ(points[2].executed, 8);
    EXPECT_TRUE(points[2].shrank); // 20% fewer than the run before
    EXPECT_FALSE(testsExecuted(runs(), {kSpyre, "CI", "test"}, 0.25)[2].shrank);
}

TEST_F(TrendsTest, DurationsPerJobGiveMedianAndNearestRankP90)
{
    for (int i = 1; i <= 10; ++i)
        add(RunSpec(i).execution(60.0 * i));
    add(RunSpec(1).job("quick")); // no relay time: completed - started, 1200 s
    add(RunSpec(2)
            .job("quick")
            .conclusion(Conclusion::None)
            .status(RunStatus::InProgress)); // unfinished: no duration
    const auto jobs = durationsByJob(runs());
    ASSERT_EQ(jobs.size(), 2u);
    EXPECT_EQ(jobs[0].job.job, "quick"); // longest p90 first
    EXPECT_EQ(jobs[0].runs, 1);
    EXPECT_DOUBLE_EQ(jobs[0].p90Seconds, 1200.0);
    EXPECT_EQ(jobs[1].runs, 10);
    EXPECT_DOUBLE_EQ(jobs[1].medianSeconds, 300.0);
    EXPECT_DOUBLE_EQ(jobs[1].p90Seconds, 540.0);
    EXPECT_DOUBLE_EQ(jobs[1].maxSeconds, 600.0);
}

TEST(TrendsMath, PercentilesDaysAndSelections)
{
    EXPECT_DOUBLE_EQ(percentile({}, 0.9), 0.0);
    EXPECT_DOUBLE_EQ(percentile({7.0}, 0.9), 7.0);
    EXPECT_DOUBLE_EQ(percentile({4.0, 1.0, 3.0, 2.0}, 0.5), 2.0);
    EXPECT_DOUBLE_EQ(percentile({4.0, 1.0, 3.0, 2.0}, 1.0), 4.0);
    EXPECT_DOUBLE_EQ(percentile({4.0, 1.0}, 0.0), 1.0);
    EXPECT_EQ(dayStart(kDay0 + 5), kDay0);
    EXPECT_EQ(dayStart(-1), -kDay);
    TrendRun a;
    a.repo = kSpyre;
    a.workflow = "CI";
    a.job = "x";
    TrendRun b = a;
    b.repo = kAscend;
    EXPECT_EQ(selectRuns({a, b}, kSpyre, std::nullopt).size(), 1u);
    EXPECT_EQ(selectRuns({a, b}, "", JobKey{kAscend, "CI", "x"}).size(), 1u);
    EXPECT_EQ(backendsIn({a, b}), (std::vector<std::string>{kAscend, kSpyre}));
    EXPECT_EQ(jobsIn({a, b, a}).size(), 2u);
}

// crcr-test's counts are health checks and TorchedHat's test commands
// (real-backends.md 1.3, 1.4; model/count_kind.h): no point on a line of
// executed test cases, where they would read as a shrink or a growth.
TEST(TrendsMath, HealthCheckAndCommandCountsAreNoExecutedTests)
{
    for (const char* repo : {"pytorch/crcr-test", "TorchedHat/pytorch-redhat-ci"}) {
        TrendRun r;
        r.repo = repo;
        r.workflow = "w";
        r.job = "j";
        r.status = RunStatus::Completed;
        r.conclusion = Conclusion::Success;
        r.reportedTests = TestCounts{4, 4, 0, 0};
        EXPECT_TRUE(testsExecuted({r}, {repo, "w", "j"}).empty()) << repo;
        r.repo = "Ascend/pytorch"; // a kind not known: plotted as before
        EXPECT_EQ(testsExecuted({r}, {"Ascend/pytorch", "w", "j"}).size(), 1U);
    }
}
