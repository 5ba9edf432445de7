// The model's rules for HUD data: which run is the newest, the relay's
// health as the HUD's cards judge it, a nightly's duration and key.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/model/types.h"

#include <gtest/gtest.h>

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
