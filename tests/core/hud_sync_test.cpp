// HudSync end to end against the in-process simulator over real HTTP.
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/hud_sync.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <set>

using namespace relayhud;

namespace {

class HudSyncTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        sim::SimConfig config;
        config.seed = 7;
        m_dataset = sim::buildDataset(config);
        m_server = std::make_unique<sim::SimServer>(m_dataset);
        ASSERT_GT(m_server->start(0), 0);
        auto cache = relayhud::testing::openTestCache(":memory:");
        ASSERT_TRUE(cache) << cache.message();
        m_cache = std::move(cache.value());
        HttpOptions options;
        options.retry.baseDelay = std::chrono::milliseconds(5);
        options.retry.maxDelay = std::chrono::milliseconds(20);
        options.totalTimeout = std::chrono::milliseconds(5000);
        m_http = std::make_unique<HttpClient>(options);
        m_hud = std::make_unique<HudClient>(*m_http, m_server->baseUrl());
    }

    Result<SyncReport> sync()
    {
        HudSync sync(*m_hud, *m_cache);
        SyncOptions options;
        options.days = 30;
        options.perPage = 20;
        return sync.run(options);
    }

    std::int64_t cachedRuns() { return RunStore(*m_cache).stats()->checkRuns; }

    sim::SimDataset m_dataset;
    std::unique_ptr<sim::SimServer> m_server;
    relayhud::testing::TestCache m_cache;
    std::unique_ptr<HttpClient> m_http;
    std::unique_ptr<HudClient> m_hud;
};

} // namespace

TEST_F(HudSyncTest, FillsTheCacheWithEveryReportedPrRow)
{
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_TRUE(report->errors.empty()) << report->errors.front();
    auto stats = RunStore(*m_cache).stats();
    EXPECT_GE(stats->backends, 6);
    EXPECT_GE(stats->commits, 150);
    EXPECT_GE(stats->checkRuns, 2000);

    std::size_t checked = 0;
    for (const auto& row : m_dataset.rows) {
        // The relay's probe repo is relay health, not a backend (R11).
        if (row.run.prNumber.value == 0 || checked > 200 || isProbeRepo(row.run.downstreamRepo))
            continue;
        auto runs = RunStore(*m_cache).checkRunsForSha(row.run.upstreamSha);
        ASSERT_TRUE(runs);
        bool found = false;
        for (const auto& r : *runs)
            found |= r.downstreamRepo == row.run.downstreamRepo && r.jobName == row.run.jobName
                     && r.runAttempt == row.run.runAttempt
                     && r.reported.conclusion == row.run.reported.conclusion;
        EXPECT_TRUE(found) << row.run.downstreamRepo << " " << row.run.jobName << " "
                           << row.run.upstreamSha.value;
        ++checked;
    }
    EXPECT_GT(checked, 100u);
}

TEST_F(HudSyncTest, L1BackendsAreKnownButNeverSynced)
{
    ASSERT_TRUE(sync());
    std::set<std::string> l1;
    for (const auto& b : m_dataset.backends)
        if (b.level == Level::L1)
            l1.insert(b.repo);
    ASSERT_FALSE(l1.empty());
    auto matrix = MatrixStore(*m_cache).loadMatrix(MatrixQuery{});
    ASSERT_TRUE(matrix);
    for (const auto& c : matrix->columns)
        EXPECT_FALSE(l1.count(c.backend)) << c.backend;
}

TEST_F(HudSyncTest, SecondSyncIsAllNotModifiedAndChangesNothing)
{
    ASSERT_TRUE(sync());
    const auto before = cachedRuns();
    auto again = sync();
    ASSERT_TRUE(again) << again.message();
    EXPECT_GT(again->pages, 0);
    EXPECT_EQ(again->pagesNotModified, again->pages);
    EXPECT_EQ(again->runs, 0);
    EXPECT_EQ(cachedRuns(), before);
}

TEST_F(HudSyncTest, ServerErrorsFailTheSyncAndLeaveTheCacheAlone)
{
    ASSERT_TRUE(sync());
    const auto before = cachedRuns();
    sim::FaultConfig faults;
    faults.errorRate = 1.0;
    m_server->setFaults(faults);
    auto failed = sync();
    ASSERT_FALSE(failed);
    EXPECT_NE(failed.message().find("500"), std::string::npos) << failed.message();
    EXPECT_EQ(cachedRuns(), before);
}

TEST_F(HudSyncTest, TruncatedBodiesFailCleanlyAndTheNextSyncRecovers)
{
    sim::FaultConfig faults;
    faults.truncateRate = 1.0;
    m_server->setFaults(faults);
    auto failed = sync();
    ASSERT_FALSE(failed);
    EXPECT_EQ(cachedRuns(), 0);
    m_server->setFaults({});
    auto recovered = sync();
    ASSERT_TRUE(recovered) << recovered.message();
    EXPECT_GE(cachedRuns(), 2000);
}

TEST_F(HudSyncTest, HtmlErrorPagesGiveAShortMessage)
{
    sim::FaultConfig faults;
    faults.errorRate = 1.0;
    faults.htmlErrors = true;
    m_server->setFaults(faults);
    auto failed = sync();
    ASSERT_FALSE(failed);
    EXPECT_LT(failed.message().size(), 400u) << failed.message();
    EXPECT_EQ(failed.message().find("<html"), std::string::npos) << failed.message();
}

TEST_F(HudSyncTest, RateLimitsAreRetriedThrough)
{
    sim::FaultConfig faults;
    faults.tooManyEvery = 5;
    m_server->setFaults(faults);
    auto report = sync();
    ASSERT_TRUE(report) << report.message();
    EXPECT_TRUE(report->errors.empty()) << report->errors.front();
    EXPECT_GE(cachedRuns(), 2000);
}

TEST_F(HudSyncTest, UnreachableHudIsAnErrorNamingTheHost)
{
    m_server->stop();
    auto failed = sync();
    ASSERT_FALSE(failed);
    EXPECT_NE(failed.message().find("127.0.0.1"), std::string::npos) << failed.message();
    EXPECT_EQ(cachedRuns(), 0);
}

TEST_F(HudSyncTest, PrTitlesAreFetched)
{
    ASSERT_TRUE(sync());
    auto commits = RunStore(*m_cache).commits();
    ASSERT_TRUE(commits);
    std::size_t titled = 0;
    for (const auto& c : *commits)
        titled += c.prNumber.value > 0 && !c.title.empty();
    EXPECT_GT(titled, 50u);
}
