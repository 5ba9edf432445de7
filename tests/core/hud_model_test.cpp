// The model's rules for HUD data: which run is the newest, the relay's
// health as the HUD's cards judge it, a nightly's duration and key.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/model/types.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace relayhud;

TEST(RunOrder, NewestRunIsTheHighestAttemptThenTheLatestStartThenTheLatestRow)
{
    EXPECT_TRUE(isNewerRun({2, 100, 1}, {1, 200, 2}));
    EXPECT_TRUE(isNewerRun({1, 200, 1}, {1, 100, 2}));
    EXPECT_TRUE(isNewerRun({1, 100, 3}, {1, 100, 2}));
    EXPECT_FALSE(isNewerRun({1, std::nullopt, 3}, {1, 100, 2}));
    EXPECT_FALSE(isNewerRun({1, 100, 2}, {1, 100, 2}));
}

TEST(RelayHealth, JudgedAsTheHudsCardsJudgeIt)
{
    // index.tsx: PRs all at pass_rate 1 -> Healthy; nightly SHAs whose every
    // job completed as intended (xfail failed, xcancel cancelled, xtimeout timed out).
    EXPECT_TRUE(isExpectedProbeOutcome("test-xfail", Conclusion::Failure));
    EXPECT_TRUE(isExpectedProbeOutcome("test-xcancel", Conclusion::Cancelled));
    EXPECT_TRUE(isExpectedProbeOutcome("test-xtimeout", Conclusion::TimedOut));
    EXPECT_FALSE(isExpectedProbeOutcome("test-xfail", Conclusion::Cancelled));
    EXPECT_FALSE(isExpectedProbeOutcome("test-xFail", Conclusion::Failure));
    EXPECT_TRUE(isExpectedProbeOutcome("test", Conclusion::Success));

    auto nightly = [](const std::string& sha, const std::string& job, Conclusion c,
                      EpochSeconds t) {
        CheckRun r;
        r.upstreamSha = Sha{sha};
        r.jobName = job;
        r.reported.status = RunStatus::Completed;
        r.reported.conclusion = c;
        r.reported.startedAt = t;
        return r;
    };
    std::vector<CheckRun> runs;
    // Six SHAs: the oldest (failed) falls outside the newest five.
    runs.push_back(nightly("s0", "build", Conclusion::Failure, 100));
    for (int i = 1; i <= 5; ++i) {
        runs.push_back(
            nightly("s" + std::to_string(i), "xfail-probe", Conclusion::Failure, 100 + i));
        runs.push_back(nightly("s" + std::to_string(i), "build", Conclusion::Success, 100 + i));
    }
    RelayHealth h = judgeRelayHealth({ProbePr{1, 10, 4, 4, 1.0}}, runs);
    EXPECT_EQ(h.prs, HealthState::Healthy);
    EXPECT_EQ(h.nightlies, HealthState::Healthy);
    EXPECT_EQ(h.nightliesJudged, 5);
    EXPECT_EQ(h.summary(), "relay healthy: 1/1 probe PRs, 5/5 probe nightlies as expected");
    runs.push_back(nightly("s5", "xcancel-probe", Conclusion::Failure, 105));
    h = judgeRelayHealth({}, runs);
    EXPECT_EQ(h.prs, HealthState::NoData);
    EXPECT_EQ(h.nightlies, HealthState::Degraded);
    EXPECT_EQ(h.nightliesPassed, 4);
    EXPECT_EQ(h.overall(), HealthState::Degraded);
    EXPECT_EQ(judgeRelayHealth({}, {}).overall(), HealthState::NoData);
}

TEST(ShortSha, AFreeTextNightlyKeyIsShownWhole)
{
    EXPECT_EQ((Sha{"1704654d1fe11703b0dc47c99bc5e2459126a575"}.shortSha()), "1704654");
    EXPECT_EQ((Sha{"nightly-2026-12-01"}.shortSha()), "nightly-2026-12-01");
}

TEST(CallbackDuration, ANightlysSingleCallbackReportsNoDuration)
{
    EXPECT_EQ(callbackDuration(100, 100), std::nullopt);
    EXPECT_EQ(callbackDuration(std::nullopt, 100), std::nullopt);
    EXPECT_EQ(callbackDuration(100, 160), 60.0);
}

// crcr_nightly_summary's columns as its query names them (pytorch/test-infra
// torchci/clickhouse_queries/crcr_nightly_summary/query.sql L1-11 @61a77570),
// with the HUD's JSON types (UInt64 as numbers, DateTime64(9) as ISO text;
// hud-read-api.md section 0). latest_sha is a free-text delivery-id.
TEST(HudSummaries, NightlySummaryRowsMapWithTheirLatestSha)
{
    const auto rows = nlohmann::json::parse(R"([
      {"repo":"TorchedHat/pytorch-redhat-ci","downstream_repo_level":"L2","successes":3,
       "failures":1,"timed_out":1,"total":6,"pass_rate":0.5,"avg_duration_s":0,
       "last_run":"2026-05-04T08:31:02.123456000Z",
       "latest_sha":"0123456789abcdef0123456789abcdef01234567"},
      {"repo":"vllm-project/vllm","downstream_repo_level":"L2","successes":0,"failures":0,
       "timed_out":0,"total":1,"pass_rate":0,"avg_duration_s":0,
       "last_run":"2026-05-03T04:00:00.000000000Z","latest_sha":"buildkite-12-ab"}])");
    auto mapped = mapNightlySummaries(rows);
    ASSERT_TRUE(mapped) << mapped.message();
    ASSERT_EQ(mapped->size(), 2U);
    const NightlySummary& rh = (*mapped)[0];
    EXPECT_EQ(rh.repo, "TorchedHat/pytorch-redhat-ci");
    EXPECT_EQ(rh.level, Level::L2);
    EXPECT_EQ(rh.successes, 3);
    EXPECT_EQ(rh.failures, 1);
    EXPECT_EQ(rh.timedOut, 1);
    EXPECT_EQ(rh.total, 6); // the sixth: cancelled, in the total only
    EXPECT_DOUBLE_EQ(rh.passRate, 0.5);
    ASSERT_TRUE(rh.lastRun);
    EXPECT_EQ(rh.latestSha, "0123456789abcdef0123456789abcdef01234567");
    EXPECT_EQ((*mapped)[1].latestSha, "buildkite-12-ab");
    EXPECT_FALSE(mapNightlySummaries(nlohmann::json::parse(R"([{"repo":"noslash"}])")));
}

// crcr_success_rate: one row per (day, repo), day a ClickHouse Date
// (crcr_success_rate/query.sql L1-42 @61a77570).
TEST(HudSummaries, DailySuccessRateRowsMapByDayAndRepo)
{
    const auto rows = nlohmann::json::parse(R"([
      {"day":"2026-05-03","repo":"org/npu","successes":8,"failures":1,"timed_out":0,
       "total":10,"pass_rate":0.8},
      {"day":"2026-05-04","repo":"org/npu","successes":5,"failures":0,"timed_out":0,
       "total":5,"pass_rate":1}])");
    auto mapped = mapDailyRates(rows);
    ASSERT_TRUE(mapped) << mapped.message();
    ASSERT_EQ(mapped->size(), 2U);
    EXPECT_EQ((*mapped)[0].day, "2026-05-03");
    EXPECT_EQ((*mapped)[0].total, 10);
    EXPECT_DOUBLE_EQ((*mapped)[0].passRate, 0.8);
    EXPECT_DOUBLE_EQ((*mapped)[1].passRate, 1.0);
    EXPECT_FALSE(mapDailyRates(nlohmann::json::parse(R"({"day":"x"})")));
}
