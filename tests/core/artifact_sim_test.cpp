// Every artifact store through relayhud-sim's in-process server, with the
// artifacts of real dataset rows: GitHub Actions artifacts and job logs
// (redirects to signed blob URLs that refuse a forwarded token), the SigV4
// S3 bucket, and plain HTTPS report files; compared with the simulator's own
// ground truth (SimArtifacts).
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/verdict/verdict.h"

#include "test_files.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <fstream>
#include <functional>

namespace {

using relayhud::test::readFile;

using namespace relayhud;
using namespace relayhud::sim;
namespace fs = std::filesystem;

JunitTotals truthTotals(const std::vector<SimReport>& reports)
{
    JunitTotals totals;
    for (const auto& r : reports) {
        totals.tests += static_cast<std::size_t>(r.tests);
        totals.failures += static_cast<std::size_t>(r.failures);
        totals.errors += static_cast<std::size_t>(r.errors);
        totals.skipped += static_cast<std::size_t>(r.skipped);
    }
    return totals;
}

class ArtifactSimTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        std::signal(SIGPIPE, SIG_IGN);
        ::setenv("no_proxy", "127.0.0.1,localhost", 1);
        ::setenv("NO_PROXY", "127.0.0.1,localhost", 1);
        s_server = new SimServer(buildDataset(SimConfig{}));
        ASSERT_GT(s_server->start(0), 0);
        s_truth = new SimArtifacts(s_server->dataset());
    }
    static void TearDownTestSuite()
    {
        delete s_truth;
        delete s_server;
    }
    void SetUp() override
    {
        m_scratch.emplace("artifact-sim");
        m_cache = relayhud::testing::openCacheOk(m_scratch->file("cache.sqlite"));
        auto blobs = ContentCache::open(m_scratch->file("blobs"));
        ASSERT_TRUE(blobs) << blobs.message();
        m_blobs.emplace(std::move(*blobs));
    }

    static ArtifactSettings settingsFor(const SimServer& server)
    {
        ArtifactSettings settings;
        settings.githubApiUrl = server.githubApiUrl();
        settings.s3Endpoint = server.s3Endpoint();
        settings.s3Region = server.storeSettings().s3Region;
        return settings;
    }
    static Credentials goodKeys(const SimServer& server)
    {
        Credentials credentials;
        credentials.githubToken = server.githubToken();
        credentials.s3AccessKeyId = server.s3AccessKeyId();
        credentials.s3SecretAccessKey = server.s3SecretAccessKey();
        return credentials;
    }
    ArtifactFetcher fetcher(const Credentials& credentials, const SimServer& server = *s_server)
    {
        return ArtifactFetcher(m_http, *m_blobs, settingsFor(server), credentials);
    }

    // The newest finished row of that store with reports, matching `extra`.
    static const SimRow& findRow(SimStore store,
                                 const std::function<bool(const SimRow&)>& extra = {})
    {
        const auto& rows = s_server->dataset().rows;
        for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
            // Push rows (pr_number 0, the delivery GUID as SHA) no HUD query serves.
            if (it->run.reported.status == RunStatus::Completed && it->eventTypeText != "push"
                && !it->run.reported.artifactUrl.empty() && s_truth->storeOf(*it) == store
                && (!extra || extra(*it)) && !s_truth->reports(*it).empty())
                return *it;
        }
        ADD_FAILURE() << "no row for the store";
        return rows.front();
    }
    static bool recent(const SimRow& row)
    {
        return row.run.reported.completedAt.value_or(0)
               > s_server->dataset().config.now - 3 * 86'400;
    }
    CheckRunRow addToCache(const SimRow& row)
    {
        const auto& commits = s_server->dataset().commits;
        const auto commit = std::find_if(commits.begin(), commits.end(), [&](const auto& c) {
            return c.sha == row.run.upstreamSha;
        });
        EXPECT_NE(commit, commits.end());
        EXPECT_TRUE(RunStore(*m_cache).apply(SyncBatch{{}, {*commit}, {row.run}, {}}));
        auto id = RunStore(*m_cache).checkRunRowFor(row.run.checkRunId);
        return id && *id ? **id : CheckRunRow{};
    }
    static ArtifactLocation locationOf(const SimRow& row)
    {
        auto location = locateArtifacts(row.run.reported.artifactUrl, settingsFor(*s_server));
        EXPECT_TRUE(location) << location.message();
        if (!location)
            return {};
        location->jobId = row.run.checkRunId.value;
        location->runAttempt = row.run.runAttempt;
        return *location;
    }

    static SimServer* s_server;
    static SimArtifacts* s_truth;
    std::optional<relayhud::testing::ScratchDir> m_scratch;
    relayhud::testing::TestCache m_cache;
    std::optional<ContentCache> m_blobs;
    HttpClient m_http;
};

SimServer* ArtifactSimTest::s_server = nullptr;
SimArtifacts* ArtifactSimTest::s_truth = nullptr;

TEST_F(ArtifactSimTest, EveryStoreTypeStoresTheReportsOfARealRun)
{
    auto keys = fetcher(goodKeys(*s_server));
    ArtifactSync sync(*m_cache, keys, settingsFor(*s_server));
    for (const SimStore store : {SimStore::GitHubArtifacts, SimStore::S3Bucket,
                                 SimStore::HttpsReportGz, SimStore::HttpsTarball}) {
        const SimRow& row = findRow(store, recent);
        SCOPED_TRACE(row.run.downstreamRepo + " " + row.run.reported.artifactUrl);
        auto info = sync.fetchRun(addToCache(row));
        ASSERT_TRUE(info) << info.message();
        ASSERT_EQ(info->state, TestRunState::Stored) << info->message;
        const JunitTotals truth = truthTotals(s_truth->reports(row));
        EXPECT_EQ(info->totals.declared, truth);
        EXPECT_EQ(info->totals.counted, truth);
        EXPECT_EQ(info->totals.reports, static_cast<std::int64_t>(s_truth->reports(row).size()));
    }
}

TEST_F(ArtifactSimTest, TheBlobUrlsNeverSeeTheTokenAndJobLogsMatch)
{
    // The simulator's blob route refuses any Authorization header (as S3
    // does), so a fetched artifact and log prove the token stayed behind.
    const SimRow& row = findRow(SimStore::GitHubArtifacts, recent);
    auto keys = fetcher(goodKeys(*s_server));
    auto fetched = keys.fetch(locationOf(row));
    ASSERT_TRUE(fetched) << fetched.message();
    ASSERT_EQ(fetched->status, FetchStatus::Fetched) << fetched->message;
    ASSERT_EQ(fetched->files.size(), 1u);
    EXPECT_EQ(fetched->files[0].name, s_truth->artifactName(row) + ".zip");
    const auto slash = row.run.downstreamRepo.find('/');
    auto log = keys.fetchJobLog(row.run.downstreamRepo.substr(0, slash),
                                row.run.downstreamRepo.substr(slash + 1), row.run.checkRunId.value);
    ASSERT_TRUE(log) << log.message();
    ASSERT_EQ(log->status, FetchStatus::Fetched) << log->message;
    EXPECT_EQ(readFile(log->file.path), s_truth->jobLog(row));
    EXPECT_GE(keys.rateLimit().remaining, 0) << "the API's rate-limit headers were read";
}

TEST_F(ArtifactSimTest, ArtifactsPastTheirRetentionAreExpired)
{
    const SimRow& old = findRow(SimStore::GitHubArtifacts, [](const SimRow& r) {
        return r.run.reported.completedAt.value_or(0)
               < s_server->dataset().config.now - 8 * 86'400; // torch-spyre keeps 7 days
    });
    auto keys = fetcher(goodKeys(*s_server));
    auto fetched = keys.fetch(locationOf(old));
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Expired);
    EXPECT_EQ(fetched->message.find('\n'), std::string::npos);
    EXPECT_NE(fetched->message.find("expired"), std::string::npos) << fetched->message;
}

TEST_F(ArtifactSimTest, AMissingOrWrongTokenNamesTheSettingAndNeverTheToken)
{
    const SimRow& row = findRow(SimStore::GitHubArtifacts, recent);
    auto none = fetcher({}).fetch(locationOf(row));
    ASSERT_TRUE(none) << none.message();
    EXPECT_EQ(none->status, FetchStatus::Unauthorized);
    EXPECT_NE(none->message.find("GitHub token missing: set it in Settings > Artifacts"),
              std::string::npos)
        << none->message;

    Credentials wrong;
    wrong.githubToken = "ghs_notTheSimulatorsToken000000000000";
    auto refused = fetcher(wrong).fetch(locationOf(row));
    ASSERT_TRUE(refused) << refused.message();
    EXPECT_EQ(refused->status, FetchStatus::Unauthorized);
    EXPECT_NE(refused->message.find("GITHUB_TOKEN"), std::string::npos) << refused->message;
    EXPECT_EQ(refused->message.find(wrong.githubToken), std::string::npos);
    EXPECT_EQ(refused->message.find(s_server->githubToken()), std::string::npos);
}

TEST_F(ArtifactSimTest, S3ListsThePrefixAndRefusesBadKeys)
{
    const SimRow& row = findRow(SimStore::S3Bucket, recent);
    auto good = fetcher(goodKeys(*s_server)).fetch(locationOf(row));
    ASSERT_TRUE(good) << good.message();
    ASSERT_EQ(good->status, FetchStatus::Fetched) << good->message;
    EXPECT_EQ(good->files.size(), s_truth->reports(row).size());

    struct BadKeys {
        std::string id;
        std::string secret;
        const char* says;
    };
    const BadKeys cases[] = {
        {s_server->s3AccessKeyId(), "not/the/secret", "SignatureDoesNotMatch"},
        {"AKIDUNKNOWN000000000", s_server->s3SecretAccessKey(), "InvalidAccessKeyId"},
        {"", "", "S3 keys missing"},
    };
    for (const auto& c : cases) {
        Credentials keys;
        keys.s3AccessKeyId = c.id;
        keys.s3SecretAccessKey = c.secret;
        auto refused = fetcher(keys).fetch(locationOf(row));
        ASSERT_TRUE(refused) << refused.message();
        EXPECT_EQ(refused->status, FetchStatus::Unauthorized) << c.says;
        EXPECT_NE(refused->message.find(c.says), std::string::npos) << refused->message;
        EXPECT_NE(refused->message.find("AWS_ACCESS_KEY_ID"), std::string::npos);
        if (!c.secret.empty()) {
            EXPECT_EQ(refused->message.find(c.secret), std::string::npos) << refused->message;
        }
    }
}

TEST_F(ArtifactSimTest, UnchangedArtifactsAreReusedWithoutDownloading)
{
    auto keys = fetcher(goodKeys(*s_server));
    for (const SimStore store :
         {SimStore::GitHubArtifacts, SimStore::S3Bucket, SimStore::HttpsReportGz}) {
        const SimRow& row = findRow(store, recent);
        SCOPED_TRACE(row.run.reported.artifactUrl);
        auto first = keys.fetch(locationOf(row));
        ASSERT_TRUE(first) << first.message();
        auto second = keys.fetch(locationOf(row));
        ASSERT_TRUE(second) << second.message();
        ASSERT_EQ(second->files.size(), first->files.size());
        for (const auto& file : second->files)
            EXPECT_TRUE(file.fromCache) << file.name;
        EXPECT_EQ(second->requests, 1) << "one listing or one conditional GET";
    }
}

// A listing cut on the way keeps the full answer's headers, its ETag too (as
// a cutting proxy does). Kept, it would bring a 304 for the broken page on
// every later ask: the run would stay "not an artifact list" for good.
TEST_F(ArtifactSimTest, ACutArtifactListIsAskedForWholeAgainNotRevalidated)
{
    auto keys = fetcher(goodKeys(*s_server));
    const SimRow& row = findRow(SimStore::GitHubArtifacts, recent);
    FaultConfig faults;
    faults.truncateRate = 1.0;
    s_server->setFaults(faults);
    auto cut = keys.fetch(locationOf(row));
    s_server->setFaults(FaultConfig{});
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.message().find("is not an artifact list (cut in transit?)"), std::string::npos)
        << cut.message();

    auto healthy = keys.fetch(locationOf(row));
    ASSERT_TRUE(healthy) << healthy.message();
    EXPECT_EQ(healthy->status, FetchStatus::Fetched) << healthy->message;
    EXPECT_FALSE(healthy->files.empty());
}

// A cut page kept by an earlier version is forgotten and asked for whole,
// not revalidated.
TEST_F(ArtifactSimTest, AKeptListingThatNoLongerParsesIsAskedForWhole)
{
    auto keys = fetcher(goodKeys(*s_server));
    const SimRow& row = findRow(SimStore::GitHubArtifacts, recent);
    const ArtifactLocation location = locationOf(row);
    auto first = keys.fetch(location);
    ASSERT_TRUE(first) << first.message();
    const std::string listing = s_server->githubApiUrl() + "/repos/" + location.owner + "/"
                                + location.repo + "/actions/runs/" + location.runId
                                + "/artifacts?per_page=100&page=1";
    const auto record = m_blobs->lookupUrl(listing);
    ASSERT_TRUE(record) << "the listing was kept under " << listing;
    const auto path = m_blobs->path(record->hash);
    ASSERT_TRUE(path);
    const std::string whole = readFile(*path);
    // As an older RelayHUD kept a cut body: its own blob, the full answer's ETag.
    auto cut = m_blobs->put(whole.substr(0, whole.size() / 2));
    ASSERT_TRUE(cut) << cut.message();
    ASSERT_TRUE(m_blobs->recordUrl(listing, UrlRecord{*cut, record->etag, {}}));

    auto again = keys.fetch(location);
    ASSERT_TRUE(again) << again.message();
    EXPECT_EQ(again->status, FetchStatus::Fetched) << again->message;
    EXPECT_EQ(again->files.size(), first->files.size());
    const auto kept = m_blobs->lookupUrl(listing);
    ASSERT_TRUE(kept);
    EXPECT_EQ(readFile(*m_blobs->path(kept->hash)), whole);
}

// A report download cut on the way (a cutting proxy keeps the full answer's
// ETag and frames the cut body) is a transient failure: its blob goes, and
// the next fetch downloads it whole instead of revalidating the cut bytes.
TEST_F(ArtifactSimTest, ACutReportDownloadIsFetchedAgainNotKept)
{
    const SimRow& row = findRow(SimStore::HttpsReportGz, recent);
    const CheckRunRow checkRunRow = addToCache(row);
    auto keys = fetcher(goodKeys(*s_server));
    ArtifactSync sync(*m_cache, keys, settingsFor(*s_server));
    FaultConfig faults;
    faults.truncateRate = 1.0;
    s_server->setFaults(faults);
    auto cut = sync.fetchRun(checkRunRow);
    s_server->setFaults(FaultConfig{});
    ASSERT_TRUE(cut) << cut.message();
    EXPECT_EQ(cut->state, TestRunState::Failed) << cut->message;
    EXPECT_TRUE(cut->message.starts_with(kBrokeOffMessage)) << cut->message;

    auto whole = sync.fetchRun(checkRunRow);
    ASSERT_TRUE(whole) << whole.message();
    ASSERT_EQ(whole->state, TestRunState::Stored) << whole->message;
    EXPECT_EQ(whole->totals.counted, truthTotals(s_truth->reports(row)));
    EXPECT_EQ(partialWarning(*whole), nullptr);
}

// An S3 object cut on the way and framed again (as a cutting proxy does)
// passes HTTP's own checks; its size against the listing's catches it, and
// its blob goes, so the next pass downloads it whole.
TEST_F(ArtifactSimTest, ACutS3ObjectIsCaughtByItsListedSizeAndDropped)
{
    auto keys = fetcher(goodKeys(*s_server));
    const SimRow& row = findRow(SimStore::S3Bucket, recent);
    FaultConfig faults;
    faults.truncateRate = 0.5; // the listing must come whole, an object cut
    Result<ArtifactFetch> cut = makeError("not asked yet");
    for (int i = 0; i < 64; ++i) {
        faults.seed = static_cast<std::uint64_t>(i) + 1;
        s_server->setFaults(faults);
        cut = keys.fetch(locationOf(row));
        if (!cut && cut.message().find("the listing says") != std::string::npos)
            break;
        // Came whole: its objects are kept now and would not be asked for
        // again. (The faults a seed draws depend on how many requests the
        // server has answered, so on the tests run before this one.)
        const ArtifactLocation at = locationOf(row);
        if (cut)
            for (const FetchedFile& file : cut->files)
                m_blobs->forgetUrl("s3://" + at.bucket + "/" + at.key
                                   + (at.key.ends_with('/') ? "" : "/") + file.name);
    }
    s_server->setFaults(FaultConfig{});
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.message().find("bytes; the listing says"), std::string::npos) << cut.message();
    EXPECT_NE(cut.message().find("(cut in transit?); asked again"), std::string::npos);

    auto whole = keys.fetch(locationOf(row));
    ASSERT_TRUE(whole) << whole.message();
    ASSERT_EQ(whole->status, FetchStatus::Fetched) << whole->message;
    EXPECT_EQ(whole->files.size(), s_truth->reports(row).size());
}

// Asked for by its key alone (no listing, so no size), a cut object is
// caught by its single-part ETag, which is the MD5 of the whole object.
TEST_F(ArtifactSimTest, ACutS3ObjectAskedByKeyIsCaughtByItsMd5Etag)
{
    auto keys = fetcher(goodKeys(*s_server));
    const SimRow& row = findRow(SimStore::S3Bucket, recent);
    auto listed = keys.fetch(locationOf(row));
    ASSERT_TRUE(listed) << listed.message();
    ASSERT_FALSE(listed->files.empty());
    ArtifactLocation one = locationOf(row);
    one.key += (one.key.ends_with('/') ? "" : "/") + listed->files[0].name;
    m_blobs->forgetUrl("s3://" + one.bucket + "/" + one.key);

    FaultConfig faults;
    faults.truncateRate = 1.0;
    s_server->setFaults(faults);
    auto cut = keys.fetch(one);
    s_server->setFaults(FaultConfig{});
    ASSERT_FALSE(cut);
    EXPECT_NE(cut.message().find("its ETag says"), std::string::npos) << cut.message();

    auto whole = keys.fetch(one);
    ASSERT_TRUE(whole) << whole.message();
    ASSERT_EQ(whole->files.size(), 1u);
    EXPECT_EQ(readFile(whole->files[0].path), readFile(listed->files[0].path));
}

// Fault passes, then clean ones: the cache ends exactly where one clean pass
// puts a fresh cache, whatever the faults broke on the way (issue 19).
TEST_F(ArtifactSimTest, AfterFaultPassesCleanPassesReachTheCleanRunsResults)
{
    auto candidates = [&] {
        for (const SimRow& row : s_server->dataset().rows)
            if (row.run.reported.status == RunStatus::Completed
                && !row.run.reported.artifactUrl.empty()
                && row.run.reported.conclusion != Conclusion::Success && recent(row)
                && row.eventTypeText != "push")
                addToCache(row);
    };
    auto keys = fetcher(goodKeys(*s_server));
    ArtifactSyncOptions options;
    options.days = 4;
    options.retryAfterSeconds = -1; // failed and partial fetches of this second too

    candidates();
    FaultConfig faults;
    faults.errorRate = 0.3;
    faults.truncateRate = 0.3;
    faults.htmlErrors = true;
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        faults.seed = seed;
        s_server->setFaults(faults);
        ArtifactSync faulty(*m_cache, keys, settingsFor(*s_server));
        ASSERT_TRUE(faulty.run(options));
    }
    s_server->setFaults(FaultConfig{});
    for (int pass = 0; pass < 3; ++pass) {
        ArtifactSync clean(*m_cache, keys, settingsFor(*s_server));
        auto report = clean.run(options);
        ASSERT_TRUE(report) << report.message();
    }
    auto afterFaults = RunStore(*m_cache).stats();
    ASSERT_TRUE(afterFaults) << afterFaults.message();
    const relayhud::testing::TestCache faulted = std::move(m_cache);

    // One clean pass into a fresh cache, with fresh blobs.
    auto freshBlobs = ContentCache::open(m_scratch->file("fresh-blobs"));
    ASSERT_TRUE(freshBlobs) << freshBlobs.message();
    m_blobs.emplace(std::move(*freshBlobs));
    m_cache = relayhud::testing::openCacheOk(m_scratch->file("fresh.sqlite"));
    candidates();
    auto freshKeys = fetcher(goodKeys(*s_server));
    ArtifactSync once(*m_cache, freshKeys, settingsFor(*s_server));
    auto report = once.run(options);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->failed, 0);
    auto clean = RunStore(*m_cache).stats();
    ASSERT_TRUE(clean) << clean.message();
    EXPECT_GT(clean->testResults, 0);
    EXPECT_EQ(afterFaults->testRuns, clean->testRuns);
    EXPECT_EQ(afterFaults->testResults, clean->testResults);

    // The same failure line for every failed job.
    auto lineOf = [](const Database& cache, const CheckRunId& id) -> std::string {
        auto row = RunStore(cache).checkRunRowFor(id);
        if (!row || !*row)
            return "(no run)";
        auto line = EvidenceStore(cache).jobFailureLine(**row);
        if (!line || !*line)
            return "(no line)";
        const JobFailureLine& l = **line;
        return std::string(jobLineStateName(l.state)) + " " + l.rule + " @" + std::to_string(l.line)
               + ": " + l.text;
    };
    int lines = 0;
    for (const SimRow& row : s_server->dataset().rows) {
        if (row.run.checkRunId.value.empty())
            continue;
        const std::string want = lineOf(*m_cache, row.run.checkRunId);
        if (want == "(no run)")
            continue;
        EXPECT_EQ(lineOf(*faulted, row.run.checkRunId), want) << row.run.checkRunId.value;
        lines += want.starts_with("matched") ? 1 : 0;
    }
    EXPECT_GT(lines, 10);
}

// A report that breaks off on two downloads is the file as the store has
// it: kept as read the second time, marked partial, and a green over it is
// not verified.
TEST_F(ArtifactSimTest, AReportThatBreaksOffTwiceIsKeptAsPartialAndItsGreenIsNotVerified)
{
    const SimRow& source = findRow(SimStore::HttpsReportGz, recent);
    const std::string xml =
        "<testsuite name=\"t\" tests=\"3\" failures=\"0\" errors=\"0\" skipped=\"0\">"
        "<testcase classname=\"test_ops.TestOps\" name=\"test_add\" file=\"test_ops.py\"/>"
        "<testcase classname=\"test_ops.TestOps\" name=\"test_mul\" file=\"test_ops.py\"/>"
        "<testcase classname=\"test_ops.TestOps\" name=\"test_sub\" fi";
    const std::string path = m_scratch->file("report.xml");
    std::ofstream(path, std::ios::binary) << xml;
    SimRow row = source;
    row.run.reported.artifactUrl = "file://" + path;
    row.run.reported.conclusion = Conclusion::Success;
    row.run.reported.tests = TestCounts{3, 3, 0, 0};
    const CheckRunRow checkRunRow = addToCache(row);
    auto keys = fetcher(goodKeys(*s_server));
    ArtifactSync sync(*m_cache, keys, settingsFor(*s_server));

    auto first = sync.fetchRun(checkRunRow);
    ASSERT_TRUE(first) << first.message();
    EXPECT_EQ(first->state, TestRunState::Failed);
    EXPECT_EQ(first->message,
              std::string(kBrokeOffMessage) + " (report.xml); asked again on the next pass");

    auto second = sync.fetchRun(checkRunRow);
    ASSERT_TRUE(second) << second.message();
    ASSERT_EQ(second->state, TestRunState::Stored) << second->message;
    EXPECT_EQ(second->totals.cases(), 2);
    const std::string* partial = partialWarning(*second);
    ASSERT_NE(partial, nullptr);
    EXPECT_EQ(*partial, "partial: report.xml broke off on two downloads; kept what was read");

    auto verdict = verdict::verdictForRun(*m_cache, checkRunRow, {});
    ASSERT_TRUE(verdict) << verdict.message();
    EXPECT_EQ(verdict->verdict, verdict::Verdict::GreenUnverifiable);
    EXPECT_EQ(verdict->shortReason, "artifacts are partial");
}

TEST_F(ArtifactSimTest, AMissingHttpsFileIsExpired)
{
    auto location = locateArtifacts(
        s_server->baseUrl() + "/files/nobody/nothing/1/1/x/report.xml.gz", settingsFor(*s_server));
    ASSERT_TRUE(location);
    auto fetched = fetcher({}).fetch(*location);
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Expired);
    EXPECT_NE(fetched->message.find("HTTP 404"), std::string::npos) << fetched->message;
}

TEST_F(ArtifactSimTest, ASignedUrlThatExpiredBeforeUseIsExpired)
{
    SimStoreSettings stores;
    stores.signedUrlSeconds = -5; // every link is stale on arrival
    SimServer stale(buildDataset(SimConfig{}), {}, stores);
    ASSERT_GT(stale.start(0), 0);
    const SimRow& row = findRow(SimStore::GitHubArtifacts, recent);
    HttpClient http; // goes before the server does
    ArtifactFetcher keys(http, *m_blobs, settingsFor(stale), goodKeys(stale));
    auto fetched = keys.fetch(locationOf(row)); // row ids are the same in both datasets
    ASSERT_TRUE(fetched) << fetched.message();
    EXPECT_EQ(fetched->status, FetchStatus::Expired);
    EXPECT_NE(fetched->message.find("download link"), std::string::npos) << fetched->message;
}

TEST_F(ArtifactSimTest, ASyncPassStoresTheFailedRunsOfTheLastDays)
{
    int added = 0;
    for (const SimRow& row : s_server->dataset().rows)
        if (row.run.reported.status == RunStatus::Completed && !row.run.reported.artifactUrl.empty()
            && row.run.reported.conclusion != Conclusion::Success && recent(row)
            && row.eventTypeText != "push") { // no HUD query serves push rows
            addToCache(row);
            ++added;
        }
    ASSERT_GT(added, 3);
    auto keys = fetcher(goodKeys(*s_server));
    ArtifactSync sync(*m_cache, keys, settingsFor(*s_server));
    ArtifactSyncOptions options;
    options.days = 4;
    const auto start = std::chrono::steady_clock::now();
    auto report = sync.run(options);
    const auto seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->runs, added);
    EXPECT_EQ(report->failed, 0);
    EXPECT_EQ(report->unauthorized, 0);
    EXPECT_GT(report->stored, 0);
    EXPECT_EQ(report->stored + report->empty + report->expired, added);
    for (const auto& line : report->errors)
        ADD_FAILURE() << line;
    std::cout << "[ measured ] " << added << " failed runs, " << report->stored << " stored, "
              << report->cases << " cases in " << seconds << " s (download and import)\n";

    // The same runs into a fresh cache: every artifact is already a blob, so
    // the pass is conditional requests (304s) and imports.
    auto fresh = relayhud::testing::openCacheOk(m_scratch->file("fresh.sqlite"));
    std::swap(m_cache, fresh);
    for (const SimRow& row : s_server->dataset().rows)
        if (row.run.reported.status == RunStatus::Completed && !row.run.reported.artifactUrl.empty()
            && row.run.reported.conclusion != Conclusion::Success && recent(row)
            && row.eventTypeText != "push")
            addToCache(row);
    ArtifactSync again(*m_cache, keys, settingsFor(*s_server));
    const auto restart = std::chrono::steady_clock::now();
    auto cached = again.run(options);
    const auto cachedSeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - restart).count();
    ASSERT_TRUE(cached) << cached.message();
    EXPECT_EQ(cached->stored, report->stored);
    EXPECT_EQ(cached->cases, report->cases);
    std::cout << "[ measured ] the same " << added << " runs from cached blobs: " << cachedSeconds
              << " s\n";
}

} // namespace
