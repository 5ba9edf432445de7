// The integration doctor against the simulator (issue 20): every reporting
// backend's .github/workflows through the simulated contents API, linted.
// The simulator's workflows are sound except where its runtime stories say
// otherwise, and the doctor must name exactly those: the zombie's backend
// (its completed callback does not run when a job dies), the backend whose
// matrix legs report under one job name (read here from the rows themselves),
// and crcr-test's probe that is meant to time out. Fetching is conditional
// and checks each file's size and git blob SHA.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/doctor/runtime_health.h"
#include "relayhud/doctor/workflow_lint.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/health_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/artifact_sync.h"

#include "sim_leg_names.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <fstream>
#include <map>
#include <set>

namespace {

using namespace relayhud;
using namespace relayhud::sim;

class DoctorSimTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        std::signal(SIGPIPE, SIG_IGN);
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
        s_server = new SimServer(buildDataset(SimConfig{}));
        ASSERT_GT(s_server->start(0), 0);
    }
    static void TearDownTestSuite()
    {
        delete s_server;
        s_server = nullptr;
    }
    void SetUp() override
    {
        m_scratch.emplace("doctor-sim");
        auto blobs = ContentCache::open(m_scratch->file("blobs"));
        ASSERT_TRUE(blobs) << blobs.message();
        m_blobs.emplace(std::move(*blobs));
    }

    ArtifactFetcher fetcher()
    {
        ArtifactSettings settings;
        settings.githubApiUrl = s_server->githubApiUrl();
        Credentials credentials;
        credentials.githubToken = s_server->githubToken();
        return ArtifactFetcher(m_http, *m_blobs, settings, credentials);
    }

    static SimServer* s_server;
    std::optional<relayhud::testing::ScratchDir> m_scratch;
    std::optional<ContentCache> m_blobs;
    HttpClient m_http;
};

SimServer* DoctorSimTest::s_server = nullptr;

std::pair<std::string, std::string> split(const std::string& repo)
{
    const auto slash = repo.find('/');
    return {repo.substr(0, slash), repo.substr(slash + 1)};
}

TEST_F(DoctorSimTest, TheDoctorNamesExactlyTheMistakesTheRuntimeStoriesTell)
{
    const SimStories& stories = s_server->dataset().stories;
    const std::set<std::string> shared =
        relayhud::testing::reposWithSharedLegNames(s_server->dataset());
    ASSERT_EQ(shared.size(), 1u) << "the simulator has one backend whose legs share a name";
    ASSERT_FALSE(stories.zombieBackend.empty());
    auto github = fetcher();
    std::size_t backendsRead = 0;
    for (const Backend& backend : s_server->dataset().backends) {
        if (backend.level == Level::L1)
            continue;
        const auto [owner, repo] = split(backend.repo);
        auto fetched = github.fetchWorkflowFiles(owner, repo);
        ASSERT_TRUE(fetched) << backend.repo << ": " << fetched.message();
        ASSERT_EQ(fetched->status, FetchStatus::Fetched)
            << backend.repo << ": " << fetched->message;
        ++backendsRead;
        std::map<std::string, int> errors;
        std::set<std::string> others;
        for (const RepoFile& file : fetched->files) {
            EXPECT_TRUE(file.path.starts_with(".github/workflows/")) << file.path;
            auto lint = doctor::lintWorkflow(file.text);
            ASSERT_TRUE(lint) << backend.repo << " " << file.path << ": " << lint.message();
            for (const doctor::Finding& f : lint->findings) {
                if (f.severity == doctor::Severity::Error)
                    ++errors[f.check];
                else
                    others.insert(std::string(doctor::severityName(f.severity)) + " " + f.check
                                  + ": " + f.message);
            }
        }
        std::map<std::string, int> expected;
        if (backend.repo == stories.zombieBackend)
            expected["callback-always"] = 1;
        if (shared.count(backend.repo))
            expected["matrix-job-name"] = 1;
        if (backend.repo == "pytorch/crcr-test")
            expected["callback-pair"] = 1; // its xtimeout probe never completes, by design
        if (backend.repo == stories.wrongShaBackend)
            expected["exact-sha"] = 2; // its build job's checkout and its test legs'

        EXPECT_EQ(errors, expected) << backend.repo;
        if (backend.repo == "pytorch/crcr-test") {
            EXPECT_EQ(others.size(), 1u) << "it checks out no pytorch: the SHA cannot be judged";
        } else {
            for (const std::string& other : others)
                ADD_FAILURE() << backend.repo << ": " << other;
        }
    }
    EXPECT_GE(backendsRead, 5u);
}

// The tested SHA from the job logs: a sync pass reads the failed runs' logs
// and a sample of greens', and the doctor compares what actions/checkout
// printed with the SHA the HUD row carries. The backend that checks out the
// default branch is caught by its logs alone; the others' logs verify.
TEST_F(DoctorSimTest, TheJobLogsShowWhichBackendTestsAnotherCommit)
{
    const SimDataset& data = s_server->dataset();
    const std::string wrong = data.stories.wrongShaBackend;
    ASSERT_FALSE(wrong.empty());
    const std::string sound = "spyre-labs/spyre-inductor-ci";
    auto cache = relayhud::testing::openTestCache(m_scratch->file("cache.sqlite"));
    ASSERT_TRUE(cache) << cache.message();
    const EpochSeconds since = data.config.now - 2 * 86400;
    std::map<Sha, EpochSeconds> commitTime;
    for (const UpstreamCommit& c : data.commits)
        commitTime[c.sha] = c.time;
    SyncBatch batch{data.backends, data.commits, {}, {}};
    for (const SimRow& row : data.rows)
        if ((row.run.downstreamRepo == wrong || row.run.downstreamRepo == sound)
            && commitTime[row.run.upstreamSha] >= since)
            batch.runs.push_back(row.run);
    ASSERT_TRUE(RunStore(**cache).apply(batch));

    auto github = fetcher();
    ArtifactSettings settings;
    settings.githubApiUrl = s_server->githubApiUrl();
    ArtifactSync sync(**cache, github, settings);
    ArtifactSyncOptions options;
    options.policy = ArtifactPolicy::FailedRuns;
    options.days = 3;
    options.checkoutSample = 4;
    auto report = sync.run(options);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->checkoutLogs, 8) << "four greens of each backend";
    EXPECT_EQ(report->checkoutLogsUnread, 0);
    for (const std::string& line : report->jobLineErrors)
        ADD_FAILURE() << line;

    for (const std::string& repo : {wrong, sound}) {
        auto runs = HealthStore(**cache).healthRuns({repo, since - 86400});
        ASSERT_TRUE(runs) << runs.message();
        const doctor::RuntimeHealth h =
            doctor::judgeRuntime(repo, *runs, since - 86400, data.config.now);
        const doctor::HealthFinding* found = nullptr;
        for (const doctor::HealthFinding& f : h.findings)
            if (f.check == "tested-sha")
                found = &f;
        ASSERT_NE(found, nullptr) << repo;
        EXPECT_GE(h.logsRead, 4u) << repo;
        if (repo == wrong) {
            EXPECT_EQ(found->severity, doctor::Severity::Error) << found->message;
            EXPECT_GT(h.shaMismatched, 0u);
            // Its pushes check out main, which is what they were dispatched for.
            EXPECT_EQ(h.shaMismatched + h.shaVerified, h.logsRead) << found->message;
            for (const HealthRun& run : *runs) {
                if (std::count(found->runs.begin(), found->runs.end(), run.checkRunRow) != 0) {
                    EXPECT_EQ(run.eventType, EventType::PullRequest) << run.job;
                }
            }
        } else {
            EXPECT_EQ(found->severity, doctor::Severity::Info) << found->message;
            EXPECT_EQ(h.shaMismatched, 0u);
            EXPECT_EQ(h.shaVerified, h.logsRead) << found->message;
        }
    }
}

TEST_F(DoctorSimTest, AskingAgainCostsOnly304s)
{
    const auto [owner, repo] = split(s_server->dataset().stories.zombieBackend);
    auto github = fetcher();
    auto first = github.fetchWorkflowFiles(owner, repo);
    ASSERT_TRUE(first) << first.message();
    ASSERT_FALSE(first->files.empty());
    EXPECT_EQ(first->requests, static_cast<int>(first->files.size()) + 1);
    auto again = github.fetchWorkflowFiles(owner, repo);
    ASSERT_TRUE(again) << again.message();
    ASSERT_EQ(again->files.size(), first->files.size());
    for (std::size_t i = 0; i < again->files.size(); ++i) {
        EXPECT_TRUE(again->files[i].fromCache) << again->files[i].path;
        EXPECT_EQ(again->files[i].text, first->files[i].text);
    }
}

// A file cut on the way (the proxy keeps the full answer's ETag and frames the
// cut body) is caught by its listed size and never kept; one an older
// version kept cut is forgotten and asked for whole.
TEST_F(DoctorSimTest, ACutWorkflowFileIsNeverKept)
{
    const auto [owner, repo] = split(s_server->dataset().stories.zombieBackend);
    auto github = fetcher();
    auto whole = github.fetchWorkflowFiles(owner, repo);
    ASSERT_TRUE(whole) << whole.message();
    const RepoFile& target = whole->files.front();
    const std::string url =
        s_server->githubApiUrl() + "/repos/" + owner + "/" + repo + "/contents/" + target.path;
    const auto record = m_blobs->lookupUrl(url);
    ASSERT_TRUE(record) << "kept under " << url;

    m_blobs->forgetUrl(url);
    FaultConfig faults;
    faults.truncateRate = 1.0; // the listing comes back 304 (kept); the file is cut
    s_server->setFaults(faults);
    auto cut = github.fetchWorkflowFiles(owner, repo);
    s_server->setFaults(FaultConfig{});
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.message().find("its listing says"), std::string::npos) << cut.message();
    EXPECT_NE(cut.message().find("(cut in transit?)"), std::string::npos) << cut.message();
    EXPECT_FALSE(m_blobs->lookupUrl(url)) << "a cut body is never kept";

    // As an older version kept a cut body: its own blob, the full answer's ETag.
    auto kept = m_blobs->put(target.text.substr(0, target.text.size() / 2));
    ASSERT_TRUE(kept);
    ASSERT_TRUE(m_blobs->recordUrl(url, UrlRecord{*kept, record->etag, {}}));
    auto again = github.fetchWorkflowFiles(owner, repo);
    ASSERT_TRUE(again) << again.message();
    EXPECT_EQ(again->files.front().text, target.text);
    EXPECT_FALSE(again->files.front().fromCache);
}

TEST_F(DoctorSimTest, ARepositoryWithoutWorkflowsIsEmptyNotAnError)
{
    auto github = fetcher();
    auto none = github.fetchWorkflowFiles("nobody", "nothing");
    ASSERT_TRUE(none) << none.message();
    EXPECT_EQ(none->status, FetchStatus::Empty);
    EXPECT_NE(none->message.find("no .github/workflows"), std::string::npos) << none->message;
    EXPECT_FALSE(github.fetchWorkflowFiles("bad owner", "x"));
}

} // namespace
