// Automatic failure classes against the simulator: its rows go into a real
// cache, artifact sync fetches their JUnit reports and job logs from the
// in-process SimServer over loopback HTTP (picking each failed job's line),
// and every seeded story must get the class it was seeded with.
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/triage/job_line.h"
#include "relayhud/triage/suggest.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <csignal>
#include <iostream>
#include <map>
#include <set>
#include <string>

#include <unistd.h>

namespace {

using namespace relayhud;
using namespace relayhud::sim;
using namespace relayhud::triage;

bool inList(const std::vector<std::string>& list, const std::string& value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

bool isOutageRow(const SimStories& s, const CheckRun& run)
{
    return std::find(s.outageShas.begin(), s.outageShas.end(), run.upstreamSha)
               != s.outageShas.end()
           && inList(s.outageBackends, run.downstreamRepo) && run.runAttempt == 1
           && run.reported.conclusion == Conclusion::Failure;
}

bool isCancelledRow(const SimStories& s, const CheckRun& run)
{
    return run.upstreamSha == s.cancelledSha && run.downstreamRepo == s.cancelledBackend
           && run.reported.conclusion == Conclusion::Cancelled;
}

bool isJob(const CheckRun& run, const std::string& repo, const std::string& workflow,
           const std::string& job)
{
    return run.downstreamRepo == repo && run.workflow == workflow && run.jobName == job;
}

constexpr EpochSeconds kAnchor = 1796126400; // 2026-12-01 12:00 UTC

class SuggestSimTest : public ::testing::Test {
protected:
    // One sync for the suite: the story jobs' every run, the outage and the
    // cancelled runs, their artifacts and the failed ones' job logs.
    static void SetUpTestSuite()
    {
        std::signal(SIGPIPE, SIG_IGN);
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
        // A fixed anchor: the dataset (which nightly runs exist, which
        // attempts of the flaky job have results) moves with the hour of
        // SimConfig{}'s default "now", and the stories are checked on one.
        SimConfig config;
        config.now = kAnchor;
        s_server = new SimServer(buildDataset(config));
        ASSERT_GT(s_server->start(0), 0);
        s_truth = new SimArtifacts(s_server->dataset());
        // ctest runs each test of this suite in a process of its own, often
        // two at once: a folder per process, or one's remove_all and cache
        // open race the other's ("database is locked", "disk I/O error").
        s_dir = std::filesystem::temp_directory_path()
                / ("relayhud-suggest-sim-" + std::to_string(::getpid()));
        std::filesystem::remove_all(s_dir);
        std::filesystem::create_directories(s_dir);
        auto cache = Database::open((s_dir / "cache.sqlite").string());
        ASSERT_TRUE(cache) << cache.message();
        s_cache = cache->release();

        const SimDataset& data = s_server->dataset();
        SyncBatch batch{data.backends, data.commits, {}, {}};
        for (const SimRow* row : storyRows())
            batch.runs.push_back(row->run);
        ASSERT_TRUE(RunStore(*s_cache).apply(batch));

        auto blobs = ContentCache::open((s_dir / "blobs").string());
        ASSERT_TRUE(blobs) << blobs.message();
        ContentCache contents = std::move(*blobs);
        HttpClient http;
        ArtifactSettings settings;
        settings.githubApiUrl = s_server->githubApiUrl();
        settings.s3Endpoint = s_server->s3Endpoint();
        settings.s3Region = s_server->storeSettings().s3Region;
        Credentials keys;
        keys.githubToken = s_server->githubToken();
        keys.s3AccessKeyId = s_server->s3AccessKeyId();
        keys.s3SecretAccessKey = s_server->s3SecretAccessKey();
        ArtifactFetcher fetcher(http, contents, settings, keys);
        ArtifactSync sync(*s_cache, fetcher, settings);
        ArtifactSyncOptions options;
        options.policy = ArtifactPolicy::AllRuns; // the baselines passed
        options.days = 0;
        options.maxRuns = 100'000;
        auto report = sync.run(options);
        ASSERT_TRUE(report) << report.message();
        s_report = new ArtifactSyncReport(std::move(*report));
        std::cout << "[ measured ] " << batch.runs.size() << " runs, " << s_report->stored
                  << " with results, " << s_report->jobLogs << " job logs\n";
    }
    static void TearDownTestSuite()
    {
        delete s_report;
        delete s_cache;
        delete s_truth;
        delete s_server;
        std::filesystem::remove_all(s_dir);
    }

    static const SimStories& stories() { return s_server->dataset().stories; }

    static bool hasArtifacts(const SimRow& row) { return !s_truth->reports(row).empty(); }

    // The flaky test fails on attempt 1 and a later attempt that passed has
    // results: the SHAs where the rerun rule can tell.
    static std::vector<Sha> flakyShas()
    {
        const SimStories& s = stories();
        std::map<Sha, std::pair<bool, bool>> seen; // failed on attempt 1, passed later
        for (const SimRow& row : s_server->dataset().rows) {
            const CheckRun& r = row.run;
            if (!isJob(r, s.flakyBackend, s.flakyWorkflow, s.flakyJob) || !hasArtifacts(row))
                continue;
            const bool fails = inList(s_truth->failingTests(row), s.flakyTest);
            if (r.runAttempt == 1 && fails)
                seen[r.upstreamSha].first = true;
            else if (r.runAttempt > 1 && !fails)
                seen[r.upstreamSha].second = true;
        }
        std::vector<Sha> out;
        for (const auto& [sha, flags] : seen)
            if (flags.first && flags.second && out.size() < 3)
                out.push_back(sha);
        return out;
    }

    // What the suite syncs, kept small: every run of the broken-trunk
    // culprit's job (the culprit's heads, the PRs before its merge and the
    // ones it broke), the flaky job on a few SHAs where it flaked, and every
    // outage and cancelled run.
    static std::vector<const SimRow*> storyRows()
    {
        const SimDataset& data = s_server->dataset();
        const SimStories& s = data.stories;
        std::vector<const SimRow*> out;
        const auto flaky = flakyShas();
        for (const SimRow& row : data.rows) {
            const CheckRun& r = row.run;
            if (isJob(r, s.regressionBackend, s.regressionWorkflow, s.regressionJob)
                || (isJob(r, s.flakyBackend, s.flakyWorkflow, s.flakyJob)
                    && std::find(flaky.begin(), flaky.end(), r.upstreamSha) != flaky.end())
                || isOutageRow(s, r) || isCancelledRow(s, r))
                out.push_back(&row);
        }
        return out;
    }

    static CheckRunRow rowOf(const CheckRun& run)
    {
        auto row = RunStore(*s_cache).checkRunRowFor(run.checkRunId);
        EXPECT_TRUE(row && *row) << run.checkRunId.value;
        return row && *row ? **row : CheckRunRow{};
    }

    static std::vector<Suggestion> suggest(CheckRunRow row)
    {
        auto s = suggestForRun(*s_cache, row);
        EXPECT_TRUE(s) << (s ? "" : s.message());
        return s ? std::move(*s) : std::vector<Suggestion>{};
    }

    static const Suggestion* forTest(const std::vector<Suggestion>& all, const std::string& test)
    {
        for (const auto& s : all)
            if (s.target.identity == test)
                return &s;
        return nullptr;
    }

    static const Suggestion* forJob(const std::vector<Suggestion>& all)
    {
        for (const auto& s : all)
            if (s.target.isJob())
                return &s;
        return nullptr;
    }

    static inline SimServer* s_server = nullptr;
    static inline SimArtifacts* s_truth = nullptr;
    static inline Database* s_cache = nullptr;
    static inline ArtifactSyncReport* s_report = nullptr;
    static inline std::filesystem::path s_dir;
};

TEST_F(SuggestSimTest, TheSyncPickedTheFailedJobsLines)
{
    EXPECT_GT(s_report->stored, 0);
    EXPECT_GT(s_report->jobLogs, 0);
    EXPECT_GT(s_report->jobLinesPicked, 0);
    EXPECT_EQ(s_report->jobLogsFailed, 0);
    for (const auto& line : s_report->jobLineErrors)
        ADD_FAILURE() << line;
    // A second pass with the same rules asks for no log again.
    EXPECT_TRUE(EvidenceStore(*s_cache)
                    .jobLineQueue({triage::ruleSetHash(defaultRuleSet()), 0, 0, 1000})
                    ->empty());
}

// The outage's logs name an infrastructure failure; a cancelled run's log
// says only that it was cancelled, which is no class (issue 37).
TEST_F(SuggestSimTest, TheSimulatorsInfraLogsAreInfraByTheDefaultRules)
{
    auto classifier = Classifier::create(defaultRuleSet());
    ASSERT_TRUE(classifier);
    int outages = 0;
    int cancelled = 0;
    for (const SimRow& row : s_server->dataset().rows) {
        const bool outage = isOutageRow(stories(), row.run);
        if (!outage && !isCancelledRow(stories(), row.run))
            continue;
        const auto line = classifier->classifyText(s_truth->jobLog(row));
        ASSERT_TRUE(line) << row.run.downstreamRepo << " " << row.run.jobName;
        if (outage) {
            EXPECT_EQ(line->impliedClass, FailureClass::Infra)
                << line->ruleName << ": " << line->text;
            ++outages;
        } else {
            EXPECT_EQ(line->ruleName, "Job cancelled");
            EXPECT_EQ(line->impliedClass, FailureClass::Unset) << line->text;
            ++cancelled;
        }
    }
    EXPECT_GT(outages, 3);
    EXPECT_GT(cancelled, 0);
}

TEST_F(SuggestSimTest, TheCulpritsHeadsAreItsRegressionAndThePrsItBrokeArePreExisting)
{
    const SimStories& s = stories();
    ASSERT_FALSE(s.brokenTrunk.empty());
    const SimBrokenTrunk& story = s.brokenTrunk.front();
    ASSERT_EQ(story.culpritPr, s.culpritPr);
    ASSERT_EQ(s.regressionTests, std::vector<std::string>{story.test});
    std::map<Sha, EpochSeconds> commitTime;
    for (const auto& c : s_server->dataset().commits)
        commitTime[c.sha] = c.time;
    int culpritHeads = 0;
    int broken = 0;
    int brokenRight = 0;
    for (const SimRow& row : s_server->dataset().rows) {
        const CheckRun& r = row.run;
        if (!isJob(r, s.regressionBackend, s.regressionWorkflow, s.regressionJob)
            || !hasArtifacts(row) || !inList(s_truth->failingTests(row), story.test))
            continue;
        const auto all = suggest(rowOf(r));
        const Suggestion* found = forTest(all, story.test);
        ASSERT_TRUE(found) << r.upstreamSha.value;
        // No evidence ever compares two different PRs' heads.
        for (const Evidence& e : found->evidence) {
            if (!e.compareUrl.empty()) {
                EXPECT_TRUE(e.run && e.run->prNumber == r.prNumber) << e.compareUrl;
            }
        }
        if (r.prNumber == story.culpritPr) {
            EXPECT_EQ(found->cls, FailureClass::Regression) << found->why;
            ++culpritHeads;
            continue;
        }
        const EpochSeconds t = commitTime[r.upstreamSha];
        if (r.eventType != EventType::PullRequest || t < story.mergedAt || t >= story.fixedAt)
            continue;
        ++broken;
        if (found->cls != FailureClass::PreExisting) {
            ADD_FAILURE() << "#" << r.prNumber.value << ": " << failureClassName(found->cls) << ": "
                          << found->why;
            continue;
        }
        const Evidence& b = found->evidence.front();
        ASSERT_EQ(b.kind, EvidenceKind::Breakage);
        EXPECT_EQ(b.culpritPr, story.culpritPr) << found->why;
        EXPECT_NE(found->why.find("likely by #" + std::to_string(story.culpritPr.value)),
                  std::string::npos)
            << found->why;
        if (b.culpritPr == story.culpritPr)
            ++brokenRight;
    }
    EXPECT_GT(culpritHeads, 0) << "the culprit's heads ran the job with artifacts";
    EXPECT_GE(broken, 3) << "PRs after the merge ran the job with artifacts";
    EXPECT_EQ(brokenRight, broken);
    std::cout << "[ measured ] culprit #" << story.culpritPr.value << ": " << culpritHeads
              << " of its heads, " << broken << " PR runs it broke\n";
}

TEST_F(SuggestSimTest, TheFlakyTestsFirstAttemptFailureIsFlaky)
{
    const SimStories& s = stories();
    const auto shas = flakyShas();
    ASSERT_FALSE(shas.empty()) << "the dataset seeds no rerun that passed";
    int checked = 0;
    for (const SimRow& row : s_server->dataset().rows) {
        const CheckRun& r = row.run;
        if (!isJob(r, s.flakyBackend, s.flakyWorkflow, s.flakyJob) || r.runAttempt != 1
            || std::find(shas.begin(), shas.end(), r.upstreamSha) == shas.end())
            continue;
        const auto all = suggest(rowOf(r));
        const Suggestion* found = forTest(all, s.flakyTest);
        ASSERT_TRUE(found) << r.upstreamSha.value;
        EXPECT_EQ(found->cls, FailureClass::Flaky) << found->why;
        ASSERT_EQ(found->evidence.front().kind, EvidenceKind::Rerun);
        EXPECT_GT(found->evidence.front().run->runAttempt, 1);
        ++checked;
    }
    EXPECT_EQ(checked, static_cast<int>(shas.size()));
}

TEST_F(SuggestSimTest, OutageRowsAreInfraGroupedAcrossTheOutageBackends)
{
    const SimStories& s = stories();
    std::set<std::string> backendsSeen;
    int checked = 0;
    for (const SimRow& row : s_server->dataset().rows) {
        if (!isOutageRow(s, row.run))
            continue;
        const auto all = suggest(rowOf(row.run));
        const Suggestion* job = forJob(all);
        ASSERT_TRUE(job) << row.run.downstreamRepo << " " << row.run.jobName;
        EXPECT_EQ(job->cls, FailureClass::Infra) << job->why;
        ASSERT_FALSE(job->evidence.empty());
        ASSERT_EQ(job->evidence.front().kind, EvidenceKind::Outage) << job->why;
        EXPECT_FALSE(job->group.empty());
        for (const EvidenceRun& other : job->evidence.front().others) {
            EXPECT_NE(other.downstreamRepo, row.run.downstreamRepo);
            EXPECT_TRUE(inList(s.outageBackends, other.downstreamRepo)) << other.downstreamRepo;
        }
        backendsSeen.insert(row.run.downstreamRepo);
        ++checked;
    }
    EXPECT_GT(checked, 3);
    EXPECT_EQ(backendsSeen.size(), s.outageBackends.size());
}

// The story's run was cancelled while its build ran, with no outage
// anywhere: cancelled is not infra, it stays cancelled and says so.
TEST_F(SuggestSimTest, TheCancelledRunStaysCancelled)
{
    int checked = 0;
    for (const SimRow& row : s_server->dataset().rows) {
        if (!isCancelledRow(stories(), row.run))
            continue;
        const auto all = suggest(rowOf(row.run));
        const Suggestion* job = forJob(all);
        ASSERT_TRUE(job);
        EXPECT_EQ(job->cls, FailureClass::Untriaged) << job->why;
        EXPECT_EQ(job->why.rfind("job was cancelled without test results; line ", 0), 0u)
            << job->why;
        EXPECT_NE(job->why.find("no runner loss or outage across backends says why it was "
                                "cancelled"),
                  std::string::npos)
            << job->why;
        EXPECT_TRUE(job->group.empty());
        ++checked;
    }
    EXPECT_GT(checked, 0);
}

} // namespace
