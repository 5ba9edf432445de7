// The simulator's seeded stories through the verdict: the JUnit reports the
// simulated CI writes (SimArtifacts, the bytes its artifact stores serve) go
// through the real reader into a cache, and the verdict must see through the
// hidden-failure story's self-reported green, and call no green verified
// without a config.
#include "relayhud/junit/junit_reader.h"
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/store/cache.h"
#include "relayhud/verdict/verdict.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace relayhud::verdict {
namespace {

class VerdictSimTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_data = new sim::SimDataset(sim::buildDataset(sim::SimConfig{}));
        s_truth = new sim::SimArtifacts(*s_data);
    }
    static void TearDownTestSuite()
    {
        delete s_truth;
        delete s_data;
    }

    // Stores the row and the test results of its reports; returns its row id.
    std::int64_t store(const sim::SimRow& row)
    {
        const auto commit =
            std::find_if(s_data->commits.begin(), s_data->commits.end(),
                         [&](const UpstreamCommit& c) { return c.sha == row.run.upstreamSha; });
        EXPECT_NE(commit, s_data->commits.end());
        EXPECT_TRUE(m_cache->apply(SyncBatch{{}, {*commit}, {row.run}, {}}));
        const std::int64_t id = **m_cache->checkRunRowFor(row.run.checkRunId);
        auto writer = m_cache->beginTestRun({id, TestRunSource::Artifacts, "sim", ""});
        EXPECT_TRUE(writer);
        TestRunTotals totals;
        for (const sim::SimReport& report : s_truth->reports(row)) {
            auto junit = readJunitBuffer(report.xml);
            EXPECT_TRUE(junit) << (junit ? "" : junit.message());
            ++totals.reports;
            for (const TestCaseResult& c : junit->cases) {
                EXPECT_TRUE((*writer)->add(c));
                ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
            }
        }
        EXPECT_TRUE((*writer)->commit(totals));
        return id;
    }

    static const sim::SimRow* findRow(bool hidden)
    {
        const sim::SimStories& s = s_data->stories;
        for (const sim::SimRow& row : s_data->rows) {
            const bool isHidden = row.run.downstreamRepo == s.hiddenFailureBackend
                                  && row.run.workflow == s.hiddenFailureWorkflow
                                  && row.run.jobName == s.hiddenFailureJob
                                  && std::count(s.hiddenFailureShas.begin(),
                                                s.hiddenFailureShas.end(), row.run.upstreamSha);
            if (isHidden == hidden && row.run.reported.conclusion == Conclusion::Success
                && row.run.reported.tests && !s_truth->reports(row).empty())
                return &row;
        }
        return nullptr;
    }

    static sim::SimDataset* s_data;
    static sim::SimArtifacts* s_truth;
    std::unique_ptr<Cache> m_cache = relayhud::testing::openCacheOk(":memory:");
};

sim::SimDataset* VerdictSimTest::s_data = nullptr;
sim::SimArtifacts* VerdictSimTest::s_truth = nullptr;

TEST_F(VerdictSimTest, HiddenFailureStoryIsDisputed)
{
    const sim::SimRow* row = findRow(true);
    ASSERT_NE(row, nullptr);
    auto v = verdictForRun(*m_cache, store(*row), {});
    ASSERT_TRUE(v) << v.message();
    EXPECT_EQ(v->verdict, Verdict::GreenDisputed);
    const auto counts =
        std::find_if(v->checks.begin(), v->checks.end(),
                     [](const ConsistencyCheck& c) { return c.kind == CheckKind::Counts; });
    ASSERT_NE(counts, v->checks.end());
    EXPECT_EQ(counts->state, CheckState::Fail) << counts->sentence;
}

TEST_F(VerdictSimTest, HonestGreenWithoutConfigIsUnverifiable)
{
    const sim::SimRow* row = findRow(false);
    ASSERT_NE(row, nullptr);
    auto v = verdictForRun(*m_cache, store(*row), {});
    ASSERT_TRUE(v) << v.message();
    EXPECT_EQ(v->verdict, Verdict::GreenUnverifiable);
    for (const ConsistencyCheck& c : v->checks)
        if (c.kind == CheckKind::Counts || c.kind == CheckKind::Artifacts) {
            EXPECT_EQ(c.state, CheckState::Pass) << c.sentence; // only the config is missing
        }
    EXPECT_FALSE(v->coverage.ops.empty() && v->coverage.unmarkedCases == 0);
}

} // namespace
} // namespace relayhud::verdict
