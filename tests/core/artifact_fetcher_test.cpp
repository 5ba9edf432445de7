// ArtifactFetcher against loopback servers: GitHub Actions artifacts and job
// logs (FakeGitHub), plain HTTPS files, and local files and folders. S3 and
// the simulator's stores are in artifact_sim_test.cpp.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/util/time.h"

#include "artifact_test_support.h"
#include "raw_http_server.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

namespace {

using relayhud::test::readFile;

using namespace std::chrono_literals;
using namespace relayhud;
using relayhud::test::archiveOf;
using relayhud::test::FakeGitHub;
using relayhud::test::junitXml;
namespace fs = std::filesystem;

class ArtifactFetcherTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        std::signal(SIGPIPE, SIG_IGN);
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
    }
    void SetUp() override
    {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() / ("relayhud-fetch-" + std::string(info->name()));
        fs::remove_all(m_dir);
        auto blobs = ContentCache::open((m_dir / "blobs").string());
        ASSERT_TRUE(blobs) << blobs.message();
        m_blobs.emplace(std::move(*blobs));
    }
    void TearDown() override { fs::remove_all(m_dir); }

    static HttpOptions fastOptions()
    {
        HttpOptions options;
        options.retry.maxAttempts = 3;
        options.retry.baseDelay = 5ms;
        options.retry.maxDelay = 20ms;
        return options;
    }
    ArtifactFetcher fetcherFor(const std::string& token, HttpClient* http = nullptr)
    {
        ArtifactSettings settings;
        settings.githubApiUrl = m_github.apiUrl();
        Credentials credentials;
        credentials.githubToken = token;
        return ArtifactFetcher(http ? *http : m_http, *m_blobs, settings, credentials);
    }
    static ArtifactLocation runLocation(const std::string& runId, const std::string& jobId,
                                        int attempt)
    {
        auto location =
            locateArtifacts("https://github.com/torch-spyre/torch-spyre/actions/runs/" + runId, {});
        EXPECT_TRUE(location);
        location->jobId = jobId;
        location->runAttempt = attempt;
        return *location;
    }
    void addArtifact(std::int64_t id, const std::string& name, bool expired = false)
    {
        m_github.artifacts.push_back(
            {id, name, archiveOf({{"test-reports/default.xml", junitXml(3, 1)}}), expired});
    }

    // The server outlives the client: a server stopped while a client still
    // holds a kept-alive connection waits out its keep-alive time.
    FakeGitHub m_github;
    fs::path m_dir;
    std::optional<ContentCache> m_blobs;
    HttpClient m_http{fastOptions()};
};

// ---- GitHub artifacts --------------------------------------------------------

TEST_F(ArtifactFetcherTest, DownloadsTheJobsArtifactWithoutSendingTheTokenToTheBlobUrl)
{
    addArtifact(1, "test-reports-runattempt1-test-default-1-2-linux.spyre_111");
    addArtifact(2, "test-reports-runattempt1-test-default-2-2-linux.spyre_222");
    addArtifact(3, "test-reports-runattempt2-test-default-1-2-linux.spyre_333");
    addArtifact(4, "wheel-linux-py3.11");
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("14800012345", "111", 1));
    ASSERT_TRUE(fetched) << fetched.message();
    ASSERT_EQ(fetched->status, FetchStatus::Fetched) << fetched->message;
    ASSERT_EQ(fetched->files.size(), 1u);
    const FetchedFile& file = fetched->files[0];
    EXPECT_EQ(file.name, "test-reports-runattempt1-test-default-1-2-linux.spyre_111.zip");
    EXPECT_EQ(readFile(file.path), m_github.artifacts[0].zip);
    EXPECT_EQ(file.hash, contentHash(m_github.artifacts[0].zip));
    EXPECT_FALSE(file.fromCache);
    EXPECT_EQ(fetched->requests, 3); // listing, API zip, blob
    for (const auto& seen : m_github.seen()) {
        if (seen.path.starts_with("/blob/"))
            EXPECT_EQ(seen.authorization, "") << "the token leaked to " << seen.path;
        else
            EXPECT_EQ(seen.authorization, std::string("Bearer ") + FakeGitHub::kToken);
    }
    EXPECT_EQ(m_github.requestsTo("/blob/artifacts/1.zip"), 1);
}

TEST_F(ArtifactFetcherTest, SelectsByAttemptAndFallsBackToAllArtifactsOfARun)
{
    addArtifact(1, "reports-runattempt1");
    addArtifact(2, "reports-runattempt2");
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto second = fetcher.fetch(runLocation("5", "999", 2)); // names carry no job ids
    ASSERT_TRUE(second) << second.message();
    ASSERT_EQ(second->files.size(), 1u);
    EXPECT_EQ(second->files[0].name, "reports-runattempt2.zip");
    auto any = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(any) << any.message();
    EXPECT_EQ(any->files.size(), 2u);
}

TEST_F(ArtifactFetcherTest, AJobWithoutArtifactsAmongOthersIsEmpty)
{
    addArtifact(1, "test-reports-runattempt1-test-default-1-1-linux_111");
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("5", "222", 1));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Empty);
    EXPECT_NE(fetched->message.find("belong to job 222"), std::string::npos) << fetched->message;
    m_github.artifacts.clear();
    auto none = fetcher.fetch(runLocation("6", "222", 1));
    ASSERT_TRUE(none);
    EXPECT_EQ(none->status, FetchStatus::Empty);
}

TEST_F(ArtifactFetcherTest, FollowsLinkPaginationToLaterPages)
{
    m_github.perPage = 2;
    for (int i = 1; i <= 5; ++i)
        addArtifact(i, "test-reports-runattempt1-test-default-" + std::to_string(i) + "-5-linux_"
                           + std::to_string(100 + i));
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("5", "105", 1));
    ASSERT_TRUE(fetched) << fetched.message();
    ASSERT_EQ(fetched->files.size(), 1u);
    EXPECT_EQ(fetched->files[0].hash, contentHash(m_github.artifacts[4].zip));
    EXPECT_EQ(m_github.requestsTo("/runs/5/artifacts"), 3);
}

TEST_F(ArtifactFetcherTest, NeverFollowsAPageLinkToAnotherHostWithTheToken)
{
    addArtifact(1, "reports");
    m_github.foreignNextLink = "http://collector.invalid/api/v3/steal?page=2";
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_FALSE(fetched);
    EXPECT_NE(fetched.message().find("another host"), std::string::npos) << fetched.message();
}

TEST_F(ArtifactFetcherTest, AMissingTokenIsUnauthorizedOnceAndNamesTheSetting)
{
    addArtifact(1, "reports");
    auto fetcher = fetcherFor("");
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Unauthorized);
    EXPECT_NE(fetched->message.find("GitHub token missing"), std::string::npos) << fetched->message;
    EXPECT_NE(fetched->message.find("Settings > Artifacts"), std::string::npos);
    EXPECT_NE(fetched->message.find("GITHUB_TOKEN"), std::string::npos);
    EXPECT_EQ(fetched->message.find('\n'), std::string::npos);
    // Further runs are answered without asking again: 200 runs, one refusal.
    const auto before = m_github.seen().size();
    for (int run = 6; run < 10; ++run) {
        auto again = fetcher.fetch(runLocation(std::to_string(run), "", 0));
        ASSERT_TRUE(again);
        EXPECT_EQ(again->status, FetchStatus::Unauthorized);
        EXPECT_EQ(again->message, fetched->message);
    }
    EXPECT_EQ(m_github.seen().size(), before);
}

TEST_F(ArtifactFetcherTest, AWrongTokenIsUnauthorizedAndNeverShown)
{
    addArtifact(1, "reports");
    const std::string wrong = "ghp_wrongTokenThatMustNotBeShown42";
    auto fetcher = fetcherFor(wrong);
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Unauthorized);
    EXPECT_NE(fetched->message.find("GitHub token refused"), std::string::npos) << fetched->message;
    EXPECT_NE(fetched->message.find("Bad credentials"), std::string::npos);
    EXPECT_EQ(fetched->message.find(wrong), std::string::npos);
    auto log = fetcher.fetchJobLog("torch-spyre", "torch-spyre", "991");
    ASSERT_TRUE(log);
    EXPECT_EQ(log->status, FetchStatus::Unauthorized);
    EXPECT_EQ(log->message.find(wrong), std::string::npos);
}

TEST_F(ArtifactFetcherTest, TheTokenAppearsInNoErrorTextEvenWhenAServerEchoesIt)
{
    addArtifact(1, "reports");
    m_github.echoInError = "proxy failure, request was: Authorization: ";
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_FALSE(fetched);
    EXPECT_NE(fetched.message().find("HTTP 500"), std::string::npos) << fetched.message();
    EXPECT_NE(fetched.message().find("Bearer ***"), std::string::npos) << fetched.message();
    EXPECT_EQ(fetched.message().find(FakeGitHub::kToken), std::string::npos) << fetched.message();
}

TEST_F(ArtifactFetcherTest, ArtifactsListedAsExpiredAreExpiredWithoutAsking)
{
    addArtifact(1, "reports", true);
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Expired);
    EXPECT_NE(fetched->message.find("have expired"), std::string::npos) << fetched->message;
    EXPECT_EQ(m_github.requestsTo("/zip"), 0);
}

// ---- The real reporters' artifacts (../shared/specs/real-backends.md 3.2, 3.3, 7) ----
// torch-spyre build_test_pytorch_source.yaml @5a14b852 / @01f88357 and
// _upstream_tests_beta_matrix.yaml @1c1da12d: wheels (5 days), per-suite
// `<config stem>.xml` (90 days) and `upstream-beta-reports-<sha>` (30 days).

const std::string kTestedSha = "6f1d2a9c0b8e4f3a2d1c0b9a8f7e6d5c4b3a2f10";

TEST_F(ArtifactFetcherTest, ASpyreRunsWheelsAreNeverDownloadedAndItsMergedReportsAreReadOnce)
{
    const std::string merged = "upstream-beta-reports-" + kTestedSha;
    m_github.artifacts = {
        {1, "pytorch-wheel-" + kTestedSha, "not a zip", false, "", "", 812LL << 20},
        {2, "torch-spyre-wheel-" + kTestedSha, "not a zip", false, "", "", 96LL << 20},
        {3, "test_indexing.xml", archiveOf({{"test_indexing.xml", junitXml(3, 0)}})},
        {4, merged,
         archiveOf({{"test_indexing.xml", junitXml(3, 0)},
                    {"test_linalg.xml", junitXml(2, 1, "test_linalg.py")}})}};
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("17001", "41000000077", 1));
    ASSERT_TRUE(fetched) << fetched.message();
    ASSERT_EQ(fetched->status, FetchStatus::Fetched) << fetched->message;
    ASSERT_EQ(fetched->files.size(), 1u);
    EXPECT_EQ(fetched->files[0].name, merged + ".zip");
    EXPECT_EQ(m_github.requestsTo("/artifacts/1/zip") + m_github.requestsTo("/artifacts/2/zip"), 0)
        << "no wheel is ever asked for";
    EXPECT_EQ(m_github.requestsTo("/artifacts/3/zip"), 0) << "the same cases as the merged ones";
    const auto noted = [&](const std::string& text) {
        return std::any_of(fetched->notes.begin(), fetched->notes.end(),
                           [&](const auto& note) { return note.find(text) != std::string::npos; });
    };
    EXPECT_TRUE(noted("pytorch-wheel-" + kTestedSha + " (812 MiB, a wheel or other binary)"));
    EXPECT_TRUE(noted("test_indexing.xml (")) << "said why it was left";
    EXPECT_EQ(fetched->listedNames.size(), 4u) << "the names carry the tested commit";
}

// Variant B: the callback's run dispatched _upstream_tests_beta_matrix.yaml
// with correlation_id <run_id>-<run_number>-<epoch ms>; the child's run name
// ends " (<correlation id>)"; its suites' XML are the child's artifacts, and
// the parent holds only wheels until its report job uploads the merged ones.
TEST_F(ArtifactFetcherTest, AChildRunDispatchedByTheRunIsFoundByItsCorrelationIdAndRead)
{
    m_github.artifacts = {
        {1, "pytorch-wheel-" + kTestedSha, "not a zip", false, "17001", "", 812LL << 20},
        {2, "torch-spyre-wheel-" + kTestedSha, "not a zip", false, "17001", "", 96LL << 20},
        {5, "test_indexing.xml", archiveOf({{"test_indexing.xml", junitXml(3, 0)}}), false,
         "17950"},
        {6, "test_linalg.xml", archiveOf({{"test_linalg.xml", junitXml(2, 1, "test_linalg.py")}}),
         false, "17950"},
        {7, "test_indexing.xml", archiveOf({{"test_indexing.xml", junitXml(9, 9)}}), false,
         "17800"}};
    m_github.runs = {{17950, "upstream-tests-beta-matrix (reusable) (17001-412-1764993600123)",
                      "workflow_dispatch"},
                     {17800, "upstream-tests-beta-matrix (reusable) (170012-77-1764990000000)",
                      "workflow_dispatch"},
                     {17001, "push-pytorch-dispatch-to-clickhouse", "repository_dispatch"}};
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto location = runLocation("17001", "41000000077", 1);
    location.startedAt = 1'764'990'000;
    auto fetched = fetcher.fetch(location);
    ASSERT_TRUE(fetched) << fetched.message();
    ASSERT_EQ(fetched->status, FetchStatus::Fetched) << fetched->message;
    ASSERT_EQ(fetched->files.size(), 2u);
    EXPECT_EQ(m_github.requestsTo("/artifacts/5/zip"), 1);
    EXPECT_EQ(m_github.requestsTo("/artifacts/6/zip"), 1);
    EXPECT_EQ(m_github.requestsTo("/artifacts/7/zip"), 0)
        << "run 170012's child is not run 17001's, though its id starts the same";
    EXPECT_EQ(m_github.requestsTo("/artifacts/1/zip"), 0);
    ASSERT_FALSE(fetched->notes.empty());
    EXPECT_NE(fetched->notes[0].find("dispatched run 17950"), std::string::npos)
        << fetched->notes[0];
    int runListings = 0;
    for (const auto& seen : m_github.seen())
        runListings += seen.path.ends_with("/actions/runs") ? 1 : 0;
    EXPECT_EQ(runListings, 1) << "one search of the dispatched runs";
}

TEST_F(ArtifactFetcherTest, ARunWithOnlyWheelsAndNoChildHasNoReportsUploadedAndSaysWhatItHad)
{
    m_github.artifacts = {
        {1, "pytorch-wheel-" + kTestedSha, "not a zip", false, "", "", 812LL << 20}};
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("17001", "41000000077", 1));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Empty);
    EXPECT_NE(fetched->message.find("no reports uploaded"), std::string::npos) << fetched->message;
    ASSERT_EQ(fetched->notes.size(), 1u);
    EXPECT_NE(fetched->notes[0].find("a wheel or other binary"), std::string::npos);
    EXPECT_EQ(m_github.requestsTo("/zip"), 0);
}

TEST_F(ArtifactFetcherTest, ReportsPastTheirExpiresAtSayTheDayTheyWent)
{
    m_github.artifacts = {
        {4, "upstream-beta-reports-" + kTestedSha, "zip", true, "", "2026-11-02T04:31:10Z"},
        {3, "test_indexing.xml", "zip", true, "", "2026-11-20T04:31:10Z"}};
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("17001", "", 0));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Expired);
    EXPECT_NE(fetched->message.find("expired on 2026-11-20"), std::string::npos)
        << fetched->message;
    EXPECT_EQ(m_github.requestsTo("/zip"), 0);
}

TEST_F(ArtifactFetcherTest, A410FromTheZipEndpointIsExpiredInOneLine)
{
    addArtifact(1, "reports-a");
    addArtifact(2, "reports-b");
    m_github.goneOnDownload = {1, 2};
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Expired);
    EXPECT_EQ(fetched->message.find('\n'), std::string::npos);
    // One of two gone: the other still counts.
    m_github.goneOnDownload = {2};
    auto partly = fetcher.fetch(runLocation("6", "", 0));
    ASSERT_TRUE(partly) << partly.message();
    EXPECT_EQ(partly->status, FetchStatus::Fetched);
    EXPECT_EQ(partly->files.size(), 1u);
}

TEST_F(ArtifactFetcherTest, AnExpiredSignedUrlIsAskedForAgainOnceThenExpired)
{
    addArtifact(1, "reports");
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    m_github.expiredSignatures = 1; // a slow first try: the fresh link works
    auto renewed = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(renewed) << renewed.message();
    EXPECT_EQ(renewed->status, FetchStatus::Fetched);
    EXPECT_EQ(m_github.requestsTo("/zip"), 2);

    addArtifact(2, "reports-2");
    m_github.artifacts.erase(m_github.artifacts.begin());
    m_github.expiredSignatures = 2;
    auto expired = fetcher.fetch(runLocation("6", "", 0));
    ASSERT_TRUE(expired) << expired.message();
    EXPECT_EQ(expired->status, FetchStatus::Expired);
    EXPECT_NE(expired->message.find("download link"), std::string::npos) << expired->message;
    EXPECT_EQ(expired->message.find("X-Amz-Signature"), std::string::npos);
}

TEST_F(ArtifactFetcherTest, ReusesUnchangedListingsAndCachedArtifacts)
{
    addArtifact(1, "reports");
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto first = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(first) << first.message();
    auto second = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(second) << second.message();
    ASSERT_EQ(second->files.size(), 1u);
    EXPECT_TRUE(second->files[0].fromCache);
    EXPECT_EQ(second->files[0].hash, first->files[0].hash);
    EXPECT_EQ(second->requests, 1) << "only the listing, answered 304";
    const auto seen = m_github.seen();
    EXPECT_FALSE(seen.back().ifNoneMatch.empty());
    EXPECT_EQ(m_github.requestsTo("/blob/"), 1);
}

TEST_F(ArtifactFetcherTest, WaitsOutARateLimitThatResetsSoon)
{
    addArtifact(1, "reports");
    m_github.rateRemaining = 0;
    m_github.rateReset = nowSeconds() + 2;
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    const auto start = std::chrono::steady_clock::now();
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Fetched);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 1000ms) << "the zip waited for the reset";
    EXPECT_EQ(fetcher.rateLimit().remaining, 0);
}

TEST_F(ArtifactFetcherTest, ARateLimitThatResetsLateIsAnErrorSayingWhen)
{
    addArtifact(1, "reports");
    m_github.rateRemaining = 0;
    m_github.rateReset = nowSeconds() + 1800;
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_FALSE(fetched);
    EXPECT_NE(fetched.message().find("rate limit"), std::string::npos) << fetched.message();
    EXPECT_NE(fetched.message().find("resets at"), std::string::npos) << fetched.message();
    EXPECT_EQ(fetcher.rateLimit().resetAt, m_github.rateReset);
}

TEST_F(ArtifactFetcherTest, ASecondaryRateLimitIsWaitedOutNotTakenForARefusal)
{
    addArtifact(1, "reports");
    m_github.secondaryLimits = 1;
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    const auto start = std::chrono::steady_clock::now();
    auto fetched = fetcher.fetch(runLocation("5", "", 0));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Fetched);
    EXPECT_GE(std::chrono::steady_clock::now() - start, 900ms);
}

TEST_F(ArtifactFetcherTest, CancelStopsAFetchAndARateLimitWait)
{
    addArtifact(1, "reports");
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    std::atomic<bool> cancel{true};
    auto before = fetcher.fetch(runLocation("5", "", 0), &cancel);
    ASSERT_FALSE(before);
    EXPECT_EQ(before.message(), "cancelled");
    EXPECT_TRUE(m_github.seen().empty());

    cancel = false;
    m_github.rateRemaining = 0;
    m_github.rateReset = nowSeconds() + 30;
    std::thread canceller([&] {
        std::this_thread::sleep_for(200ms);
        cancel = true;
    });
    const auto start = std::chrono::steady_clock::now();
    auto during = fetcher.fetch(runLocation("5", "", 0), &cancel);
    canceller.join();
    ASSERT_FALSE(during);
    EXPECT_EQ(during.message(), "cancelled");
    EXPECT_LT(std::chrono::steady_clock::now() - start, 5s);
}

TEST_F(ArtifactFetcherTest, FetchesAJobLogThroughTheRedirectWithoutTheToken)
{
    m_github.logs["991"] = "2026-07-29T23:58:10.4613408Z ##[group]Run tests\n";
    auto fetcher = fetcherFor(FakeGitHub::kToken);
    auto log = fetcher.fetchJobLog("torch-spyre", "torch-spyre", "991");
    ASSERT_TRUE(log) << log.message();
    ASSERT_EQ(log->status, FetchStatus::Fetched) << log->message;
    EXPECT_EQ(readFile(log->file.path), m_github.logs["991"]);
    EXPECT_EQ(log->file.name, "job-991.log");
    for (const auto& seen : m_github.seen()) {
        if (seen.path.starts_with("/blob/")) {
            EXPECT_EQ(seen.authorization, "");
        }
    }
    auto again = fetcher.fetchJobLog("torch-spyre", "torch-spyre", "991");
    ASSERT_TRUE(again);
    EXPECT_TRUE(again->file.fromCache);
    auto gone = fetcher.fetchJobLog("torch-spyre", "torch-spyre", "992");
    ASSERT_TRUE(gone) << gone.message();
    EXPECT_EQ(gone->status, FetchStatus::Expired);
    auto bad = fetcher.fetchJobLog("torch-spyre", "torch-spyre", "../../etc");
    EXPECT_FALSE(bad);
}

// ---- HTTPS files --------------------------------------------------------------

TEST_F(ArtifactFetcherTest, HttpsFilesAreConditionalAndA404IsExpired)
{
    const std::string gz = archiveOf({{"report.xml", junitXml(2, 0)}}, true);
    test::ScriptedServer server;
    server.http().Get("/files/report.tar.gz",
                      [&](const httplib::Request& req, httplib::Response& res) {
                          res.set_header("ETag", "\"abc\"");
                          if (req.get_header_value("If-None-Match") == "\"abc\"") {
                              res.status = 304;
                              return;
                          }
                          res.set_content(gz, "application/gzip");
                      });
    server.start();
    HttpClient http(fastOptions()); // goes before the server does
    auto fetcher = fetcherFor("", &http);
    auto location = locateArtifacts(server.url("/files/report.tar.gz"), {});
    ASSERT_TRUE(location);
    auto first = fetcher.fetch(*location);
    ASSERT_TRUE(first) << first.message();
    ASSERT_EQ(first->files.size(), 1u);
    EXPECT_EQ(first->files[0].name, "report.tar.gz");
    EXPECT_EQ(readFile(first->files[0].path), gz);
    auto second = fetcher.fetch(*location);
    ASSERT_TRUE(second) << second.message();
    EXPECT_TRUE(second->files[0].fromCache);

    auto missing = fetcher.fetch(*locateArtifacts(server.url("/files/other.xml"), {}));
    ASSERT_TRUE(missing) << missing.message();
    EXPECT_EQ(missing->status, FetchStatus::Expired);
    EXPECT_NE(missing->message.find("HTTP 404"), std::string::npos) << missing->message;
}

TEST_F(ArtifactFetcherTest, AnHttpsStoreThatRefusesSaysWhichSettingReachesIt)
{
    test::ScriptedServer server;
    server.http().Get("/private/report.xml", [](const httplib::Request&, httplib::Response& res) {
        res.status = 403;
        res.set_content("<Error><Code>AccessDenied</Code></Error>", "application/xml");
    });
    server.start();
    HttpClient http(fastOptions());
    auto fetcher = fetcherFor("", &http);
    auto refused = fetcher.fetch(*locateArtifacts(server.url("/private/report.xml"), {}));
    ASSERT_TRUE(refused) << refused.message();
    EXPECT_EQ(refused->status, FetchStatus::Unauthorized);
    EXPECT_NE(refused->message.find("HTTP 403"), std::string::npos) << refused->message;
    EXPECT_NE(refused->message.find("S3 endpoint (Settings > Artifacts)"), std::string::npos)
        << refused->message;
}

TEST_F(ArtifactFetcherTest, AnHttpsDownloadCutShortResumesWithRange)
{
    std::string xml = junitXml(400, 3);
    test::RawHttpServer server([&](const test::RawRequest& request) {
        const std::string range = request.header("range");
        if (range.empty())
            return test::rawResponse(200, "OK", {{"ETag", "\"r1\""}}, xml, xml.size() / 3);
        const auto from = std::stoul(range.substr(6));
        return test::rawResponse(206, "Partial Content",
                                 {{"ETag", "\"r1\""},
                                  {"Content-Range", "bytes " + std::to_string(from) + "-"
                                                        + std::to_string(xml.size() - 1) + "/"
                                                        + std::to_string(xml.size())}},
                                 xml.substr(from));
    });
    auto fetcher = fetcherFor("");
    auto fetched = fetcher.fetch(*locateArtifacts(server.url("/r/report.xml"), {}));
    ASSERT_TRUE(fetched) << fetched.message();
    ASSERT_EQ(fetched->files.size(), 1u);
    EXPECT_EQ(readFile(fetched->files[0].path), xml);
    const auto requests = server.requests();
    ASSERT_EQ(requests.size(), 2u);
    EXPECT_EQ(requests[1].header("range"), "bytes=" + std::to_string(xml.size() / 3) + "-");
}

// ---- Local files ------------------------------------------------------------------

TEST_F(ArtifactFetcherTest, NamesLocalReportsWithoutCopyingThem)
{
    const fs::path folder = m_dir / "reports";
    fs::create_directories(folder / "shard-2");
    std::ofstream(folder / "default.xml") << junitXml(1, 0);
    std::ofstream(folder / "shard-2" / "more.zip") << archiveOf({{"a.xml", junitXml(1, 0)}});
    std::ofstream(folder / "notes.txt") << "not a report";
    fs::create_symlink("/etc", folder / "escape");
    auto fetcher = fetcherFor("");
    auto fetched = fetcher.fetch(*locateArtifacts("file://" + folder.string(), {}));
    ASSERT_TRUE(fetched) << fetched.message();
    ASSERT_EQ(fetched->files.size(), 2u);
    EXPECT_EQ(fetched->files[0].path, (folder / "default.xml").string());
    EXPECT_EQ(fetched->files[1].path, (folder / "shard-2" / "more.zip").string());
    EXPECT_EQ(fetched->files[0].hash, "") << "a local file is named, not copied";
    EXPECT_EQ(fetched->requests, 0);

    auto single = fetcher.fetch(*locateArtifacts((folder / "default.xml").string(), {}));
    ASSERT_TRUE(single);
    EXPECT_EQ(single->files.at(0).name, "default.xml");

    fs::create_directories(m_dir / "empty");
    auto empty = fetcher.fetch(*locateArtifacts((m_dir / "empty").string(), {}));
    ASSERT_TRUE(empty);
    EXPECT_EQ(empty->status, FetchStatus::Empty);
    auto missing = fetcher.fetch(*locateArtifacts((m_dir / "nope").string(), {}));
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.message().find("no such file or folder"), std::string::npos);
}

} // namespace
