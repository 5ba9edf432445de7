// The backends overview: our pass rate beside the HUD's, relay timings of
// first attempts only, worst backend first.
#include "relayhud/verdict/backend_overview.h"

#include <gtest/gtest.h>

namespace {

using namespace relayhud;
using namespace relayhud::verdict;

TrendRun run(const std::string& repo, Conclusion conclusion, int attempt = 1,
             std::optional<double> queue = std::nullopt)
{
    TrendRun r;
    r.repo = repo;
    r.workflow = "ci";
    r.job = "test";
    r.attempt = attempt;
    r.status = RunStatus::Completed;
    r.conclusion = conclusion;
    r.commitTime = 1000;
    r.startedAt = 1000;
    r.completedAt = 1600;
    r.queueSeconds = queue;
    r.executionSeconds = queue ? std::optional<double>(*queue * 10) : std::nullopt;
    return r;
}

TEST(BackendOverview, CountsRatesAndTimingsAndPutsTheWorstFirst)
{
    Backend npu{"org/npu", Level::L3, {"alice"}};
    Backend xpu{"org/xpu", Level::L2, {}};
    Backend idle{"org/idle", Level::L2, {}};
    std::vector<TrendRun> runs{
        run("org/npu", Conclusion::Success, 1, 60),   run("org/npu", Conclusion::Success, 1, 120),
        run("org/npu", Conclusion::Failure, 2, 9000), // retried
        run("org/npu", Conclusion::TimedOut, 1),      run("org/npu", Conclusion::Skipped, 1),
        run("org/xpu", Conclusion::Success, 1),       run("org/xpu", Conclusion::Cancelled, 1)};
    TrendRun running = run("org/xpu", Conclusion::None);
    running.status = RunStatus::InProgress;
    runs.push_back(running);
    RepoSummary hud;
    hud.repo = "org/npu";
    hud.total = 40;
    hud.successes = 30;
    hud.passRate = 0.75;
    const auto all = backendOverviews({xpu, npu, idle}, runs, {hud});
    ASSERT_EQ(all.size(), 3U);
    // npu 2/4 = 50 % before xpu 1/2 = 50 %? Equal rates: more failures first.
    EXPECT_EQ(all[0].repo, "org/npu");
    EXPECT_EQ(all[1].repo, "org/xpu");
    EXPECT_EQ(all[2].repo, "org/idle"); // no finished runs: last
    const BackendOverview& n = all[0];
    EXPECT_EQ(n.runs, 5);
    EXPECT_EQ(n.completed, 4); // skipped says nothing
    EXPECT_EQ(n.succeeded, 2);
    EXPECT_EQ(n.failed, 2);
    EXPECT_EQ(n.timedOut, 1);
    EXPECT_DOUBLE_EQ(*n.passRate, 0.5);
    EXPECT_DOUBLE_EQ(n.timeoutRate(), 0.25);
    EXPECT_DOUBLE_EQ(*n.hudPassRate, 0.75);
    EXPECT_EQ(*n.hudRuns, 40);
    // The retried run's queue time (from the first dispatch) is left out.
    EXPECT_DOUBLE_EQ(*n.avgQueueSeconds, 90.0);
    EXPECT_DOUBLE_EQ(*n.avgExecutionSeconds, 900.0);
    EXPECT_EQ(n.timedFirstAttempts, 2);
    EXPECT_DOUBLE_EQ(*n.avgDurationSeconds, 600.0);
    EXPECT_EQ(n.oncalls, std::vector<std::string>{"alice"});
    EXPECT_EQ(all[1].running, 1);
    EXPECT_FALSE(all[1].hudPassRate.has_value());
    EXPECT_FALSE(all[2].passRate.has_value());
}

TEST(BackendOverview, OneCallbackRunsHaveNoDuration)
{
    TrendRun once = run("org/npu", Conclusion::Success);
    once.startedAt = once.completedAt; // a single completed callback (R5)
    const auto all = backendOverviews({}, {once}, {});
    ASSERT_EQ(all.size(), 1U);
    EXPECT_FALSE(all[0].avgDurationSeconds.has_value());
    EXPECT_EQ(all[0].completed, 1);
}

} // namespace
