// HudSync against the real HUD's limits (../shared/specs/hud-read-api.md R1-R17),
// over real HTTP on loopback: a scripted HUD that answers with the saved
// queries' real column lists (test-infra @61a77570 torchci/clickhouse_queries/
// crcr_backend_dashboard/query.sql:1-22) and fails the way the real host does.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/store/hud_answer_store.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/hud_sync.h"
#include "scripted_hud.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <map>
#include <set>

using namespace relayhud;
using nlohmann::json;
using relayhud::test::RawHttpServer;
using relayhud::test::RawRequest;
using relayhud::test::rawResponse;

namespace {

using namespace relayhud::test;

class HudLimitsTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_server = std::make_unique<RawHttpServer>(
            [this](const RawRequest& r) { return m_hud.answer(r); });
        auto cache = relayhud::testing::openTestCache(":memory:");
        ASSERT_TRUE(cache) << cache.message();
        m_cache = std::move(cache.value());
        HttpOptions options;
        options.retry.baseDelay = std::chrono::milliseconds(5);
        options.retry.maxDelay = std::chrono::milliseconds(20);
        m_http = std::make_unique<HttpClient>(options);
        m_client = std::make_unique<HudClient>(*m_http, m_server->url(""));
    }

    Result<SyncReport> sync(int perPage = 50)
    {
        HudSync sync(*m_client, *m_cache);
        SyncOptions options;
        options.days = 30;
        options.perPage = perPage;
        return sync.run(options);
    }

    std::vector<int> dashboardPageSizes() const
    {
        std::vector<int> out;
        for (const auto& r : m_server->requests())
            if (r.target.find("crcr_backend_dashboard") != std::string::npos)
                out.push_back(
                    json::parse(queryValue(r.target, "parameters")).at("per_page").get<int>());
        return out;
    }

    static bool mentions(const std::vector<std::string>& lines, const std::string& text)
    {
        for (const auto& l : lines)
            if (l.find(text) != std::string::npos)
                return true;
        return false;
    }

    ScriptedHud m_hud;
    std::unique_ptr<RawHttpServer> m_server;
    relayhud::testing::TestCache m_cache;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<HudClient> m_client;
};

} // namespace

// R1: a page over the host's cap answers 500 on every try; the sync halves it
// down to what fits, gets every row, and starts from that size next time.
TEST_F(HudLimitsTest, APageOverTheCapIsHalvedUntilItFitsAndEveryRowLands)
{
    m_hud.prs = 60;
    m_hud.rowsPerPr = 3;
    m_hud.capBytes = 12 * 3 * 700; // about 12 PRs' rows
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_TRUE(report->errors.empty()) << report->errors.front();
    EXPECT_EQ(RunStore(*m_cache).stats()->checkRuns, 180);
    EXPECT_TRUE(mentions(report->workarounds,
                         "the HUD answered 500 (Internal Server Error) for crcr_backend_dashboard"))
        << (report->workarounds.empty() ? "" : report->workarounds.front());
    const auto sizes = dashboardPageSizes();
    ASSERT_GE(sizes.size(), 4u);
    EXPECT_EQ(sizes[0], 50);
    EXPECT_EQ(sizes[1], 25);
    EXPECT_LT(sizes.back(), 25);
    // Each too-large page is asked once: no retries of a deterministic 500.
    EXPECT_EQ(std::count(sizes.begin(), sizes.end(), 50), 1);

    const auto before = sizes.size();
    auto again = sync();
    ASSERT_TRUE(again) << again.message();
    const auto second = dashboardPageSizes();
    ASSERT_GT(second.size(), before);
    EXPECT_LT(second[before], 25) << "the second sync starts from the size that worked";
    EXPECT_EQ(RunStore(*m_cache).stats()->checkRuns, 180);
}

// R1 at the real cap: 50 PRs of ~130 rows cross 4.5 MB.
TEST_F(HudLimitsTest, ABusyBackendSyncsUnderTheRealCap)
{
    m_hud.prs = 70;
    m_hud.rowsPerPr = 130;
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_TRUE(report->errors.empty()) << report->errors.front();
    EXPECT_EQ(RunStore(*m_cache).stats()->checkRuns, 70 * 130);
    EXPECT_FALSE(report->workarounds.empty());
}

// At one PR per page a 500 is retried as any server error, then reported.
TEST_F(HudLimitsTest, APrTooLargeEvenAloneIsAnErrorNotALoop)
{
    m_hud.capBytes = 100;
    auto report = sync();
    ASSERT_FALSE(report);
    EXPECT_NE(report.message().find("HTTP 500"), std::string::npos) << report.message();
    EXPECT_LT(dashboardPageSizes().size(), 12u);
}

// R2: the allowlist's 502 leaves the queries working: use the cached one.
TEST_F(HudLimitsTest, AFailingAllowlistFallsBackOnTheCachedOne)
{
    m_hud.allowlistFailAfter = 1;
    ASSERT_TRUE(sync());
    const auto runs = RunStore(*m_cache).stats()->checkRuns;
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->backends, 1);
    EXPECT_EQ(RunStore(*m_cache).stats()->checkRuns, runs);
    EXPECT_TRUE(mentions(report->workarounds, "the allowlist failed"));
    EXPECT_TRUE(mentions(report->workarounds,
                         "the HUD answered 502 (Failed to fetch allowlist from GitHub: 503)"));
    const auto allowlistTries = m_hud.allowlistAnswers.load();
    EXPECT_EQ(allowlistTries, 2) << "a 502 is not retried";
}

TEST_F(HudLimitsTest, AFailingAllowlistWithNothingCachedFailsTheSync)
{
    m_hud.allowlistFailAfter = 0;
    auto report = sync();
    ASSERT_FALSE(report);
    EXPECT_NE(report.message().find("the HUD answered 502"), std::string::npos) << report.message();
}

TEST_F(HudLimitsTest, AStaleAllowlistIsUsedAndSaidSo)
{
    m_hud.allowlistFailAfter = 0;
    m_hud.allowlistStale = true;
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_TRUE(mentions(report->workarounds, "X-Cache: STALE"));
    EXPECT_EQ(report->backends, 1);
}

// R10: pr-info answers 500 for a whole batch holding one bad number.
TEST_F(HudLimitsTest, APrInfoBatchThatFailsIsBisectedAndOtherTitlesKept)
{
    m_hud.prs = 60;
    m_hud.prInfoFail = {100013};
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    auto missing = RunStore(*m_cache).prNumbersWithoutTitle(100);
    ASSERT_TRUE(missing);
    EXPECT_EQ(*missing, std::vector<PrNumber>{PrNumber{100013}});
    EXPECT_TRUE(mentions(report->workarounds, "#100013"));
}

// R13: the page unit is the PR among all rows, read or not.
TEST_F(HudLimitsTest, APrWhoseRowsCannotBeReadStillCountsForPaging)
{
    m_hud.prs = 40;
    // PR 100040 (first of page 0) gets an impossible attempt on every row.
    m_hud.rowsPerPr = 1;
    m_hud.extraRows.push_back(dashboardRow(100040, sha40(40), "job 0", "4000", "40000", 5000,
                                           "success", "2026-12-01T10:00:00.000000000Z"));
    auto report = sync(20);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(RunStore(*m_cache).stats()->checkRuns, 40);
}

// R14: offset pages over a live ordering; a PR that moves to the front while
// later pages are read is caught by reading page 0 again.
TEST_F(HudLimitsTest, APrThatJumpsToTheFrontMidSyncIsNotMissed)
{
    m_hud.prs = 30;
    m_hud.rowsPerPr = 1;
    m_hud.newPrAfterPages = 1;
    auto report = sync(10);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(RunStore(*m_cache).stats()->checkRuns, 31);
}

// R3 and R11: repos that report off the allowlist are synced and labelled;
// the probe repo is relay health, never a backend.
TEST_F(HudLimitsTest, ReportingReposAreFoundAndTheProbeIsRelayHealth)
{
    m_hud.extraAllowlist = json::array({{{"repo", kProbeRepo}, {"level", "L2"}}});
    m_hud.summaryRows = json::array({{{"repo", "acme/spyre"},
                                      {"downstream_repo_level", "L2"},
                                      {"successes", 3},
                                      {"failures", 0},
                                      {"timed_out", 0},
                                      {"total", 3},
                                      {"pass_rate", 1},
                                      {"avg_duration_s", 600},
                                      {"last_run", "2026-12-01T10:00:00.000000000Z"}},
                                     {{"repo", "other/npu"},
                                      {"downstream_repo_level", "L3"},
                                      {"successes", 1},
                                      {"failures", 1},
                                      {"timed_out", 0},
                                      {"total", 2},
                                      {"pass_rate", 0.5},
                                      {"avg_duration_s", 60},
                                      {"last_run", "2026-12-01T10:00:00.000000000Z"}},
                                     {{"repo", kProbeRepo},
                                      {"downstream_repo_level", "L2"},
                                      {"successes", 4},
                                      {"failures", 0},
                                      {"timed_out", 0},
                                      {"total", 4},
                                      {"pass_rate", 1},
                                      {"avg_duration_s", 60},
                                      {"last_run", "2026-12-01T10:00:00.000000000Z"}}});
    m_hud.healthRows = json::array({{{"pr_number", 7},
                                     {"last_run", "2026-12-01T10:00:00.000000000Z"},
                                     {"successes", 4},
                                     {"total", 4},
                                     {"pass_rate", 1}},
                                    {{"pr_number", 6},
                                     {"last_run", "2026-11-30T10:00:00.000000000Z"},
                                     {"successes", 3},
                                     {"total", 4},
                                     {"pass_rate", 0.75}}});
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    auto backends = RunStore(*m_cache).backends();
    ASSERT_TRUE(backends);
    std::map<std::string, Backend> byRepo;
    for (const auto& b : *backends)
        byRepo[b.repo] = b;
    ASSERT_TRUE(byRepo.count("other/npu"));
    EXPECT_FALSE(byRepo["other/npu"].allowlisted);
    EXPECT_EQ(byRepo["other/npu"].level, Level::L3);
    EXPECT_TRUE(byRepo["acme/spyre"].allowlisted);
    EXPECT_EQ(report->backends, 2);
    EXPECT_TRUE(mentions(report->workarounds, "other/npu reports rows but is not at L2+"));
    for (const auto& r : m_server->requests()) {
        const bool dashboard = r.target.find("crcr_backend_dashboard") != std::string::npos;
        EXPECT_FALSE(dashboard && r.target.find("crcr-test") != std::string::npos)
            << "the probe repo is not synced as a backend";
    }
    auto health = cachedRelayHealth(*m_cache);
    ASSERT_TRUE(health);
    EXPECT_EQ(health->prs, HealthState::Degraded);
    EXPECT_EQ(health->prsPassed, 1);
    EXPECT_EQ(health->prsJudged, 2);
    EXPECT_EQ(health->nightlies, HealthState::NoData);
    EXPECT_EQ(health->overall(), HealthState::Degraded);
}

// R4: a full nightly answer (500 rows) cuts the oldest nightlies: said.
TEST_F(HudLimitsTest, AFullNightlyAnswerSaysHistoryIsCut)
{
    for (int i = 0; i < 500; ++i) {
        json row = dashboardRow(0, sha40(9000 + i / 10), "nightly " + std::to_string(i % 10),
                                std::to_string(90000 + i), std::to_string(9000 + i), 1, "success",
                                "2026-11-20T10:00:00.000000000Z");
        row.erase("pr_number"); // the nightly query's 20 columns
        m_hud.nightlyRows.push_back(row);
    }
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_TRUE(mentions(report->workarounds, "at most 500 nightly rows"));
    // Nightly commits are main commits (real-backends.md section 2), titled
    // through commit-info as any main commit.
    auto commits = RunStore(*m_cache).commits();
    ASSERT_TRUE(commits);
    int nightlies = 0;
    for (const auto& c : *commits) {
        if (c.eventType == EventType::Nightly) {
            ++nightlies;
            EXPECT_EQ(c.branch, "main");
            EXPECT_EQ(c.title, "[inductor] Fuse the epilogue (#158123)");
        }
    }
    EXPECT_EQ(nightlies, 50);
}

// R6: a nightly key that is not a SHA is never sent to commit-info (one
// malformed oid would fail the whole batch).
TEST_F(HudLimitsTest, FreeTextNightlyKeysAreNotLookedUp)
{
    json row = dashboardRow(0, "nightly-2026-12-01", "nightly", "1", "2", 1, "success",
                            "2026-12-01T10:00:00.000000000Z");
    m_hud.nightlyRows.push_back(row);
    json real = dashboardRow(0, sha40(77), "nightly", "3", "4", 1, "success",
                             "2026-12-01T10:00:00.000000000Z");
    m_hud.nightlyRows.push_back(real);
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_FALSE(mentions(report->warnings, "nightly titles"));
    for (const auto& r : m_server->requests())
        EXPECT_EQ(r.target.find("nightly-2026"), std::string::npos) << r.target;
    auto commits = RunStore(*m_cache).commits();
    ASSERT_TRUE(commits);
    for (const auto& c : *commits)
        EXPECT_TRUE(c.sha.value != sha40(77) || !c.title.empty());
}

// R7: only crcr_hud_results says the level a run was dispatched at.
TEST_F(HudLimitsTest, DispatchLevelsComeFromCrcrHudResultsOnly)
{
    m_hud.extraAllowlist = json::array({{{"repo", "acme/spyre"}, {"level", "L3"}}});
    m_hud.hudResultsRows =
        json::array({{{"pr_number", 100060},
                      {"pytorch_head_sha", sha40(60)},
                      {"downstream_repo", "acme/spyre"},
                      {"downstream_repo_level", "L4"},
                      {"workflow_name", "ci"},
                      {"job_name", "job 0"},
                      {"check_run_id", "6000"},
                      {"run_id", "60000"},
                      {"run_attempt", 1},
                      {"status", "completed"},
                      {"conclusion", "success"},
                      {"workflow_run_url", "https://github.com/acme/spyre/actions/runs/60000"},
                      {"duration_seconds", 600},
                      {"failed_tests_json", ""}}});
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    auto runs = RunStore(*m_cache).checkRunsForSha(Sha{sha40(60)});
    ASSERT_TRUE(runs);
    int verified = 0, now = 0;
    for (const auto& r : *runs) {
        if (r.trusted.levelAtDispatch) {
            ++verified;
            EXPECT_EQ(r.trusted.level, Level::L4);
        } else {
            ++now;
        }
    }
    EXPECT_EQ(verified, 1);
    EXPECT_EQ(now, 2);
}

// R8: a closed/reopened re-dispatch and legs sharing a job name are rows of
// their own; the newest (latest start) is the one the matrix shows.
TEST_F(HudLimitsTest, RunsAtTheSameAttemptAreKeptApartAndTheNewestIsShown)
{
    m_hud.prs = 1;
    m_hud.rowsPerPr = 1;
    m_hud.extraRows.push_back(dashboardRow(100001, sha40(1), "job 0", "777", "5555", 1, "failure",
                                           "2026-12-01T12:00:00.000000000Z"));
    m_hud.extraRows.push_back(dashboardRow(100001, sha40(1), "job 0", "778", "5555", 1,
                                           "action_required", "2026-12-01T09:00:00.000000000Z"));
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(RunStore(*m_cache).stats()->checkRuns, 3);
    auto matrix = MatrixStore(*m_cache).loadMatrix(MatrixQuery{});
    ASSERT_TRUE(matrix) << matrix.message();
    ASSERT_EQ(matrix->rows.size(), 1u);
    ASSERT_EQ(matrix->columns.size(), 1u);
    const MatrixCell& cell = matrix->cells[0];
    auto shown = RunStore(*m_cache).checkRun(cell.runRowId);
    ASSERT_TRUE(shown);
    EXPECT_EQ(shown->checkRunId.value, "777") << "the latest start wins a tie of attempts";
    // R17: a conclusion RelayHUD has no member for is kept verbatim.
    bool verbatim = false;
    auto all = RunStore(*m_cache).checkRunsForSha(Sha{sha40(1)});
    ASSERT_TRUE(all);
    for (const auto& r : *all)
        verbatim |= r.reported.conclusionText == "action_required"
                    && r.reported.conclusion == Conclusion::None;
    EXPECT_TRUE(verbatim);
}

// The HUD's own aggregates are kept verbatim for offline views; pushes and
// periodic runs appear only in crcr_success_rate (hud-read-api.md §1b, §4).
TEST_F(HudLimitsTest, TheHudsAggregatesAreKeptVerbatim)
{
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_FALSE(mentions(report->warnings, "crcr_success_rate"));
    auto push = HudAnswerStore(*m_cache).hudAnswer(
        "crcr_success_rate", answerKey(json{{"days", 30}, {"event_type", "push"}}));
    ASSERT_TRUE(push && *push);
    EXPECT_EQ(json::parse((*push)->body).at(0).at("total"), 4);
    auto summary = HudAnswerStore(*m_cache).hudAnswer(
        "crcr_backend_summary", answerKey(json{{"repo", "acme/spyre"}, {"days", 30}}));
    ASSERT_TRUE(summary && *summary);
    EXPECT_EQ(json::parse((*summary)->body).at(0).at("avg_queue_time_s"), 12.5);
    auto nightly =
        HudAnswerStore(*m_cache).hudAnswer("crcr_nightly_summary", answerKey(json{{"days", 30}}));
    EXPECT_TRUE(nightly && *nightly);
}

// What the views show beside RelayHUD's numbers (the Backends tab): the kept
// answers read back by window, in the HUD's definitions; a window no sync
// kept, or a kept body that no longer reads as rows, is not answered.
TEST_F(HudLimitsTest, TheKeptAggregatesReadBackByWindow)
{
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    const KeptAggregates kept = cachedAggregates(*m_cache, 30);
    EXPECT_TRUE(kept.reposAnswered);
    EXPECT_TRUE(kept.nightlyAnswered) << "an empty answer is an answer";
    EXPECT_TRUE(kept.nightly.empty());
    ASSERT_TRUE(kept.dailyAnswered);
    ASSERT_EQ(kept.daily.count("acme/spyre"), 1u);
    const auto& byEvent = kept.daily.at("acme/spyre");
    ASSERT_EQ(byEvent.size(), std::size(kKeptDailyEvents));
    ASSERT_EQ(byEvent.at("push").size(), 1u);
    EXPECT_EQ(byEvent.at("push")[0].total, 4);
    EXPECT_EQ(byEvent.at("pull_request")[0].total, 1);
    EXPECT_EQ(byEvent.at("pull_request")[0].day, "2026-12-01");

    const KeptAggregates other = cachedAggregates(*m_cache, 7);
    EXPECT_FALSE(other.reposAnswered);
    EXPECT_FALSE(other.nightlyAnswered);
    EXPECT_FALSE(other.dailyAnswered);

    for (const char* event : kKeptDailyEvents)
        ASSERT_TRUE(HudAnswerStore(*m_cache).setHudAnswer(
            "crcr_success_rate", answerKey(json{{"days", 30}, {"event_type", event}}),
            "{\"not\": \"rows\"", 0));
    ASSERT_TRUE(HudAnswerStore(*m_cache).setHudAnswer("crcr_summary", answerKey(json{{"days", 30}}),
                                                      "[1, 2]", 0));
    const KeptAggregates broken = cachedAggregates(*m_cache, 30);
    EXPECT_FALSE(broken.dailyAnswered);
    EXPECT_TRUE(broken.daily.empty());
    EXPECT_FALSE(broken.reposAnswered);
    EXPECT_TRUE(broken.nightlyAnswered);
}

// R16: the HUD's plain-text 500 is named as such, not as invalid JSON.
TEST_F(HudLimitsTest, AQueryErrorSaysTheHudAnswered500)
{
    auto rows = m_client->savedQuery("no_such_query", json::object());
    ASSERT_FALSE(rows);
    EXPECT_EQ(rows.message(), "the HUD answered 500 (Internal Server Error) for no_such_query");
}
