// relayhud-sim's GitHub Actions API over real HTTP on loopback: shapes, auth,
// rate limits, ETag/304, pagination, redirects to expiring signed URLs, Range
// and faults. What is served is compared with SimArtifacts, the generator's
// ground truth. The bucket and HTTPS files: sim_bucket_test.cpp.
#include "sim_store_fixture.h"

namespace relayhud::sim {
namespace {

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
    // Log storage serves the stored bytes, whatever the client accepts.
    auto log = get(url, {{"Accept-Encoding", "br, gzip, deflate"}});
    ASSERT_EQ(log->status, 200);
    EXPECT_EQ(log->get_header_value("Content-Type"), "text/plain; charset=utf-8");
    EXPECT_FALSE(log->has_header("Content-Encoding")) << log->get_header_value("Content-Encoding");
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

} // namespace
} // namespace relayhud::sim
