// The simulator's seeded stories through the verdict: the JUnit reports the
// simulated CI writes (SimArtifacts, the bytes its artifact stores serve) go
// through the real reader into a cache, and the verdict must see through the
// hidden-failure story's self-reported green, and call no green verified
// without a config. With the outcome configs the simulator generates, an
// ordinary green is verified and the incomplete-green story is not.
#include "relayhud/config/outcome_config.h"
#include "relayhud/junit/junit_reader.h"
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_configs.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/verdict/verdict.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

namespace relayhud::verdict {
namespace {

class VerdictSimTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_data = new sim::SimDataset(sim::buildDataset(sim::SimConfig{}));
        s_truth = new sim::SimArtifacts(*s_data);
        // One folder per process: ctest runs each test in its own, in parallel.
        s_configDir = new std::filesystem::path(
            std::filesystem::temp_directory_path()
            / ("relayhud-verdict-sim-configs-" + std::to_string(::getpid())));
        std::filesystem::remove_all(*s_configDir);
        auto written = sim::writeOutcomeConfigs(*s_data, s_configDir->string());
        ASSERT_TRUE(written) << written.message();
        s_sources = new VerdictSources;
        for (const auto& [repo, path] : *written) {
            s_sources->configByRepo[repo] = path;
            s_sources->loadedConfigs[repo] = loadRunConfig(path);
        }
    }
    static void TearDownTestSuite()
    {
        std::filesystem::remove_all(*s_configDir);
        delete s_sources;
        delete s_configDir;
        delete s_truth;
        delete s_data;
    }

    static bool isStoryJob(const sim::SimRow& row, const std::string& repo,
                           const std::string& workflow, const std::string& job,
                           const std::vector<Sha>& shas)
    {
        return row.run.downstreamRepo == repo && row.run.workflow == workflow
               && row.run.jobName == job
               && std::count(shas.begin(), shas.end(), row.run.upstreamSha) != 0;
    }
    static bool isIncompleteStory(const sim::SimRow& row)
    {
        const sim::SimStories& s = s_data->stories;
        return isStoryJob(row, s.incompleteGreenBackend, s.incompleteGreenWorkflow,
                          s.incompleteGreenJob, s.incompleteGreenShas);
    }
    static bool isHiddenStory(const sim::SimRow& row)
    {
        const sim::SimStories& s = s_data->stories;
        return isStoryJob(row, s.hiddenFailureBackend, s.hiddenFailureWorkflow, s.hiddenFailureJob,
                          s.hiddenFailureShas);
    }
    static bool isGreenWithTests(const sim::SimRow& row)
    {
        return row.run.reported.status == RunStatus::Completed
               && row.run.reported.conclusion == Conclusion::Success && row.run.reported.tests
               && !row.run.reported.artifactUrl.empty();
    }

    static const ConsistencyCheck& checkOf(const RunVerdict& v, CheckKind kind)
    {
        return *std::find_if(v.checks.begin(), v.checks.end(),
                             [&](const ConsistencyCheck& c) { return c.kind == kind; });
    }

    static std::string reasons(const RunVerdict& v)
    {
        std::string out;
        for (const std::string& r : v.reasons)
            out += "\n  " + r;
        return out;
    }

    // Stores the row and the test results of its reports; returns its row id.
    CheckRunRow store(const sim::SimRow& row)
    {
        const auto commit =
            std::find_if(s_data->commits.begin(), s_data->commits.end(),
                         [&](const UpstreamCommit& c) { return c.sha == row.run.upstreamSha; });
        EXPECT_NE(commit, s_data->commits.end());
        EXPECT_TRUE(RunStore(*m_cache).apply(SyncBatch{{}, {*commit}, {row.run}, {}}));
        const CheckRunRow id = **RunStore(*m_cache).checkRunRowFor(row.run.checkRunId);
        auto writer =
            TestResultStore(*m_cache).beginTestRun({id, TestRunSource::Artifacts, "sim", ""});
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
    relayhud::testing::TestCache m_cache = relayhud::testing::openCacheOk(":memory:");

    static std::filesystem::path* s_configDir;
    static VerdictSources* s_sources;
};

sim::SimDataset* VerdictSimTest::s_data = nullptr;
sim::SimArtifacts* VerdictSimTest::s_truth = nullptr;
std::filesystem::path* VerdictSimTest::s_configDir = nullptr;
VerdictSources* VerdictSimTest::s_sources = nullptr;

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

TEST_F(VerdictSimTest, GeneratedConfigsLoadWithoutErrors)
{
    const auto texts = sim::outcomeConfigs(*s_data);
    ASSERT_EQ(texts.size(), s_sources->configByRepo.size());
    std::int64_t mandatory = 0;
    for (const auto& [repo, text] : texts) {
        SCOPED_TRACE(repo);
        auto parsed = config::parseOutcomeConfig(text);
        ASSERT_TRUE(parsed) << parsed.message();
        for (const config::Finding& f : parsed->findings)
            EXPECT_NE(f.severity, config::Severity::Error) << config::formatFinding(f);
        const RunConfig& loaded = s_sources->loadedConfigs.at(repo);
        EXPECT_TRUE(loaded.config) << loaded.error;
        EXPECT_FALSE(parsed->config.files.empty());
        std::size_t names = 0;
        for (const config::FileSection& file : parsed->config.files) {
            EXPECT_EQ(file.path.rfind("${TORCH_", 0), 0U) << file.path;
            for (const config::TestEntry& entry : file.tests) {
                names += entry.names.size();
                if (entry.effectiveMode() == config::Mode::MandatorySuccess)
                    mandatory += static_cast<std::int64_t>(entry.names.size());
            }
        }
        EXPECT_GT(names, 10U); // realistic sizes: tens to a few hundred names
        EXPECT_LT(names, 600U);
    }
    EXPECT_GT(mandatory, 10);
    EXPECT_EQ(texts, sim::outcomeConfigs(*s_data)) << "not deterministic";
}

TEST_F(VerdictSimTest, OrdinaryGreensAreVerifiedAgainstTheGeneratedConfigs)
{
    // Several greens of every backend with artifacts, every shard and config.
    std::map<std::string, int> perBackend;
    std::vector<CheckRunRow> ids;
    // Runs on upstream commits: a periodic run keyed by a free-text delivery
    // id (a UUID) has no commit in the dataset for store() to file it under.
    std::set<std::string> shas;
    for (const UpstreamCommit& c : s_data->commits)
        shas.insert(c.sha.value);
    for (const sim::SimRow& row : s_data->rows) {
        if (!isGreenWithTests(row) || isHiddenStory(row) || isIncompleteStory(row)
            || perBackend[row.run.downstreamRepo] >= 8 || !shas.count(row.run.upstreamSha.value))
            continue;
        ++perBackend[row.run.downstreamRepo];
        ids.push_back(store(row));
    }
    EXPECT_GE(perBackend.size(), 5U);
    ASSERT_GE(ids.size(), 35U);
    int withMandatory = 0;
    for (const CheckRunRow id : ids) {
        auto v = verdictForRun(*m_cache, id, *s_sources);
        ASSERT_TRUE(v) << v.message();
        EXPECT_EQ(v->verdict, Verdict::VerifiedGreen)
            << v->run.downstreamRepo << " " << v->run.jobName << reasons(*v);
        ASSERT_TRUE(v->configCoverage);
        EXPECT_TRUE(v->configCoverage->unknown.empty());
        EXPECT_EQ(checkOf(*v, CheckKind::Counts).state, CheckState::Pass);
        const BucketCounts& mandatory = v->configCoverage->bucket(Bucket::MandatorySuccess);
        if (mandatory.declared > 0) {
            ++withMandatory;
            EXPECT_GT(mandatory.ran, 0);
        }
    }
    // Verified because the mandatory tests ran, not because there were none.
    EXPECT_GE(withMandatory * 4, static_cast<int>(ids.size()) * 3);
}

TEST_F(VerdictSimTest, IncompleteGreenStoryNamesExactlyTheMissingTests)
{
    const sim::SimStories& s = s_data->stories;
    ASSERT_FALSE(s.incompleteGreenShas.empty());
    ASSERT_FALSE(s.incompleteGreenMissingTests.empty());
    const std::set<std::string> expected(s.incompleteGreenMissingTests.begin(),
                                         s.incompleteGreenMissingTests.end());
    int judged = 0;
    for (const sim::SimRow& row : s_data->rows) {
        if (!isIncompleteStory(row))
            continue;
        ASSERT_TRUE(isGreenWithTests(row)) << row.run.upstreamSha.value;
        auto v = verdictForRun(*m_cache, store(row), *s_sources);
        ASSERT_TRUE(v) << v.message();
        EXPECT_EQ(v->verdict, Verdict::GreenIncomplete) << reasons(*v);
        EXPECT_EQ(checkOf(*v, CheckKind::Counts).state, CheckState::Pass)
            << checkOf(*v, CheckKind::Counts).sentence;
        ASSERT_TRUE(v->configCoverage);
        std::set<std::string> missing;
        for (const MissingTest& m : v->configCoverage->mandatoryNotRun) {
            missing.insert(m.name);
            EXPECT_TRUE(m.file.ends_with(s.incompleteGreenFile)) << m.file;
        }
        EXPECT_EQ(missing, expected);
        EXPECT_TRUE(v->configCoverage->mandatoryNotPassed.empty());
        EXPECT_TRUE(v->configCoverage->unknown.empty());
        ++judged;
    }
    EXPECT_EQ(judged, static_cast<int>(s.incompleteGreenShas.size()));
}

TEST_F(VerdictSimTest, HiddenFailureStoryIsDisputedWithTheConfigs)
{
    const sim::SimRow* row = findRow(true);
    ASSERT_NE(row, nullptr);
    auto v = verdictForRun(*m_cache, store(*row), *s_sources);
    ASSERT_TRUE(v) << v.message();
    EXPECT_EQ(v->verdict, Verdict::GreenDisputed) << reasons(*v);
    EXPECT_EQ(checkOf(*v, CheckKind::Counts).state, CheckState::Fail);
    EXPECT_EQ(checkOf(*v, CheckKind::Config).state, CheckState::Pass);
}

// The broken-trunk story's runs: the culprit's own heads, and main-based runs
// (but the fix PR's) between its merge and the fix.
TEST_F(VerdictSimTest, RegressionStoryRunsAreRed)
{
    const sim::SimStories& s = s_data->stories;
    ASSERT_FALSE(s.brokenTrunk.empty());
    const sim::SimBrokenTrunk& b = s.brokenTrunk.front();
    int judged = 0;
    for (const sim::SimRow& row : s_data->rows) {
        const auto commit =
            std::find_if(s_data->commits.begin(), s_data->commits.end(),
                         [&](const UpstreamCommit& c) { return c.sha == row.run.upstreamSha; });
        if (row.run.downstreamRepo != s.regressionBackend || row.run.jobName != s.regressionJob
            || row.run.reported.status != RunStatus::Completed
            || row.run.eventType == EventType::Push)
            continue;
        const bool own =
            row.run.eventType == EventType::PullRequest && row.run.prNumber == b.culpritPr;
        const bool mainBased = row.run.eventType == EventType::Nightly || commit->branch == "main";
        const bool window = commit->time >= b.mergedAt && commit->time < b.fixedAt && mainBased
                            && row.run.prNumber != b.fixPr;
        if (!own && !window)
            continue;
        auto v = verdictForRun(*m_cache, store(row), *s_sources);
        ASSERT_TRUE(v) << v.message();
        EXPECT_EQ(v->verdict, Verdict::Red) << row.run.upstreamSha.value << reasons(*v);
        ++judged;
    }
    EXPECT_GE(judged, 5);
}

} // namespace
} // namespace relayhud::verdict
