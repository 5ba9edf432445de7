// ArtifactSync over a real SQLite cache and FakeGitHub on loopback: the
// queue by policy, one test run per check run, states for what could not be
// stored, errors once per distinct problem, fetchRun, hostile archives, cancel.
#include "relayhud/store/test_result_store.h"
#include "relayhud/sync/artifact_sync.h"

#include "relayhud/util/time.h"

#include "artifact_test_support.h"
#include "github_sync_fixture.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>

namespace {

using namespace std::chrono_literals;
using namespace relayhud;
using relayhud::test::archiveOf;
using relayhud::test::FakeGitHub;
using relayhud::test::junitXml;
namespace fs = std::filesystem;

class ArtifactSyncTest : public relayhud::test::GitHubSyncTest {
protected:
    ArtifactSyncTest() : GitHubSyncTest("artifact-sync") {}

    // A finished run of job `index` whose artifact (if any) is the job's own zip.
    CheckRunRow addRun(int index, Conclusion conclusion, const std::string& zip = {},
                       const std::string& artifactUrl = {})
    {
        const EpochSeconds now = nowSeconds();
        CheckRun run = relayhud::testing::completedRun(
            std::string(40, static_cast<char>('a' + index)),
            "test (default, " + std::to_string(index) + ")", 1, conclusion, now - 3600);
        run.runId = std::to_string(14800000000 + index);
        run.checkRunId = CheckRunId{std::to_string(1000 + index)};
        run.reported.runUrl =
            "https://github.com/torch-spyre/torch-spyre/actions/runs/" + run.runId;
        run.reported.artifactUrl =
            artifactUrl.empty() ? run.reported.runUrl + "/artifacts" : artifactUrl;
        if (!zip.empty())
            m_github.artifacts.push_back(
                {index + 1,
                 "test-reports-runattempt1-test-default-1-1-linux_" + run.checkRunId.value, zip,
                 false});
        return relayhud::testing::addRun(*m_cache, run, now - 3600);
    }
    static std::string reportZip(int passed, int failed)
    {
        return archiveOf(
            {{"test-reports/python-pytest/test_ops/test_ops-123.xml", junitXml(passed, failed)}});
    }
    ArtifactSync sync() { return ArtifactSync(*m_cache, *m_fetcher, m_settings); }
    // A torch-spyre green as its callback sends it (real-backends.md 1.5):
    // no artifact_url, its run URL only.
    CheckRunRow addSpyreGreen(EpochSeconds completedAt)
    {
        CheckRun run =
            relayhud::testing::completedRun(std::string(40, 'e'), "linux-x86_64 / pytorch / test",
                                            1, Conclusion::Success, completedAt - 3600);
        run.runId = "17001";
        run.checkRunId = CheckRunId{"41000000077"};
        run.reported.runUrl = "https://github.com/torch-spyre/torch-spyre/actions/runs/17001";
        run.reported.artifactUrl.clear();
        run.reported.completedAt = completedAt;
        return relayhud::testing::addRun(*m_cache, run, completedAt - 3600);
    }
    TestRunInfo testRunOf(CheckRunRow row)
    {
        auto info = TestResultStore(*m_cache).testRunForCheckRun(row);
        EXPECT_TRUE(info && *info) << "no test run for row " << row.value;
        return info && *info ? **info : TestRunInfo{};
    }
};

TEST_F(ArtifactSyncTest, StoresFailedRunsFirstAndRecordsWhyOthersHaveNoResults)
{
    const auto failed = addRun(0, Conclusion::Failure, reportZip(3, 2));
    const auto expired = addRun(1, Conclusion::Failure, reportZip(1, 0));
    m_github.artifacts.back().expired = true;
    const auto green = addRun(2, Conclusion::Success, reportZip(5, 0));
    const auto ftp = addRun(3, Conclusion::Failure, {}, "ftp://ci.example.org/r.xml");
    std::vector<ArtifactSyncProgress> steps;
    auto report = sync().run({}, [&](const ArtifactSyncProgress& p) { steps.push_back(p); });
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->runs, 3);
    EXPECT_EQ(report->stored, 1);
    EXPECT_EQ(report->expired, 1);
    EXPECT_EQ(report->empty, 1);
    EXPECT_EQ(report->cases, 5);
    ASSERT_EQ(report->errors.size(), 1u) << "expired is not an error; the unreadable URL is";
    EXPECT_NE(report->errors[0].find("ftp://"), std::string::npos) << report->errors[0];
    ASSERT_EQ(steps.size(), 3u);
    EXPECT_EQ(steps.back().done, 3);
    EXPECT_EQ(steps.back().total, 3);

    const TestRunInfo stored = testRunOf(failed);
    EXPECT_EQ(stored.state, TestRunState::Stored);
    EXPECT_EQ(stored.totals.count(TestOutcome::Failed), 2);
    EXPECT_EQ(stored.label, "artifacts of run 14800000000");
    auto failures = TestResultStore(*m_cache).testResults(stored.id, {{TestOutcome::Failed}, 0});
    ASSERT_TRUE(failures);
    EXPECT_EQ(failures->size(), 2u);
    EXPECT_EQ(testRunOf(expired).state, TestRunState::Expired);
    EXPECT_EQ(testRunOf(ftp).state, TestRunState::NoReports);
    EXPECT_FALSE(*TestResultStore(*m_cache).testRunForCheckRun(green))
        << "FailedRuns leaves green runs alone";

    // Each run once: a second pass has nothing to do; AllRuns takes the green one.
    auto again = sync().run({});
    ASSERT_TRUE(again);
    EXPECT_EQ(again->runs, 0);
    ArtifactSyncOptions all;
    all.policy = ArtifactPolicy::AllRuns;
    auto greens = sync().run(all);
    ASSERT_TRUE(greens) << greens.message();
    EXPECT_EQ(greens->runs, 1);
    EXPECT_EQ(testRunOf(green).totals.cases(), 5);
}

TEST_F(ArtifactSyncTest, AMissingTokenIsOneErrorLineForAllRuns)
{
    for (int i = 0; i < 12; ++i)
        addRun(i, Conclusion::Failure, reportZip(1, 1));
    useToken("");
    ArtifactSyncOptions options;
    options.maxParallel = 3;
    auto report = sync().run(options);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->unauthorized, 12);
    ASSERT_EQ(report->errors.size(), 1u);
    EXPECT_NE(report->errors[0].find("GitHub token missing"), std::string::npos);
    EXPECT_NE(report->errors[0].find("(12 runs)"), std::string::npos) << report->errors[0];
    EXPECT_LE(m_github.requestsTo("/zip"), 3) << "a refused token is not asked again and again";
}

TEST_F(ArtifactSyncTest, AWrongTokenNeverReachesTheReportOrTheCache)
{
    const auto row = addRun(0, Conclusion::Failure, reportZip(1, 1));
    const std::string wrong = "ghp_aWrongTokenThatStaysSecret0001";
    useToken(wrong);
    auto report = sync().run({});
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->unauthorized, 1);
    for (const auto& line : report->errors)
        EXPECT_EQ(line.find(wrong), std::string::npos) << line;
    const TestRunInfo info = testRunOf(row);
    EXPECT_EQ(info.state, TestRunState::Unauthorized);
    EXPECT_EQ(info.message.find(wrong), std::string::npos);
    EXPECT_NE(info.message.find("GITHUB_TOKEN"), std::string::npos) << info.message;
}

TEST_F(ArtifactSyncTest, OnDemandFetchesNothingUntilARunIsOpened)
{
    const auto row = addRun(0, Conclusion::Failure, reportZip(4, 1));
    ArtifactSyncOptions onDemand;
    onDemand.policy = ArtifactPolicy::OnDemand;
    auto report = sync().run(onDemand);
    ASSERT_TRUE(report);
    EXPECT_EQ(report->runs, 0);
    EXPECT_TRUE(m_github.seen().empty());

    auto opened = sync().fetchRun(row);
    ASSERT_TRUE(opened) << opened.message();
    EXPECT_EQ(opened->state, TestRunState::Stored);
    EXPECT_EQ(opened->totals.cases(), 5);
    const auto requests = m_github.seen().size();
    auto reopened = sync().fetchRun(row);
    ASSERT_TRUE(reopened);
    EXPECT_EQ(reopened->id, opened->id);
    EXPECT_EQ(m_github.seen().size(), requests) << "a final test run is not fetched again";
}

TEST_F(ArtifactSyncTest, FetchRunRetriesAnUnauthorizedRunOnceTheTokenIsSet)
{
    const auto row = addRun(0, Conclusion::Failure, reportZip(2, 0));
    useToken("");
    auto refused = sync().fetchRun(row);
    ASSERT_TRUE(refused) << refused.message();
    EXPECT_EQ(refused->state, TestRunState::Unauthorized);
    useToken(FakeGitHub::kToken);
    auto stored = sync().fetchRun(row);
    ASSERT_TRUE(stored) << stored.message();
    EXPECT_EQ(stored->state, TestRunState::Stored);
    EXPECT_EQ(stored->totals.cases(), 2);
}

TEST_F(ArtifactSyncTest, HostileArchivesAreRefusedWithAClearMessage)
{
    const auto slip =
        addRun(0, Conclusion::Failure, archiveOf({{"../../outside.xml", junitXml(1, 0)}}));
    // 40 MiB of zeros deflate to ~40 KiB: far past the ratio limit.
    const auto bomb =
        addRun(1, Conclusion::Failure, archiveOf({{"report.xml", std::string(40u << 20, '\0')}}));
    auto report = sync().run({});
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->empty, 2);
    EXPECT_EQ(report->stored, 0);
    const TestRunInfo slipRun = testRunOf(slip);
    EXPECT_EQ(slipRun.state, TestRunState::NoReports);
    EXPECT_NE(slipRun.message.find("leaves the extraction folder"), std::string::npos)
        << slipRun.message;
    EXPECT_EQ(slipRun.message.find("/tmp/"), std::string::npos) << "no private staging paths";
    const TestRunInfo bombRun = testRunOf(bomb);
    EXPECT_EQ(bombRun.state, TestRunState::NoReports);
    EXPECT_NE(bombRun.message.find("zip bomb"), std::string::npos) << bombRun.message;
    EXPECT_FALSE(fs::exists(m_scratch->path() / "outside.xml"));
}

TEST_F(ArtifactSyncTest, AServerFailureIsRetriedOnlyAfterTheRetryDelay)
{
    const auto row = addRun(0, Conclusion::Failure, reportZip(1, 0));
    m_github.echoInError = "backend unavailable";
    auto report = sync().run({});
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->failed, 1);
    ASSERT_EQ(report->errors.size(), 1u);
    EXPECT_EQ(testRunOf(row).state, TestRunState::Failed);
    auto soon = sync().run({});
    ASSERT_TRUE(soon);
    EXPECT_EQ(soon->runs, 0) << "not retried before retryAfterSeconds";

    m_github.echoInError.clear();
    ArtifactSyncOptions later;
    later.retryAfterSeconds = -60; // as if the delay had passed
    auto retried = sync().run(later);
    ASSERT_TRUE(retried) << retried.message();
    EXPECT_EQ(retried->stored, 1);
    EXPECT_EQ(testRunOf(row).state, TestRunState::Stored);
}

// torch-spyre never sends artifact-url, and uploads upstream-beta-reports-<sha>
// after its completed callback (real-backends.md 1.5, 3.2): the run URL is
// where its evidence is, and a run with no reports yet is asked again at 5
// min, 30 min, 2 h and 12 h after it completed, then no more.
TEST_F(ArtifactSyncTest,
       ARunWithoutAnArtifactUrlIsReadFromItsRunAndLateReportsAreAskedForABoundedTime)
{
    const EpochSeconds start = nowSeconds();
    const auto row = addSpyreGreen(start - 60); // completed a minute ago
    m_github.artifacts.push_back(
        {1, "pytorch-wheel-" + std::string(40, 'f'), "wheel bytes", false, "", "", 812LL << 20});
    ArtifactSyncOptions all;
    all.policy = ArtifactPolicy::AllRuns;

    auto first = sync().run(all);
    ASSERT_TRUE(first) << first.message();
    EXPECT_EQ(first->runs, 1) << "a green with no artifact_url is fetched from its run URL";
    EXPECT_EQ(testRunOf(row).state, TestRunState::NoReports);
    EXPECT_NE(testRunOf(row).message.find("no reports uploaded"), std::string::npos)
        << testRunOf(row).message;
    EXPECT_NE(testRunOf(row).message.find("a wheel or other binary"), std::string::npos);
    auto soon = sync().run(all);
    ASSERT_TRUE(soon);
    EXPECT_EQ(soon->runs, 0) << "not before 5 minutes after completion";

    int asked = 1;
    for (const EpochSeconds at : {6 * 60, 31 * 60, 121 * 60, 721 * 60}) {
        pinClock(start - 60 + at);
        auto pass = sync().run(all);
        ASSERT_TRUE(pass) << pass.message();
        EXPECT_EQ(pass->runs, 1) << at / 60 << " min after completion";
        asked += pass->runs;
        auto again = sync().run(all);
        ASSERT_TRUE(again);
        EXPECT_EQ(again->runs, 0) << "once per schedule point";
    }
    pinClock(start + 30 * kSecondsPerDay / 10);
    auto done = sync().run(all);
    ASSERT_TRUE(done);
    EXPECT_EQ(done->runs, 0) << "after 12 h the run's reports are not asked for again";
    EXPECT_EQ(asked, kMaxArtifactAsks);
    EXPECT_EQ(m_github.requestsTo("/zip"), 0) << "the wheel is never downloaded";
    EXPECT_NE(testRunOf(row).message.find("no reports uploaded"), std::string::npos)
        << "the reason stands";
    pinClock(start);
}

TEST_F(ArtifactSyncTest, ReportsUploadedAfterTheCallbackAreReadAtTheNextScheduledAsk)
{
    const EpochSeconds start = nowSeconds();
    const auto row = addSpyreGreen(start - 60); // completed a minute ago
    ArtifactSyncOptions all;
    all.policy = ArtifactPolicy::AllRuns;
    ASSERT_TRUE(sync().run(all));
    EXPECT_EQ(testRunOf(row).state, TestRunState::NoReports);

    m_github.artifacts.push_back({2, "upstream-beta-reports-" + std::string(40, 'f'),
                                  archiveOf({{"test_indexing.xml", junitXml(4, 1)}})});
    pinClock(start - 60 + 6 * 60);
    auto late = sync().run(all);
    ASSERT_TRUE(late) << late.message();
    EXPECT_EQ(late->stored, 1);
    EXPECT_EQ(testRunOf(row).state, TestRunState::Stored);
    EXPECT_EQ(testRunOf(row).totals.cases(), 5);
    pinClock(start);
}

TEST_F(ArtifactSyncTest, AnUnreachableStoreIsOneErrorLineWhateverThePaths)
{
    const std::string base = "http://127.0.0.1:" + std::to_string(test::unusedPort());
    const char* jobs[] = {"default", "inductor", "distributed", "op-plugin", "e2e"};
    for (int i = 0; i < 5; ++i)
        addRun(i, Conclusion::Failure, {},
               base + "/files/" + jobs[i] + "/" + std::to_string(i) + "/report.xml.gz");
    auto report = sync().run({});
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->failed, 5);
    ASSERT_EQ(report->errors.size(), 1u) << report->errors[0] << " | " << report->errors[1];
    EXPECT_NE(report->errors[0].find("connection refused"), std::string::npos);
    EXPECT_NE(report->errors[0].find("(5 runs)"), std::string::npos) << report->errors[0];
}

TEST_F(ArtifactSyncTest, CancelLeavesTheQueueAsItWas)
{
    const auto row = addRun(0, Conclusion::Failure, reportZip(1, 0));
    std::atomic<bool> cancel{true};
    auto report = sync().run({}, {}, &cancel);
    ASSERT_FALSE(report);
    EXPECT_NE(report.message().find("cancelled"), std::string::npos);
    EXPECT_FALSE(*TestResultStore(*m_cache).testRunForCheckRun(row));
    auto opened = sync().fetchRun(row, &cancel);
    ASSERT_FALSE(opened);
    EXPECT_FALSE(*TestResultStore(*m_cache).testRunForCheckRun(row));
}

TEST_F(ArtifactSyncTest, FetchesManyRunsInParallel)
{
    for (int i = 0; i < 16; ++i)
        addRun(i, Conclusion::Failure, reportZip(10 + i, 1));
    ArtifactSyncOptions options;
    options.maxParallel = 4;
    auto report = sync().run(options);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->stored, 16);
    EXPECT_TRUE(report->errors.empty());
    std::int64_t expected = 0;
    for (int i = 0; i < 16; ++i)
        expected += 11 + i;
    EXPECT_EQ(report->cases, expected);
}

} // namespace
