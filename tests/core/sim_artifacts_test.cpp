// relayhud-sim's artifact stores over real HTTP on loopback: GitHub's Actions
// API (shapes, auth, rate limits, ETag/304, pagination, redirects to expiring
// signed URLs), the S3 bucket (SigV4 checked against requests that libcurl
// signs with CURLOPT_AWS_SIGV4), plain HTTPS files, Range and faults. What is
// served is compared with SimArtifacts, the generator's ground truth.
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wold-style-cast"
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#include <httplib.h>
#pragma GCC diagnostic pop

#include <archive.h>
#include <archive_entry.h>
#include <curl/curl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>

namespace relayhud::sim {
namespace {

using json = nlohmann::ordered_json;

constexpr EpochSeconds kNow = 1777914000; // 2026-05-04T17:00:00Z
const std::string kSpyre = "torch-spyre/torch-spyre";
const std::string kAscend = "Ascend/pytorch";
const std::string kEmptySha256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

SimDataset makeDataset()
{
    SimConfig config;
    config.seed = 1;
    config.now = kNow;
    return buildDataset(config);
}

using Entries = std::map<std::string, std::string>;

// Reads a zip or tar.gz from memory with libarchive.
Entries unpack(const std::string& bytes)
{
    Entries out;
    archive* a = archive_read_new();
    archive_read_support_format_all(a);
    archive_read_support_filter_all(a);
    EXPECT_EQ(archive_read_open_memory(a, bytes.data(), bytes.size()), ARCHIVE_OK);
    archive_entry* entry = nullptr;
    while (archive_read_next_header(a, &entry) == ARCHIVE_OK) {
        std::string content(static_cast<std::size_t>(archive_entry_size(entry)), '\0');
        archive_read_data(a, content.data(), content.size());
        out[archive_entry_pathname(entry)] = content;
    }
    archive_read_free(a);
    return out;
}

std::string gunzip(const std::string& bytes)
{
    archive* a = archive_read_new();
    archive_read_support_format_raw(a);
    archive_read_support_filter_gzip(a);
    archive_read_open_memory(a, bytes.data(), bytes.size());
    archive_entry* entry = nullptr;
    std::string out;
    if (archive_read_next_header(a, &entry) == ARCHIVE_OK) {
        char buf[65536];
        la_ssize_t n = 0;
        while ((n = archive_read_data(a, buf, sizeof buf)) > 0)
            out.append(buf, static_cast<std::size_t>(n));
    }
    archive_read_free(a);
    return out;
}

std::string xmlValue(const std::string& xml, const std::string& tag)
{
    std::smatch m;
    return std::regex_search(xml, m, std::regex("<" + tag + ">([^<]*)</" + tag + ">")) ? m[1].str()
                                                                                       : "";
}

class SimArtifactsTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_server = new SimServer(makeDataset());
        ASSERT_GT(s_server->start(0), 0);
        s_truth = new SimArtifacts(s_server->dataset());
    }
    static void TearDownTestSuite()
    {
        delete s_truth;
        delete s_server;
    }
    void TearDown() override { s_server->setFaults({}); }

    static const SimDataset& data() { return s_server->dataset(); }

    static httplib::Result get(const std::string& path, httplib::Headers headers = {})
    {
        httplib::Client cli(s_server->baseUrl());
        cli.set_read_timeout(30, 0);
        return cli.Get(path.c_str(), headers);
    }

    static httplib::Headers bearer()
    {
        return {{"Authorization", "Bearer " + s_server->githubToken()}};
    }

    static std::string api(const std::string& repo, const std::string& rest)
    {
        return "/api/v3/repos/" + repo + "/actions/" + rest;
    }

    static json getJson(const std::string& path, httplib::Headers headers = {})
    {
        auto res = get(path, std::move(headers));
        EXPECT_TRUE(res) << path;
        if (!res)
            return json();
        EXPECT_EQ(res->status, 200) << path << ": " << res->body;
        EXPECT_EQ(res->get_header_value("Content-Type"), "application/json; charset=utf-8");
        return json::parse(res->body, nullptr, false);
    }

    // The first row matching `pred`.
    template <class Pred>
    static const SimRow* find(Pred pred)
    {
        for (const SimRow& row : data().rows)
            if (pred(row))
                return &row;
        return nullptr;
    }

    static const SimRow* uploaded(const std::string& repo, bool expired)
    {
        return find([&](const SimRow& r) {
            const bool old = *r.run.reported.completedAt + 7 * 86400 <= kNow;
            return r.run.downstreamRepo == repo && !r.run.reported.artifactUrl.empty()
                   && old == expired;
        });
    }

    // Follows the API's 302 to the signed URL (path and query only).
    static std::string location(const httplib::Result& res)
    {
        const std::string url = res->get_header_value("Location");
        EXPECT_EQ(url.rfind(s_server->baseUrl(), 0), 0U) << url;
        return url.substr(s_server->baseUrl().size());
    }

    static std::int64_t artifactIdOf(const SimRow& row)
    {
        const json list = getJson(
            api(row.run.downstreamRepo, "runs/" + row.run.runId + "/artifacts?per_page=100"));
        for (const auto& a : list["artifacts"])
            if (a["name"].get<std::string>().find("_" + row.run.checkRunId.value)
                != std::string::npos)
                return a["id"].get<std::int64_t>();
        return 0;
    }

    static SimServer* s_server;
    static SimArtifacts* s_truth;
};

SimServer* SimArtifactsTest::s_server = nullptr;
SimArtifacts* SimArtifactsTest::s_truth = nullptr;

// ---------------------------------------------------------------- HUD rows

TEST_F(SimArtifactsTest, ArtifactUrlsNameEachBackendsStore)
{
    std::map<SimStore, int> seen;
    const std::string base = s_server->baseUrl();
    for (const SimRow& row : data().rows) {
        const std::string& url = row.run.reported.artifactUrl;
        const SimStore store = simStoreOf(row.run.downstreamRepo);
        if (url.empty())
            continue;
        ++seen[store];
        const CheckRun& r = row.run;
        switch (store) {
        case SimStore::GitHubArtifacts:
            EXPECT_EQ(url, "https://github.com/" + r.downstreamRepo + "/actions/runs/" + r.runId
                               + "/artifacts");
            break;
        case SimStore::S3Bucket:
            EXPECT_TRUE(std::regex_match(
                url, std::regex(R"(s3://ascend-pytorch-ci/ci-results/\d+/\d/[\w.-]+/)")))
                << url;
            break;
        case SimStore::HttpsReportGz:
            EXPECT_EQ(url.rfind(base + "/files/" + r.downstreamRepo + "/" + r.runId + "/", 0), 0U)
                << url;
            EXPECT_EQ(url.substr(url.size() - 14), "/report.xml.gz");
            break;
        case SimStore::HttpsTarball:
            EXPECT_EQ(url.substr(url.size() - 14), "/report.tar.gz");
            break;
        case SimStore::None: ADD_FAILURE() << r.downstreamRepo << " uploads with no store"; break;
        }
    }
    EXPECT_EQ(seen.size(), 4U);
    for (const auto& [store, count] : seen)
        EXPECT_GT(count, 50) << static_cast<int>(store);
    EXPECT_EQ(simStoreOf("openxla-oot/torch-tpu"), SimStore::None);
}

// ---------------------------------------------------------------- GitHub API

void expectIso(const json& value, bool nullable = false)
{
    if (nullable && value.is_null())
        return;
    ASSERT_TRUE(value.is_string()) << value;
    EXPECT_TRUE(std::regex_match(value.get<std::string>(),
                                 std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")))
        << value;
}

TEST_F(SimArtifactsTest, RunsHaveGitHubsShapeAndPaginateWithLink)
{
    auto res = get(api(kSpyre, "runs?event=repository_dispatch&per_page=5"), bearer());
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200);
    const json doc = json::parse(res->body);
    ASSERT_TRUE(doc["total_count"].is_number_integer());
    ASSERT_EQ(doc["workflow_runs"].size(), 5U);
    const json& run = doc["workflow_runs"][0];
    for (const char* key : {"id", "run_number", "workflow_id", "run_attempt", "check_suite_id"})
        EXPECT_TRUE(run[key].is_number_integer()) << key;
    for (const char* key : {"name", "node_id", "head_branch", "path", "display_title", "event",
                            "status", "url", "html_url", "jobs_url", "logs_url", "artifacts_url"})
        EXPECT_TRUE(run[key].is_string()) << key;
    EXPECT_TRUE(std::regex_match(run["head_sha"].get<std::string>(), std::regex("[0-9a-f]{40}")));
    EXPECT_EQ(run["event"], "repository_dispatch");
    EXPECT_TRUE(run["conclusion"].is_string() || run["conclusion"].is_null());
    EXPECT_TRUE(run["pull_requests"].is_array());
    EXPECT_EQ(run["repository"]["full_name"], kSpyre);
    EXPECT_EQ(run["actor"]["type"], "Bot");
    expectIso(run["created_at"]);
    expectIso(run["run_started_at"]);
    EXPECT_EQ(run["html_url"], "https://github.com/" + kSpyre + "/actions/runs/"
                                   + std::to_string(run["id"].get<std::int64_t>()));
    const std::string link = res->get_header_value("Link");
    EXPECT_NE(link.find("page=2"), std::string::npos) << link;
    EXPECT_NE(link.find("rel=\"next\""), std::string::npos);
    EXPECT_NE(link.find("rel=\"last\""), std::string::npos);
    EXPECT_EQ(link.find("rel=\"prev\""), std::string::npos);
    EXPECT_EQ(link.rfind("<" + s_server->githubApiUrl() + "/repos/" + kSpyre + "/actions/runs?", 0),
              0U)
        << link;
    for (const char* header : {"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset",
                               "X-RateLimit-Used", "X-RateLimit-Resource", "ETag"})
        EXPECT_TRUE(res->has_header(header)) << header;
}

TEST_F(SimArtifactsTest, FollowingNextVisitsEveryDispatchedRunOnce)
{
    std::set<std::string> expected;
    for (const SimRow& row : data().rows)
        if (row.run.downstreamRepo == kSpyre && row.run.eventType != EventType::Nightly)
            expected.insert(row.run.runId);
    std::set<std::string> seen;
    std::string next = api(kSpyre, "runs?event=repository_dispatch&per_page=40");
    int pages = 0;
    while (!next.empty() && pages++ < 50) {
        auto res = get(next, bearer());
        ASSERT_TRUE(res);
        ASSERT_EQ(res->status, 200);
        const json doc = json::parse(res->body);
        EXPECT_EQ(doc["total_count"].get<std::size_t>(), expected.size());
        for (const auto& run : doc["workflow_runs"])
            EXPECT_TRUE(seen.insert(std::to_string(run["id"].get<std::int64_t>())).second);
        std::smatch m;
        const std::string link = res->get_header_value("Link");
        next = std::regex_search(link, m, std::regex("<([^>]+)>; rel=\"next\""))
                   ? m[1].str().substr(s_server->baseUrl().size())
                   : "";
    }
    EXPECT_EQ(seen, expected);
    EXPECT_GT(pages, 2);
}

TEST_F(SimArtifactsTest, AttemptJobsListTheHudRowsOfThatAttempt)
{
    const SimRow* rerun = find([](const SimRow& r) { return r.run.runAttempt == 2; });
    ASSERT_NE(rerun, nullptr);
    const json doc =
        getJson(api(rerun->run.downstreamRepo, "runs/" + rerun->run.runId + "/attempts/2/jobs"));
    bool found = false;
    for (const auto& job : doc["jobs"]) {
        EXPECT_EQ(job["run_attempt"], 2);
        EXPECT_EQ(job["run_id"].get<std::int64_t>(), std::stoll(rerun->run.runId));
        if (std::to_string(job["id"].get<std::int64_t>()) != rerun->run.checkRunId.value)
            continue;
        found = true;
        EXPECT_EQ(job["name"], rerun->run.jobName);
        EXPECT_EQ(job["workflow_name"], rerun->run.workflow);
        ASSERT_FALSE(job["steps"].empty());
        for (const auto& step : job["steps"]) {
            EXPECT_TRUE(step["number"].is_number_integer());
            EXPECT_TRUE(step["name"].is_string());
            expectIso(step["started_at"], true);
        }
        expectIso(job["completed_at"], true);
    }
    EXPECT_TRUE(found);
    EXPECT_EQ(get(api(rerun->run.downstreamRepo, "runs/" + rerun->run.runId + "/attempts/9/jobs"))
                  ->status,
              404);
    EXPECT_EQ(get(api("nobody/nothing", "runs"))->status, 404);
}

TEST_F(SimArtifactsTest, ArtifactsFollowPyTorchsNamingAndRetention)
{
    const SimRow* fresh = uploaded(kSpyre, false);
    const SimRow* old = uploaded(kSpyre, true);
    ASSERT_NE(fresh, nullptr);
    ASSERT_NE(old, nullptr);
    for (const SimRow* row : {fresh, old}) {
        const json doc = getJson(api(kSpyre, "runs/" + row->run.runId + "/artifacts"));
        ASSERT_FALSE(doc["artifacts"].empty());
        bool mine = false;
        for (const auto& a : doc["artifacts"]) {
            const std::string name = a["name"];
            EXPECT_TRUE(std::regex_match(
                name,
                std::regex(
                    R"(test-reports-runattempt\d-test-[a-z_-]+-\d+-\d+-linux\.spyre\.\d_\d+)")))
                << name;
            EXPECT_TRUE(a["size_in_bytes"].get<std::int64_t>() > 100);
            EXPECT_TRUE(a["expired"].is_boolean());
            EXPECT_EQ(a["archive_download_url"], a["url"].get<std::string>() + "/zip");
            EXPECT_EQ(a["digest"].get<std::string>().substr(0, 7), "sha256:");
            expectIso(a["expires_at"]);
            if (name.find("_" + row->run.checkRunId.value) != std::string::npos) {
                mine = true;
                EXPECT_EQ(a["expired"].get<bool>(), row == old);
                EXPECT_EQ(a["workflow_run"]["id"].get<std::int64_t>(), std::stoll(row->run.runId));
            }
        }
        EXPECT_TRUE(mine);
    }
}

TEST_F(SimArtifactsTest, ZipDownloadsNeedTheTokenAndHoldTheReports)
{
    const SimRow* row = uploaded(kSpyre, false);
    const std::int64_t id = artifactIdOf(*row);
    ASSERT_GT(id, 0);
    const std::string zip = api(kSpyre, "artifacts/" + std::to_string(id) + "/zip");
    auto anonymous = get(zip);
    EXPECT_EQ(anonymous->status, 401);
    EXPECT_EQ(json::parse(anonymous->body)["message"], "Requires authentication");
    auto wrong = get(zip, {{"Authorization", "Bearer ghs_wrong"}});
    EXPECT_EQ(wrong->status, 401);
    EXPECT_EQ(json::parse(wrong->body)["message"], "Bad credentials");
    auto redirect = get(zip, {{"Authorization", "token " + s_server->githubToken()}});
    ASSERT_EQ(redirect->status, 302);
    const std::string signedUrl = location(redirect);
    EXPECT_TRUE(std::regex_search(
        signedUrl,
        std::regex(
            R"(^/blob/artifacts/\d+\.zip\?.*X-Amz-Expires=60.*X-Amz-Signature=[0-9a-f]{64})")))
        << signedUrl;
    auto blob = get(signedUrl);
    ASSERT_EQ(blob->status, 200);
    EXPECT_EQ(blob->get_header_value("Content-Type"), "application/zip");
    const Entries entries = unpack(blob->body);
    const auto truth = s_truth->reports(*row);
    ASSERT_EQ(entries.size(), truth.size());
    for (const SimReport& report : truth)
        EXPECT_EQ(entries.at(report.name), report.xml) << report.name;
}

TEST_F(SimArtifactsTest, ExpiredArtifactsAnswer410)
{
    const SimRow* row = uploaded(kSpyre, true);
    const std::int64_t id = artifactIdOf(*row);
    auto res = get(api(kSpyre, "artifacts/" + std::to_string(id) + "/zip"), bearer());
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 410);
    EXPECT_EQ(json::parse(res->body)["message"], "Artifact has expired");
}

TEST_F(SimArtifactsTest, SignedUrlsExpireAndRefuseTheToken)
{
    const SimRow* row = uploaded(kSpyre, false);
    auto redirect =
        get(api(kSpyre, "artifacts/" + std::to_string(artifactIdOf(*row)) + "/zip"), bearer());
    ASSERT_EQ(redirect->status, 302);
    const std::string url = location(redirect);
    auto leaked = get(url, bearer());
    EXPECT_EQ(leaked->status, 400);
    EXPECT_EQ(xmlValue(leaked->body, "Code"), "InvalidArgument");
    std::string tampered = url;
    tampered.back() = tampered.back() == '0' ? '1' : '0';
    EXPECT_EQ(xmlValue(get(tampered)->body, "Code"), "SignatureDoesNotMatch");
    EXPECT_EQ(xmlValue(get(url.substr(0, url.find('?')))->body, "Code"), "AccessDenied");
    s_server->advanceClock(61);
    auto expired = get(url);
    s_server->advanceClock(-61);
    EXPECT_EQ(expired->status, 403);
    EXPECT_EQ(expired->get_header_value("Content-Type"), "application/xml");
    EXPECT_EQ(xmlValue(expired->body, "Code"), "AccessDenied");
    EXPECT_EQ(xmlValue(expired->body, "Message"), "Request has expired");
}

TEST_F(SimArtifactsTest, BlobsAnswerRangesAndConditionalRequests)
{
    const SimRow* row = uploaded(kSpyre, false);
    auto redirect =
        get(api(kSpyre, "artifacts/" + std::to_string(artifactIdOf(*row)) + "/zip"), bearer());
    const std::string url = location(redirect);
    const auto whole = get(url);
    ASSERT_EQ(whole->status, 200);
    const std::string etag = whole->get_header_value("ETag");
    EXPECT_EQ(whole->get_header_value("Accept-Ranges"), "bytes");
    const auto part = get(url, {{"Range", "bytes=100-199"}});
    EXPECT_EQ(part->status, 206);
    EXPECT_EQ(part->body, whole->body.substr(100, 100));
    EXPECT_EQ(part->get_header_value("Content-Range"),
              "bytes 100-199/" + std::to_string(whole->body.size()));
    const auto tail =
        get(url, {{"Range", "bytes=" + std::to_string(whole->body.size() - 10) + "-"}});
    EXPECT_EQ(tail->body, whole->body.substr(whole->body.size() - 10));
    const auto suffix = get(url, {{"Range", "bytes=-5"}});
    EXPECT_EQ(suffix->body, whole->body.substr(whole->body.size() - 5));
    EXPECT_EQ(get(url, {{"Range", "bytes=999999999-"}})->status, 416);
    EXPECT_EQ(get(url, {{"If-None-Match", etag}})->status, 304);
    const auto stale = get(url, {{"Range", "bytes=0-9"}, {"If-Range", "\"other\""}});
    EXPECT_EQ(stale->status, 200) << "If-Range that does not match gets the whole new body";
}

TEST_F(SimArtifactsTest, ApiEtagsGive304sThatCostNoRateLimit)
{
    const std::string path = api(kSpyre, "runs?per_page=3");
    auto first = get(path, bearer());
    const std::string etag = first->get_header_value("ETag");
    auto second = get(
        path, {{"Authorization", "Bearer " + s_server->githubToken()}, {"If-None-Match", etag}});
    EXPECT_EQ(second->status, 304);
    EXPECT_TRUE(second->body.empty());
    EXPECT_EQ(second->get_header_value("X-RateLimit-Remaining"),
              first->get_header_value("X-RateLimit-Remaining"));
    auto third = get(path, bearer());
    EXPECT_EQ(std::stoi(third->get_header_value("X-RateLimit-Remaining")),
              std::stoi(first->get_header_value("X-RateLimit-Remaining")) - 1);
}

TEST_F(SimArtifactsTest, JobLogsRedirectToThePlainTextLog)
{
    const SimRow* row = find([](const SimRow& r) {
        return r.run.reported.conclusion == Conclusion::Failure && r.run.reported.tests;
    });
    ASSERT_NE(row, nullptr);
    const std::string path =
        api(row->run.downstreamRepo, "jobs/" + row->run.checkRunId.value + "/logs");
    EXPECT_EQ(get(path)->status, 401);
    auto redirect = get(path, bearer());
    ASSERT_EQ(redirect->status, 302);
    const std::string url = location(redirect);
    EXPECT_EQ(url.rfind("/blob/logs/" + row->run.checkRunId.value + ".txt?", 0), 0U) << url;
    auto log = get(url);
    ASSERT_EQ(log->status, 200);
    EXPECT_EQ(log->get_header_value("Content-Type"), "text/plain; charset=utf-8");
    EXPECT_EQ(log->body, s_truth->jobLog(*row));
    const json job = getJson(api(row->run.downstreamRepo, "jobs/" + row->run.checkRunId.value));
    EXPECT_EQ(job["conclusion"], "failure");
    const SimRow* running =
        find([](const SimRow& r) { return r.run.reported.status == RunStatus::InProgress; });
    ASSERT_NE(running, nullptr);
    EXPECT_EQ(
        get(api(running->run.downstreamRepo, "jobs/" + running->run.checkRunId.value + "/logs"),
            bearer())
            ->status,
        404);
    EXPECT_TRUE(getJson(api(running->run.downstreamRepo,
                            "jobs/" + running->run.checkRunId.value))["conclusion"]
                    .is_null());
}

TEST_F(SimArtifactsTest, InjectedFaultsReachTheStoreRoutes)
{
    FaultConfig faults;
    faults.errorRate = 1.0;
    s_server->setFaults(faults);
    EXPECT_EQ(get(api(kSpyre, "runs"), bearer())->status, 500);
    EXPECT_EQ(get("/s3/ascend-pytorch-ci?list-type=2")->status, 500);
    faults.errorRate = 0.0;
    faults.tooManyEvery = 1;
    s_server->setFaults(faults);
    auto limited = get(api(kSpyre, "runs"), bearer());
    EXPECT_EQ(limited->status, 429);
    EXPECT_EQ(limited->get_header_value("Retry-After"), "1");
}

TEST(SimArtifactsRateLimit, ExhaustedWindowsAnswer403UntilTheReset)
{
    SimStoreSettings stores;
    stores.githubRateLimit = 3;
    stores.githubAnonymousRateLimit = 1;
    SimServer server(makeDataset(), {}, stores);
    ASSERT_GT(server.start(0), 0);
    httplib::Client cli(server.baseUrl());
    const httplib::Headers token = {{"Authorization", "Bearer " + server.githubToken()}};
    const std::string path = "/api/v3/repos/" + kSpyre + "/actions/runs?per_page=1";
    for (int i = 0; i < 3; ++i)
        EXPECT_EQ(cli.Get(path.c_str(), token)->status, 200);
    auto limited = cli.Get(path.c_str(), token);
    EXPECT_EQ(limited->status, 403);
    EXPECT_EQ(limited->get_header_value("X-RateLimit-Remaining"), "0");
    EXPECT_NE(
        json::parse(limited->body)["message"].get<std::string>().find("API rate limit exceeded"),
        std::string::npos);
    EXPECT_EQ(cli.Get(path.c_str())->status, 200) << "the anonymous window is separate";
    EXPECT_EQ(cli.Get(path.c_str())->status, 403);
    const auto reset = std::stoll(limited->get_header_value("X-RateLimit-Reset"));
    EXPECT_GT(reset, 0);
    server.advanceClock(3601);
    EXPECT_EQ(cli.Get(path.c_str(), token)->status, 200);
}

// ---------------------------------------------------------------- S3

struct CurlAnswer {
    long status = 0;
    std::string body;
};

size_t appendBody(char* data, size_t size, size_t count, void* out)
{
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
}

// A GET signed by libcurl's own SigV4 (what the fetcher uses). S3 wants the
// payload hash header; libcurl 7.88 signs whatever value it is given.
CurlAnswer s3Get(const std::string& url, const std::string& keyId, const std::string& secret,
                 bool sign = true, bool payloadHeader = true)
{
    CURL* curl = curl_easy_init();
    CurlAnswer out;
    curl_slist* headers = nullptr;
    if (payloadHeader)
        headers = curl_slist_append(headers, ("x-amz-content-sha256: " + kEmptySha256).c_str());
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    if (sign) {
        curl_easy_setopt(curl, CURLOPT_AWS_SIGV4, "aws:amz:us-east-1:s3");
        curl_easy_setopt(curl, CURLOPT_USERPWD, (keyId + ":" + secret).c_str());
    }
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, appendBody);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &out.body);
    EXPECT_EQ(curl_easy_perform(curl), CURLE_OK);
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out.status);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return out;
}

std::vector<std::string> keysOf(const std::string& xml)
{
    std::vector<std::string> out;
    const std::regex key("<Key>([^<]*)</Key>");
    for (auto it = std::sregex_iterator(xml.begin(), xml.end(), key); it != std::sregex_iterator();
         ++it)
        out.push_back((*it)[1].str());
    return out;
}

TEST_F(SimArtifactsTest, BucketListsAndServesWithLibcurlsSigV4)
{
    const SimRow* row = find([](const SimRow& r) {
        return r.run.downstreamRepo == kAscend && !r.run.reported.artifactUrl.empty();
    });
    ASSERT_NE(row, nullptr);
    const std::string prefix =
        row->run.reported.artifactUrl.substr(std::string("s3://ascend-pytorch-ci/").size());
    const std::string& id = s_server->s3AccessKeyId();
    const std::string& secret = s_server->s3SecretAccessKey();
    // libcurl 7.88 signs the query as written, so it is written canonically:
    // sorted by name, RFC 3986 encoded ('/' as %2F).
    std::string encoded;
    for (char c : prefix)
        encoded += c == '/' ? std::string("%2F") : std::string(1, c);
    const std::string bucket = s_server->s3Endpoint() + "/ascend-pytorch-ci";
    const CurlAnswer list = s3Get(bucket + "?list-type=2&prefix=" + encoded, id, secret);
    ASSERT_EQ(list.status, 200) << list.body;
    EXPECT_NE(
        list.body.find("<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"),
        std::string::npos);
    const auto keys = keysOf(list.body);
    const auto truth = s_truth->reports(*row);
    ASSERT_EQ(keys.size(), truth.size());
    ASSERT_EQ(truth.size(), 2U) << "Ascend splits a job's cases over two reports";
    EXPECT_EQ(xmlValue(list.body, "KeyCount"), "2");
    for (std::size_t i = 0; i < keys.size(); ++i) {
        EXPECT_EQ(keys[i], prefix + truth[i].name);
        const CurlAnswer object = s3Get(bucket + "/" + keys[i], id, secret);
        EXPECT_EQ(object.status, 200);
        EXPECT_EQ(object.body, truth[i].xml);
    }
    EXPECT_EQ(xmlValue(s3Get(bucket + "/" + prefix + "missing.xml", id, secret).body, "Code"),
              "NoSuchKey");
    EXPECT_EQ(xmlValue(s3Get(s_server->s3Endpoint() + "/other-bucket?list-type=2", id, secret).body,
                       "Code"),
              "NoSuchBucket");
}

TEST_F(SimArtifactsTest, BucketRejectsBadSignaturesWithS3Errors)
{
    const std::string url = s_server->s3Endpoint() + "/ascend-pytorch-ci?list-type=2&max-keys=1";
    const std::string& id = s_server->s3AccessKeyId();
    const CurlAnswer wrongSecret = s3Get(url, id, "not-the-secret");
    EXPECT_EQ(wrongSecret.status, 403);
    EXPECT_EQ(xmlValue(wrongSecret.body, "Code"), "SignatureDoesNotMatch");
    EXPECT_NE(wrongSecret.body.find("<CanonicalRequest>"), std::string::npos);
    const CurlAnswer unknownKey = s3Get(url, "AKIDUNKNOWN", "whatever");
    EXPECT_EQ(unknownKey.status, 403);
    EXPECT_EQ(xmlValue(unknownKey.body, "Code"), "InvalidAccessKeyId");
    const CurlAnswer unsignedRequest = s3Get(url, id, "", false);
    EXPECT_EQ(unsignedRequest.status, 403);
    EXPECT_EQ(xmlValue(unsignedRequest.body, "Code"), "AccessDenied");
    const CurlAnswer noPayloadHash = s3Get(url, id, s_server->s3SecretAccessKey(), true, false);
    EXPECT_EQ(noPayloadHash.status, 400);
    EXPECT_EQ(xmlValue(noPayloadHash.body, "Code"), "InvalidRequest");
    // Unsorted query: libcurl signs it verbatim, S3 canonicalizes: no match.
    const CurlAnswer unsorted =
        s3Get(s_server->s3Endpoint() + "/ascend-pytorch-ci?max-keys=1&list-type=2", id,
              s_server->s3SecretAccessKey());
    EXPECT_EQ(xmlValue(unsorted.body, "Code"), "SignatureDoesNotMatch");
}

TEST_F(SimArtifactsTest, BucketListingsPageWithContinuationTokensAndRollUpPrefixes)
{
    const std::string& id = s_server->s3AccessKeyId();
    const std::string& secret = s_server->s3SecretAccessKey();
    const std::string bucket = s_server->s3Endpoint() + "/ascend-pytorch-ci";
    const CurlAnswer first =
        s3Get(bucket + "?list-type=2&max-keys=3&prefix=ci-results%2F", id, secret);
    ASSERT_EQ(first.status, 200) << first.body;
    EXPECT_EQ(xmlValue(first.body, "IsTruncated"), "true");
    const std::string token = xmlValue(first.body, "NextContinuationToken");
    ASSERT_FALSE(token.empty());
    const CurlAnswer second = s3Get(bucket + "?continuation-token=" + token
                                        + "&list-type=2&max-keys=3&prefix=ci-results%2F",
                                    id, secret);
    ASSERT_EQ(second.status, 200) << second.body;
    const auto a = keysOf(first.body);
    const auto b = keysOf(second.body);
    ASSERT_EQ(a.size(), 3U);
    ASSERT_FALSE(b.empty());
    EXPECT_LT(a.back(), b.front());
    const CurlAnswer rolled =
        s3Get(bucket + "?delimiter=%2F&list-type=2&prefix=ci-results%2F", id, secret);
    ASSERT_EQ(rolled.status, 200) << rolled.body;
    EXPECT_TRUE(keysOf(rolled.body).empty());
    EXPECT_NE(rolled.body.find("<CommonPrefixes><Prefix>ci-results/"), std::string::npos);
    EXPECT_EQ(
        xmlValue(s3Get(bucket + "?continuation-token=zz&list-type=2", id, secret).body, "Code"),
        "InvalidArgument");
}

// ---------------------------------------------------------------- HTTPS files

TEST_F(SimArtifactsTest, HttpsFilesServeGzippedReportsAndTarballs)
{
    const std::string base = s_server->baseUrl();
    for (const std::string repo : {"intel/torch-xpu-ops", "openmlu/torch-mlu"}) {
        const SimRow* row = find([&](const SimRow& r) {
            return r.run.downstreamRepo == repo && !r.run.reported.artifactUrl.empty();
        });
        ASSERT_NE(row, nullptr) << repo;
        const std::string path = row->run.reported.artifactUrl.substr(base.size());
        auto res = get(path);
        ASSERT_EQ(res->status, 200) << path;
        EXPECT_EQ(res->get_header_value("Content-Type"), "application/gzip");
        const auto truth = s_truth->reports(*row);
        ASSERT_EQ(truth.size(), 1U);
        if (repo == "intel/torch-xpu-ops") {
            EXPECT_EQ(gunzip(res->body), truth.front().xml);
        } else {
            const Entries entries = unpack(res->body);
            ASSERT_EQ(entries.size(), 1U);
            EXPECT_EQ(entries.at("test-reports/" + truth.front().name), truth.front().xml);
        }
        EXPECT_EQ(get(path, {{"Range", "bytes=0-1"}})->body, res->body.substr(0, 2));
        EXPECT_EQ(get(path, {{"If-None-Match", res->get_header_value("ETag")}})->status, 304);
        EXPECT_EQ(get(path)->body, res->body) << "served bytes are stable";
    }
    auto missing = get("/files/intel/torch-xpu-ops/1/1/nothing/report.xml.gz");
    EXPECT_EQ(missing->status, 404);
    EXPECT_EQ(missing->get_header_value("Content-Type"), "text/html");
}

} // namespace
} // namespace relayhud::sim
