// The simulator's default world, synced through the HUD API and then read
// through its GitHub API as the app does it, for the backends shaped after the
// real reporters (../shared/specs/real-backends.md 1.4, 1.5, 3.1-3.6, 7):
//   torch-spyre/torch-spyre  no artifact_url; wheels beside per-suite and
//                            merged reports; in half its runs the suites ran
//                            in a dispatched child run and the callback said
//                            success while tests failed; merged-PR runs test
//                            main's HEAD, not the row's PR head
//   TorchedHat/pytorch-redhat-ci  nightly only, no counts, no artifacts
// The ground truth (what each row really did) is read from the dataset,
// never by the code under test.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/model/tested_commit.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/sync/hud_sync.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <map>
#include <unistd.h>

using namespace relayhud;

namespace {

constexpr std::string_view kSpyre = "torch-spyre/torch-spyre";
constexpr std::string_view kTorchedHat = "TorchedHat/pytorch-redhat-ci";

class RealReportersSimTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        std::signal(SIGPIPE, SIG_IGN);
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
        s_server = new sim::SimServer(sim::buildDataset(sim::SimConfig{}));
        ASSERT_GT(s_server->start(0), 0);
        s_dir = std::filesystem::temp_directory_path()
                / ("relayhud-real-reporters-" + std::to_string(::getpid()));
        std::filesystem::remove_all(s_dir);
        std::filesystem::create_directories(s_dir);
        s_cache = relayhud::testing::openCacheOk((s_dir / "cache.sqlite").string()).release();
        auto blobs = ContentCache::open((s_dir / "blobs").string());
        ASSERT_TRUE(blobs) << blobs.message();
        s_blobs = new ContentCache(std::move(*blobs));
        syncAndFetch();
    }
    static void TearDownTestSuite()
    {
        delete s_cache;
        delete s_blobs;
        delete s_server;
        std::filesystem::remove_all(s_dir);
    }

    static void syncAndFetch()
    {
        HttpOptions options;
        options.retry.baseDelay = std::chrono::milliseconds(5);
        options.retry.maxDelay = std::chrono::milliseconds(20);
        HttpClient http(options);
        HudClient hud(http, s_server->baseUrl());
        SyncOptions sync;
        sync.days = 30;
        sync.backends = {std::string(kSpyre), std::string(kTorchedHat)};
        auto synced = HudSync(hud, *s_cache).run(sync);
        ASSERT_TRUE(synced) << synced.message();

        ArtifactSettings settings;
        settings.githubApiUrl = s_server->githubApiUrl();
        Credentials credentials;
        credentials.githubToken = s_server->githubToken();
        ArtifactFetcher fetcher(http, *s_blobs, settings, credentials);
        ArtifactSyncOptions pass;
        pass.policy = ArtifactPolicy::AllRuns;
        pass.days = 30;
        pass.maxRuns = 5000;
        pass.jobLines = false;
        auto fetched = ArtifactSync(*s_cache, fetcher, settings).run(pass);
        ASSERT_TRUE(fetched) << fetched.message();
        s_report = *fetched;
    }

    // The dataset's finished rows of a backend that the HUD serves.
    static std::vector<const sim::SimRow*> finishedRows(std::string_view repo)
    {
        std::vector<const sim::SimRow*> out;
        for (const sim::SimRow& row : s_server->dataset().rows)
            if (row.run.downstreamRepo == repo && row.run.reported.status == RunStatus::Completed
                && row.eventTypeText != "push")
                out.push_back(&row);
        return out;
    }

    static std::optional<TestRunInfo> testRunOf(const sim::SimRow& row)
    {
        auto id = RunStore(*s_cache).checkRunRowFor(row.run.checkRunId);
        if (!id || !*id)
            return std::nullopt;
        auto info = TestResultStore(*s_cache).testRunForCheckRun(**id);
        return info && *info ? std::optional<TestRunInfo>(**info) : std::nullopt;
    }

    static sim::SimServer* s_server;
    static std::filesystem::path s_dir;
    static Database* s_cache;
    static ContentCache* s_blobs;
    static ArtifactSyncReport s_report;
};

sim::SimServer* RealReportersSimTest::s_server = nullptr;
std::filesystem::path RealReportersSimTest::s_dir;
Database* RealReportersSimTest::s_cache = nullptr;
ContentCache* RealReportersSimTest::s_blobs = nullptr;
ArtifactSyncReport RealReportersSimTest::s_report;

TEST_F(RealReportersSimTest, NearlyEveryFinishedSpyreRunHasItsResultsOrAStatedReason)
{
    const auto rows = finishedRows(kSpyre);
    ASSERT_GE(rows.size(), 20u) << "the world has merged PRs and nightlies";
    std::size_t withResults = 0;
    std::size_t withReason = 0;
    std::map<std::string, int> reasons;
    for (const sim::SimRow* row : rows) {
        EXPECT_TRUE(row->run.reported.artifactUrl.empty()) << "torch-spyre sends no artifact-url";
        const auto run = testRunOf(*row);
        if (!run)
            continue;
        if (run->state == TestRunState::Stored && run->totals.cases() > 0)
            ++withResults;
        else if (run->state != TestRunState::Failed && !run->message.empty()) {
            ++withReason;
            ++reasons[run->message.substr(0, run->message.find(':'))];
        }
    }
    const double covered =
        static_cast<double>(withResults + withReason) / static_cast<double>(rows.size());
    EXPECT_GE(covered, 0.98) << withResults << " with results, " << withReason
                             << " with a reason, of " << rows.size();
    for (const auto& [reason, n] : reasons)
        EXPECT_TRUE(reason == "no reports uploaded" || reason.starts_with("the reports of"))
            << n << " runs: " << reason;
}

TEST_F(RealReportersSimTest, NoWheelIsEverDownloaded)
{
    HttpClient http;
    HttpRequest request;
    request.url = s_server->baseUrl() + "/sim/stats";
    auto stats = http.get(request);
    ASSERT_TRUE(stats) << stats.message();
    EXPECT_EQ(stats->body, R"({"wheel_downloads":0,"wheel_bytes_served":0})");
    bool noted = false;
    for (const sim::SimRow* row : finishedRows(kSpyre))
        if (const auto run = testRunOf(*row))
            for (const std::string& warning : run->warnings)
                noted = noted || warning.find("a wheel or other binary") != std::string::npos;
    EXPECT_TRUE(noted) << "what was left is said";
}

TEST_F(RealReportersSimTest, EveryReportedSuccessWhoseTestsFailedIsMarkedInTheMatrix)
{
    auto matrix = MatrixStore(*s_cache).loadMatrix(MatrixQuery{});
    ASSERT_TRUE(matrix) << matrix.message();
    std::map<CheckRunRow, const MatrixCell*> byRow;
    for (const MatrixCell& cell : matrix->cells)
        if (!cell.empty())
            byRow[cell.runRowId] = &cell;
    int successWhileFailing = 0;
    for (const sim::SimRow* row : finishedRows(kSpyre)) {
        const bool claimsGreen = row->run.reported.conclusion == Conclusion::Success;
        const bool testsFailed = !row->failedTestsJson.empty();
        auto id = RunStore(*s_cache).checkRunRowFor(row->run.checkRunId);
        ASSERT_TRUE(id && *id);
        const auto cell = byRow.find(**id);
        if (cell == byRow.end())
            continue; // an older attempt, not shown
        const bool marked = cell->second->has(MatrixCell::ReportedGreenTestsFailed);
        if (claimsGreen && testsFailed) {
            ++successWhileFailing;
            EXPECT_TRUE(marked) << "run " << row->run.runId << " said success while tests failed";
        } else {
            EXPECT_FALSE(marked) << "run " << row->run.runId;
        }
    }
    EXPECT_GT(successWhileFailing, 0) << "the world has variant B runs whose tests failed";
}

TEST_F(RealReportersSimTest, ARunWhoseSuitesRanInADispatchedChildIsReadFromTheChild)
{
    int dispatched = 0;
    for (const sim::SimRow* row : finishedRows(kSpyre)) {
        if (row->evidence.shape != sim::SimEvidenceShape::Dispatched || row->evidence.suites == 0
            || row->evidence.mergedReportsAt != 0)
            continue; // only the runs whose merged reports never came need the child
        const auto run = testRunOf(*row);
        ASSERT_TRUE(run) << row->run.runId;
        EXPECT_EQ(run->state, TestRunState::Stored) << run->message;
        bool fromChild = false;
        for (const std::string& warning : run->warnings)
            fromChild = fromChild || warning.starts_with("reports of the dispatched run ");
        EXPECT_TRUE(fromChild) << row->run.runId;
        ++dispatched;
    }
    EXPECT_GT(dispatched, 0) << "the world has variant B runs without merged reports";
}

// torch-spyre builds main's HEAD when a PR merges, not the PR head its row
// names (real-backends.md 3.1); its artifact names carry the commit (3.5).
TEST_F(RealReportersSimTest, EveryMergedPrRunShowsTheCommitItReallyTested)
{
    int merged = 0;
    for (const sim::SimRow* row : finishedRows(kSpyre)) {
        if (row->run.eventType != EventType::PullRequest || row->evidence.wheelsAt == 0)
            continue;
        auto id = RunStore(*s_cache).checkRunRowFor(row->run.checkRunId);
        ASSERT_TRUE(id && *id);
        auto tested = CheckoutStore(*s_cache).testedCommit(**id);
        ASSERT_TRUE(tested) << tested.message();
        ASSERT_TRUE(*tested) << "run " << row->run.runId << " has no tested commit";
        EXPECT_EQ((*tested)->sha, row->testedSha.value) << "the dataset's truth";
        EXPECT_NE((*tested)->sha, row->run.upstreamSha.value) << "not the PR head";
        EXPECT_EQ((*tested)->source, TestedCommitSource::ArtifactName);
        ++merged;
    }
    EXPECT_GT(merged, 5);
}

// Every real nightly's SHA is a main commit (real-backends.md section 2).
TEST_F(RealReportersSimTest, EveryNightlySitsOnAMainCommit)
{
    auto commits = RunStore(*s_cache).commits();
    ASSERT_TRUE(commits) << commits.message();
    std::map<std::string, UpstreamCommit> bySha;
    for (const UpstreamCommit& c : *commits)
        bySha[c.sha.value] = c;
    int nightlies = 0;
    int ranges = 0;
    for (const std::string_view repo : {kSpyre, kTorchedHat})
        for (const sim::SimRow* row : finishedRows(repo)) {
            if (row->run.eventType != EventType::Nightly)
                continue;
            const std::string& sha = row->run.upstreamSha.value;
            EXPECT_TRUE(isUpstreamCommit(sha)) << sha;
            ASSERT_TRUE(bySha.contains(sha)) << sha;
            EXPECT_EQ(bySha[sha].branch, "main") << sha;
            EXPECT_EQ(bySha[sha].title.find("nightly release"), std::string::npos)
                << "a main commit's title, not a nightly-branch one: " << bySha[sha].title;
            // Consecutive nightlies compare main..main.
            auto previous = RunStore(*s_cache).previousCommit(row->run.upstreamSha);
            ASSERT_TRUE(previous) << previous.message();
            if (*previous) {
                EXPECT_EQ((*previous)->eventType, EventType::Nightly);
                EXPECT_EQ((*previous)->branch, "main");
                ++ranges;
            }
            ++nightlies;
        }
    EXPECT_GT(nightlies, 5);
    EXPECT_GT(ranges, 3);
}

TEST_F(RealReportersSimTest, TorchedHatRunsHaveNoReportsAndSaySo)
{
    const auto rows = finishedRows(kTorchedHat);
    ASSERT_FALSE(rows.empty());
    for (const sim::SimRow* row : rows) {
        EXPECT_EQ(row->run.eventType, EventType::Nightly) << "nightly only";
        EXPECT_FALSE(row->run.reported.tests) << "no test-results";
        const auto run = testRunOf(*row);
        ASSERT_TRUE(run);
        EXPECT_EQ(run->state, TestRunState::NoReports);
        EXPECT_NE(run->message.find("no reports uploaded"), std::string::npos) << run->message;
    }
}

} // namespace
