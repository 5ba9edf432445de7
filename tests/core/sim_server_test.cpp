// relayhud-sim's HTTP server, over real HTTP on loopback: the HUD read API's
// shapes and semantics, caching headers, gzip, errors and every fault flag.
// Its command line and the binary itself: sim_cli_test.cpp.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "sim_http_support.h"
#include "test_world.h"

#include "relayhud/sim/httplib_quiet.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <map>
#include <memory>
#include <regex>
#include <set>

namespace relayhud::sim {
namespace {

using json = nlohmann::ordered_json; // keeps keys in the order the server sent them

using relayhud::test::kNow;
using relayhud::test::kSpyre;

class SimServerTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        s_server = new SimServer(makeDataset());
        ASSERT_GT(s_server->start(0), 0);
    }
    static void TearDownTestSuite()
    {
        delete s_server;
        s_server = nullptr;
    }
    void TearDown() override { s_server->setFaults({}); }

    static const SimDataset& data() { return s_server->dataset(); }

    static httplib::Client client()
    {
        httplib::Client cli(s_server->baseUrl());
        cli.set_read_timeout(10, 0);
        return cli;
    }

    static httplib::Result get(const std::string& path, const httplib::Headers& headers = {})
    {
        return client().Get(path.c_str(), headers);
    }

    static json getJson(const std::string& path, int expectedStatus = 200)
    {
        auto res = get(path);
        EXPECT_TRUE(res) << path;
        if (!res)
            return json();
        EXPECT_EQ(res->status, expectedStatus) << path << ": " << res->body;
        EXPECT_EQ(res->get_header_value("Content-Type"), "application/json; charset=utf-8");
        return json::parse(res->body);
    }

    static json dashboardPage(int perPage, int offset, const std::string& repo = kSpyre,
                              int days = 7)
    {
        return getJson(
            query("crcr_backend_dashboard",
                  {{"repo", repo}, {"days", days}, {"per_page", perPage}, {"offset", offset}}));
    }

    static std::string dashboardPath()
    {
        return query("crcr_backend_dashboard",
                     {{"repo", kSpyre}, {"days", 7}, {"per_page", 50}, {"offset", 0}});
    }

    static SimServer* s_server;
};

SimServer* SimServerTest::s_server = nullptr;

// ---------------------------------------------------------------- shapes

TEST_F(SimServerTest, ManyKeptAliveConnectionsDoNotHoldUpANewOne)
{
    // A sync keeps a connection alive per parallel transfer (pages of every
    // backend, the HUD's summaries at once). The real HUD's host serves them
    // all; httplib's default pool of 8 threads held each idle one for its 5 s
    // keep-alive, so the next connection waited 5 s for a thread.
    std::vector<std::unique_ptr<httplib::Client>> idle;
    for (int i = 0; i < 24; ++i) {
        auto kept = std::make_unique<httplib::Client>(s_server->baseUrl());
        kept->set_keep_alive(true);
        auto res = kept->Get("/api/crcr/allowlist");
        ASSERT_TRUE(res) << "connection " << i;
        EXPECT_EQ(res->status, 200);
        idle.push_back(std::move(kept));
    }
    const auto start = std::chrono::steady_clock::now();
    auto res = get("/api/crcr/allowlist");
    const auto waited = std::chrono::steady_clock::now() - start;
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_LT(waited, std::chrono::seconds(2)) << "a new connection waited for a server thread";
}

TEST_F(SimServerTest, AllowlistHasTheHudShape)
{
    const json doc = getJson("/api/crcr/allowlist");
    EXPECT_EQ(keysOf(doc), (std::vector<std::string>{"L1", "L2", "L3", "L4"}));
    std::size_t entries = 0;
    for (const auto& [level, list] : doc.items()) {
        ASSERT_TRUE(list.is_array()) << level;
        EXPECT_FALSE(list.empty()) << level;
        for (const auto& entry : list) {
            EXPECT_EQ(keysOf(entry), (std::vector<std::string>{"repo", "oncalls"}));
            EXPECT_TRUE(entry["repo"].is_string());
            ASSERT_TRUE(entry["oncalls"].is_array());
            for (const auto& oncall : entry["oncalls"])
                EXPECT_TRUE(oncall.is_string());
            ++entries;
        }
    }
    EXPECT_EQ(entries, data().backends.size());
}

void expectDashboardRowTypes(const json& row)
{
    // Microseconds, as the callbacks send them: the last three digits are 0.
    static const std::regex kIso(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}000Z)");
    static const std::vector<std::string> kColumns = {
        "upstream_repo", "pr_number",     "pytorch_head_sha", "workflow_name", "job_name",
        "check_run_id",  "run_id",        "run_attempt",      "status",        "conclusion",
        "started_at",    "completed_at",  "duration_seconds", "total_tests",   "passed_tests",
        "failed_tests",  "skipped_tests", "workflow_run_url", "artifact_url",  "queue_time",
        "execution_time"};
    ASSERT_EQ(keysOf(row), kColumns);
    for (const char* key : {"upstream_repo", "pytorch_head_sha", "workflow_name", "job_name",
                            "check_run_id", "run_id", "status", "conclusion", "started_at",
                            "completed_at", "workflow_run_url", "artifact_url"})
        EXPECT_TRUE(row[key].is_string()) << key;
    for (const char* key : {"pr_number", "run_attempt", "duration_seconds", "total_tests",
                            "passed_tests", "failed_tests", "skipped_tests"})
        EXPECT_TRUE(row[key].is_number()) << key;
    EXPECT_TRUE(row["queue_time"].is_number() || row["queue_time"].is_null());
    EXPECT_TRUE(std::regex_match(row["started_at"].get<std::string>(), kIso));
    EXPECT_TRUE(std::regex_match(row["completed_at"].get<std::string>(), kIso));
    const std::string runUrl = row["workflow_run_url"];
    EXPECT_EQ(runUrl.rfind("https://github.com/", 0), 0U) << runUrl;
    EXPECT_EQ(runUrl,
              "https://github.com/" + kSpyre + "/actions/runs/" + row["run_id"].get<std::string>())
        << "the action never sends /attempts/N";
    const std::string artifacts = row["artifact_url"];
    EXPECT_TRUE(artifacts.empty() || artifacts.size() > std::string("/artifacts").size());
    if (!artifacts.empty()) {
        EXPECT_EQ(artifacts.substr(artifacts.size() - 10), "/artifacts");
    }
    if (row["status"] == "in_progress") {
        EXPECT_EQ(row["conclusion"], "");
        EXPECT_EQ(row["completed_at"], "1970-01-01T00:00:00.000000000Z");
        EXPECT_EQ(row["duration_seconds"], 0);
        EXPECT_TRUE(row["execution_time"].is_null());
    } else {
        EXPECT_EQ(row["status"], "completed");
        EXPECT_NE(row["conclusion"], "");
        EXPECT_TRUE(row["execution_time"].is_number());
    }
}

TEST_F(SimServerTest, DashboardRowsHaveTheClickHouseTypes)
{
    const json rows = dashboardPage(25, 0);
    ASSERT_FALSE(rows.empty());
    std::set<std::string> statuses;
    for (const auto& row : rows) {
        expectDashboardRowTypes(row);
        statuses.insert(row["status"].get<std::string>());
    }
    EXPECT_TRUE(statuses.count("in_progress")) << "the newest PRs are still running";
}

// The set of PR rows of `repo` that the query's WHERE clause selects.
std::set<std::string> expectedCheckRuns(const SimDataset& data, const std::string& repo, int days)
{
    std::set<std::string> out;
    for (const auto& row : data.rows)
        if (row.run.downstreamRepo == repo && row.run.prNumber.value > 0
            && *row.run.reported.startedAt > kNow - days * 86400)
            out.insert(row.run.checkRunId.value);
    return out;
}

TEST_F(SimServerTest, DashboardPagesPartitionThePrsOfTheWindow)
{
    constexpr int kPerPage = 10;
    std::set<std::string> seen;
    std::set<std::int64_t> seenPrs;
    std::string previousPageOldest = "9999";
    for (int offset = 0;; offset += kPerPage) {
        const json rows = dashboardPage(kPerPage, offset);
        if (rows.empty())
            break;
        std::map<std::int64_t, std::string> latestByPr;
        std::string previous = "9999";
        for (const auto& row : rows) {
            const std::string started = row["started_at"];
            EXPECT_LE(started, previous) << "rows are ordered by started_at DESC";
            previous = started;
            EXPECT_TRUE(seen.insert(row["check_run_id"].get<std::string>()).second)
                << "duplicate row";
            auto& latest = latestByPr[row["pr_number"].get<std::int64_t>()];
            latest = std::max(latest, started);
        }
        EXPECT_LE(latestByPr.size(), static_cast<std::size_t>(kPerPage));
        for (const auto& [pr, latest] : latestByPr) {
            EXPECT_TRUE(seenPrs.insert(pr).second) << "PR " << pr << " on two pages";
            EXPECT_LE(latest, previousPageOldest) << "pages follow max(started_at) DESC";
        }
        for (const auto& [pr, latest] : latestByPr)
            previousPageOldest = std::min(previousPageOldest, latest);
        ASSERT_LT(offset, 10000);
    }
    EXPECT_EQ(seen, expectedCheckRuns(data(), kSpyre, 7));
    EXPECT_GT(seenPrs.size(), static_cast<std::size_t>(kPerPage));
}

TEST_F(SimServerTest, DashboardPageHoldsPerPagePrs)
{
    std::set<std::int64_t> prs;
    for (const auto& row : dashboardPage(7, 3))
        prs.insert(row["pr_number"].get<std::int64_t>());
    EXPECT_EQ(prs.size(), 7U);
    EXPECT_TRUE(dashboardPage(5, 100000).empty());
    EXPECT_TRUE(dashboardPage(0, 0).empty());
    EXPECT_TRUE(dashboardPage(5, 0, "rbln-oss/torch-rbln").empty()) << "L1 never reports";
}

TEST_F(SimServerTest, DashboardAcceptsNumbersAsStrings)
{
    const json asText =
        getJson(query("crcr_backend_dashboard",
                      {{"repo", kSpyre}, {"days", "7"}, {"per_page", "5"}, {"offset", "0"}}));
    EXPECT_EQ(asText, dashboardPage(5, 0));
}

TEST_F(SimServerTest, NightlyDashboardKeepsTheLatestAttempts)
{
    const json rows = getJson(query("crcr_nightly_dashboard", {{"repo", kSpyre}, {"days", 7}}));
    ASSERT_FALSE(rows.empty());
    EXPECT_LE(rows.size(), 500U);
    std::set<std::tuple<std::string, std::string, std::string>> keys;
    for (const auto& row : rows) {
        const auto keys0 = keysOf(row);
        EXPECT_EQ(std::count(keys0.begin(), keys0.end(), "pr_number"), 0);
        EXPECT_EQ(keys0.size(), 20U);
        EXPECT_EQ(row["status"], "completed");
        // One completed callback: started_at == completed_at, no relay timings.
        EXPECT_EQ(row["started_at"], row["completed_at"]);
        EXPECT_EQ(row["duration_seconds"], 0);
        EXPECT_TRUE(row["queue_time"].is_null());
        EXPECT_TRUE(row["execution_time"].is_null());
        EXPECT_GT(row["started_at"].get<std::string>(), "2026-04-27T17:00:00") << "7 days";
        const auto inserted =
            keys.insert({"", row["run_id"].get<std::string>(), row["job_name"].get<std::string>()});
        EXPECT_TRUE(inserted.second) << "latest attempt per (run_id, job_name)";
    }
    std::set<std::string> nightlyShas;
    for (const auto& c : data().commits)
        if (c.eventType == EventType::Nightly)
            nightlyShas.insert(c.sha.value);
    for (const auto& row : rows)
        EXPECT_TRUE(nightlyShas.count(row["pytorch_head_sha"].get<std::string>()));
}

TEST_F(SimServerTest, PrResultsListEveryBackendOfThePr)
{
    std::int64_t pr = 0;
    for (const auto& c : data().commits)
        if (c.sha == data().stories.cancelledSha)
            pr = c.prNumber.value;
    ASSERT_GT(pr, 0);
    const json rows = getJson(query("crcr_pr_results", {{"pr", pr}}));
    ASSERT_FALSE(rows.empty());
    EXPECT_LE(rows.size(), 100U);
    const std::vector<std::string> columns = {
        "downstream_repo", "workflow_name", "job_name",   "check_run_id",     "run_id",
        "run_attempt",     "status",        "conclusion", "duration_seconds", "workflow_run_url",
        "artifact_url",    "started_at",    "queue_time", "execution_time"};
    std::pair<std::string, std::string> previous{"", "9999"};
    for (const auto& row : rows) {
        EXPECT_EQ(keysOf(row), columns);
        const std::pair<std::string, std::string> key{row["downstream_repo"], row["started_at"]};
        if (key.first == previous.first) {
            EXPECT_LE(key.second, previous.second);
        } else {
            EXPECT_GT(key.first, previous.first);
        }
        previous = key;
    }
    // ORDER BY downstream_repo ... LIMIT 100: the first repos alphabetically
    // may take all 100 rows (a real limitation, specs/hud-read-api.md R20).
    std::size_t all = 0;
    std::string lastRepo;
    for (const auto& row : data().rows)
        all += row.run.prNumber.value == pr ? 1 : 0;
    EXPECT_EQ(rows.size(), std::min<std::size_t>(all, 100));
    std::set<std::string> repos;
    for (const auto& row : data().rows)
        if (row.run.prNumber.value == pr)
            repos.insert(row.run.downstreamRepo);
    EXPECT_EQ(rows.front()["downstream_repo"], *repos.begin());
    EXPECT_TRUE(repos.count(data().stories.cancelledBackend));
    EXPECT_EQ(getJson(query("crcr_pr_results", {{"pr", 0}})), json::array())
        << "AND pr_number > 0: nightly and push rows never show";
}

// GitHub's `GET /repos/{owner}/{repo}/pulls/{pull_number}`
// (https://docs.github.com/rest/pulls/pulls#get-a-pull-request).
TEST_F(SimServerTest, PullRequestHasGitHubsShapeAndItsFate)
{
    const SimStories& s = data().stories;
    ASSERT_GT(s.culpritPr.value, 0);
    const std::string path =
        "/api/v3/repos/pytorch/pytorch/pulls/" + std::to_string(s.culpritPr.value);
    auto res = get(path);
    ASSERT_TRUE(res);
    ASSERT_EQ(res->status, 200) << res->body;
    const json pr = json::parse(res->body);
    const SimPullRequest* truth = nullptr;
    for (const SimPullRequest& p : data().pulls)
        if (p.number == s.culpritPr)
            truth = &p;
    ASSERT_NE(truth, nullptr);
    for (const char* key :
         {"url", "id", "html_url", "number", "state", "title", "user", "created_at", "updated_at",
          "closed_at", "merged_at", "merge_commit_sha", "head", "base", "merged"})
        EXPECT_TRUE(pr.contains(key)) << key;
    EXPECT_EQ(pr["url"], s_server->githubApiUrl() + "/repos/pytorch/pytorch/pulls/"
                             + std::to_string(s.culpritPr.value));
    EXPECT_EQ(pr["html_url"],
              "https://github.com/pytorch/pytorch/pull/" + std::to_string(s.culpritPr.value));
    EXPECT_EQ(pr["number"], s.culpritPr.value);
    EXPECT_EQ(pr["state"], "closed");
    EXPECT_EQ(pr["merged"], true);
    EXPECT_EQ(pr["title"], truth->title);
    EXPECT_EQ(pr["user"]["login"], truth->author);
    EXPECT_EQ(pr["merge_commit_sha"], truth->mergeCommitSha.value);
    EXPECT_TRUE(std::regex_match(pr["merged_at"].get<std::string>(),
                                 std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)")));
    EXPECT_EQ(pr["closed_at"], pr["merged_at"]);
    EXPECT_EQ(pr["head"]["sha"], truth->heads.back().sha.value);
    EXPECT_EQ(pr["head"]["ref"], truth->headRef);
    EXPECT_EQ(pr["head"]["repo"]["full_name"], truth->author + "/pytorch");
    EXPECT_EQ(pr["base"]["ref"], "main");
    EXPECT_EQ(pr["base"]["sha"], truth->baseSha.value);
}

TEST_F(SimServerTest, OpenPullRequestIsNotMerged)
{
    const SimPullRequest* open = nullptr;
    for (const SimPullRequest& p : data().pulls)
        if (p.closedAt == 0 && !p.heads.empty())
            open = &p;
    ASSERT_NE(open, nullptr);
    const json pr =
        getJson("/api/v3/repos/pytorch/pytorch/pulls/" + std::to_string(open->number.value));
    EXPECT_EQ(pr["state"], "open");
    EXPECT_EQ(pr["merged"], false);
    EXPECT_TRUE(pr["merged_at"].is_null());
    EXPECT_TRUE(pr["closed_at"].is_null());
    EXPECT_TRUE(pr["merge_commit_sha"].is_null());
}

TEST_F(SimServerTest, UnknownPullRequestIsGitHubsNotFound)
{
    for (const char* number : {"1", "abc", "0"}) {
        auto res = get(std::string("/api/v3/repos/pytorch/pytorch/pulls/") + number);
        ASSERT_TRUE(res);
        EXPECT_EQ(res->status, 404) << number;
        const json body = json::parse(res->body);
        EXPECT_EQ(body["message"], "Not Found");
        EXPECT_EQ(body["documentation_url"],
                  "https://docs.github.com/rest/pulls/pulls#get-a-pull-request");
    }
}

TEST_F(SimServerTest, SummaryHasOneLinePerReportingBackend)
{
    const json rows = getJson(query("crcr_summary", {{"days", 7}}));
    ASSERT_GE(rows.size(), 5U);
    double previousRate = -1.0;
    for (const auto& row : rows) {
        EXPECT_EQ(keysOf(row),
                  (std::vector<std::string>{"repo", "downstream_repo_level", "successes",
                                            "failures", "timed_out", "total", "pass_rate",
                                            "avg_duration_s", "last_run"}));
        EXPECT_TRUE(row["total"].is_number_integer());
        EXPECT_GE(row["total"].get<int>(),
                  row["successes"].get<int>() + row["failures"].get<int>());
        const double rate = row["pass_rate"];
        EXPECT_GE(rate, previousRate) << "ORDER BY pass_rate ASC";
        previousRate = rate;
        EXPECT_NE(row["downstream_repo_level"], "L1");
    }
}

TEST_F(SimServerTest, InfoEndpointsAnswerTitlesAndAuthors)
{
    const UpstreamCommit* prCommit = nullptr;
    for (const auto& c : data().commits)
        if (c.eventType == EventType::PullRequest && !prCommit)
            prCommit = &c;
    ASSERT_NE(prCommit, nullptr);
    // Number(): " N" and "N.0" are N; 0, "", "abc" and "-3" are dropped.
    const std::string n = std::to_string(prCommit->prNumber.value);
    auto res = get("/api/crcr/pr-info?repo=pytorch/pytorch&prs=%20" + n + ",0,abc,," + n + ".0,-3");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
    EXPECT_EQ(res->get_header_value("Cache-Control"), "s-maxage=300, stale-while-revalidate=600");
    const json prs = json::parse(res->body);
    ASSERT_EQ(prs.size(), 2U);
    EXPECT_EQ(prs[0]["prNumber"], prCommit->prNumber.value);
    EXPECT_EQ(prs[0]["title"], prCommit->title);
    EXPECT_EQ(prs[0]["author"], prCommit->author);
    EXPECT_EQ(prs[1], prs[0]);
    // One GraphQL query for the batch: any PR it cannot resolve fails it all.
    for (const std::string& bad :
         std::vector<std::string>{n + ",7", n + ",12.5", "0x10," + n, "1e12"}) {
        const json doc = getJson("/api/crcr/pr-info?repo=pytorch/pytorch&prs=" + bad, 500);
        EXPECT_EQ(doc, json({{"error", "Failed to fetch PR info"}})) << bad;
    }
    std::string many;
    for (std::size_t i = 0; i < 60; ++i)
        many += std::to_string(data().pulls[i % data().pulls.size()].number.value) + ",";
    EXPECT_EQ(getJson("/api/crcr/pr-info?repo=pytorch/pytorch&prs=" + many).size(), 50U);
    EXPECT_EQ(getJson("/api/crcr/pr-info?repo=pytorch/pytorch&prs=0,abc"), json::array());
    const json commits =
        getJson("/api/crcr/commit-info?repo=pytorch/pytorch&shas=" + prCommit->sha.value);
    ASSERT_EQ(commits.size(), 1U);
    EXPECT_EQ(keysOf(commits[0]), (std::vector<std::string>{"sha", "title", "author"}));
    EXPECT_EQ(commits[0]["title"], prCommit->title);
    auto cached = get("/api/crcr/commit-info?repo=pytorch/pytorch&shas=" + prCommit->sha.value);
    ASSERT_TRUE(cached);
    EXPECT_EQ(cached->get_header_value("Cache-Control"),
              "s-maxage=86400, stale-while-revalidate=3600");
    // An unknown commit has empty text; a malformed oid fails the whole call.
    const std::string unknown(40, 'a');
    EXPECT_EQ(getJson("/api/crcr/commit-info?repo=pytorch/pytorch&shas=" + unknown)[0]["title"],
              "");
    EXPECT_EQ(getJson("/api/crcr/commit-info?repo=pytorch/pytorch&shas=" + prCommit->sha.value
                          + ",nightly-2026-05-03",
                      500),
              json({{"error", "Failed to fetch commit info"}}));
    // A nightly's SHA is the main commit its nightly was cut from
    // (real-backends.md section 2), served as any main commit: its title is a
    // landed PR's, "<title> (#<pr>)", never a nightly-branch commit's.
    int nightlies = 0;
    for (const auto& c : data().commits)
        if (c.eventType == EventType::Nightly) {
            ++nightlies;
            EXPECT_EQ(c.branch, "main");
            const json nightly =
                getJson("/api/crcr/commit-info?repo=pytorch/pytorch&shas=" + c.sha.value);
            const std::string title = nightly[0]["title"].get<std::string>();
            EXPECT_EQ(title.find("nightly release"), std::string::npos) << title;
            EXPECT_TRUE(std::regex_match(title, std::regex(R"(.+ \(#[0-9]+\))"))) << title;
        }
    EXPECT_GT(nightlies, 0);
}

// ---------------------------------------------------------------- errors

// /api/clickhouse/[queryName].ts has no try/catch: every failure is Next.js's
// generic 500 (pytorch/test-infra torchci/pages/api/clickhouse/[queryName].ts
// @61a77570; next api-resolver.ts sendError). Never 400 or 404.
TEST_F(SimServerTest, QueryFailuresAreNextsPlain500)
{
    const std::vector<std::string> cases = {
        "/api/clickhouse/crcr_no_such_query?parameters=%7B%7D",
        "/api/clickhouse/crcr_summary",
        "/api/clickhouse/crcr_summary?parameters=%7Bnot-json",
        "/api/clickhouse/crcr_summary?parameters=",
        query("crcr_summary", json::array()),
        query("crcr_summary", json::object()),
        query("crcr_summary", {{"days", -1}}),
        query("crcr_summary", {{"days", 1.5}}),
        query("crcr_backend_dashboard", {{"days", 7}, {"per_page", 5}, {"offset", 0}}),
        query("crcr_pr_results", {{"pr", "12x"}}),
        query("crcr_hud_results", {{"prNums", "1,2"}}),
    };
    for (const std::string& path : cases) {
        auto res = get(path);
        ASSERT_TRUE(res) << path;
        EXPECT_EQ(res->status, 500) << path;
        EXPECT_EQ(res->body, "Internal Server Error") << path;
        EXPECT_EQ(res->get_header_value("Content-Type").rfind("text/plain", 0), 0U) << path;
    }
    // No clamp on days; a String parameter takes any scalar as text.
    EXPECT_FALSE(getJson(query("crcr_summary", {{"days", 100000}})).empty());
    EXPECT_EQ(getJson(query("crcr_backend_dashboard",
                            {{"repo", 5}, {"days", 7}, {"per_page", 5}, {"offset", 0}})),
              json::array());
}

TEST_F(SimServerTest, UnknownRoutesGetNextsHtml404)
{
    for (const char* path : {"/api/nowhere", "/api/clickhouse/", "/api/clickhouse/a/b", "/x"}) {
        auto res = get(path);
        ASSERT_TRUE(res) << path;
        EXPECT_EQ(res->status, 404) << path;
        EXPECT_EQ(res->get_header_value("Content-Type"), "text/html; charset=utf-8") << path;
        EXPECT_NE(res->body.find("This page could not be found"), std::string::npos);
    }
}

// {"error": ...} JSON comes only from the /api/crcr/* handlers.
TEST_F(SimServerTest, CrcrRoutesAnswerJsonErrors)
{
    const std::vector<std::pair<std::string, int>> cases = {
        {"/api/crcr/pr-info?repo=pytorch/pytorch", 400},
        {"/api/crcr/pr-info?repo=someone/else&prs=1", 403},
        {"/api/crcr/commit-info?shas=abc", 400},
        {"/api/crcr/commit-info?repo=noslash&shas=abc", 403},
        // 403 before the empty-list check (commit-info.ts since #8330)
        {"/api/crcr/commit-info?repo=someone/else&shas=,", 403},
    };
    for (const auto& [path, status] : cases) {
        const json doc = getJson(path, status);
        EXPECT_TRUE(doc.contains("error") && doc["error"].is_string()) << path;
    }
    EXPECT_EQ(getJson("/api/crcr/commit-info?repo=pytorch/pytorch&shas=,"), json::array());
    auto post = client().Post("/api/crcr/allowlist", "", "application/json");
    ASSERT_TRUE(post);
    EXPECT_EQ(post->status, 405);
    EXPECT_EQ(json::parse(post->body), json({{"error", "Method not allowed"}}));
}

// ---------------------------------------------------------------- HTTP

TEST_F(SimServerTest, EtagAnswers304WhenUnchanged)
{
    auto first = get("/api/crcr/allowlist");
    ASSERT_TRUE(first);
    const std::string etag = first->get_header_value("ETag");
    ASSERT_GE(etag.size(), 3U);
    EXPECT_EQ(etag.front(), '"');
    auto again = get("/api/crcr/allowlist", {{"If-None-Match", etag}});
    ASSERT_TRUE(again);
    EXPECT_EQ(again->status, 304);
    EXPECT_TRUE(again->body.empty());
    auto stale = get("/api/crcr/allowlist", {{"If-None-Match", "\"0000\""}});
    ASSERT_TRUE(stale);
    EXPECT_EQ(stale->status, 200);
    EXPECT_EQ(stale->body, first->body);
}

TEST_F(SimServerTest, GzipWhenTheClientAcceptsIt)
{
    const std::string path = dashboardPath();
    auto plain = get(path);
    auto zipped = get(path, {{"Accept-Encoding", "gzip"}});
    ASSERT_TRUE(plain && zipped);
    EXPECT_EQ(plain->get_header_value("Content-Encoding"), "");
    EXPECT_EQ(zipped->get_header_value("Content-Encoding"), "gzip");
    EXPECT_EQ(zipped->body, plain->body) << "httplib decompresses for us";
    EXPECT_EQ(zipped->get_header_value("ETag"), plain->get_header_value("ETag"));
    EXPECT_LT(std::stoul(zipped->get_header_value("Content-Length")), plain->body.size() / 3);
}

TEST_F(SimServerTest, NeverPicksBrotliEvenWhenOffered)
{
    // libcurl offers "br"; brotli at httplib's quality costs seconds per page.
    const auto start = std::chrono::steady_clock::now();
    auto res = get(dashboardPath(), {{"Accept-Encoding", "br, gzip;q=0.5, deflate"}});
    ASSERT_TRUE(res);
    EXPECT_EQ(res->get_header_value("Content-Encoding"), "gzip");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(2));
    auto refused = get(dashboardPath(), {{"Accept-Encoding", "br, gzip;q=0"}});
    ASSERT_TRUE(refused);
    EXPECT_EQ(refused->get_header_value("Content-Encoding"), "");
}

// ---------------------------------------------------------------- faults

TEST_F(SimServerTest, ErrorRateAnswers500)
{
    FaultConfig faults;
    faults.errorRate = 1.0;
    s_server->setFaults(faults);
    const json doc = getJson("/api/crcr/allowlist", 500);
    EXPECT_TRUE(doc.contains("error"));
    faults.htmlErrors = true;
    s_server->setFaults(faults);
    auto res = get("/api/crcr/allowlist");
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 500);
    EXPECT_EQ(res->get_header_value("Content-Type"), "text/html");
    EXPECT_NE(res->body.find("<html>"), std::string::npos);
}

TEST_F(SimServerTest, EveryNthRequestIsRateLimited)
{
    FaultConfig faults;
    faults.tooManyEvery = 3;
    s_server->setFaults(faults);
    int limited = 0;
    for (int i = 0; i < 9; ++i) {
        auto res = get("/api/crcr/allowlist");
        ASSERT_TRUE(res);
        if (res->status == 429) {
            ++limited;
            EXPECT_EQ(res->get_header_value("Retry-After"), "1");
        } else {
            EXPECT_EQ(res->status, 200);
        }
    }
    EXPECT_EQ(limited, 3);
}

TEST_F(SimServerTest, LatencyDelaysAnswers)
{
    FaultConfig faults;
    faults.latencyMs = 150;
    s_server->setFaults(faults);
    const auto start = std::chrono::steady_clock::now();
    ASSERT_TRUE(get("/api/crcr/allowlist"));
    EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(150));
}

TEST_F(SimServerTest, TruncatedBodiesAreHalfTheJson)
{
    auto full = get("/api/crcr/allowlist");
    FaultConfig faults;
    faults.truncateRate = 1.0;
    s_server->setFaults(faults);
    auto cut = get("/api/crcr/allowlist");
    ASSERT_TRUE(full && cut);
    EXPECT_EQ(cut->status, 200);
    EXPECT_EQ(cut->body, full->body.substr(0, full->body.size() / 2));
    EXPECT_TRUE(json::parse(cut->body, nullptr, false).is_discarded());
}

TEST_F(SimServerTest, DroppedConnectionsGetNoAnswer)
{
    FaultConfig faults;
    faults.dropRate = 1.0;
    s_server->setFaults(faults);
    auto res = get("/api/crcr/allowlist");
    EXPECT_FALSE(res);
    s_server->setFaults({});
    EXPECT_TRUE(get("/api/crcr/allowlist")) << "the server survives its own drops";
}

std::vector<int> statusesFor(std::uint64_t seed)
{
    SimServer server(makeDataset(), FaultConfig{0.5, 0, 0, 0.0, 0.0, false, seed});
    EXPECT_GT(server.start(0), 0);
    httplib::Client cli(server.baseUrl());
    std::vector<int> out;
    for (int i = 0; i < 24; ++i) {
        auto res = cli.Get("/api/crcr/allowlist");
        out.push_back(res ? res->status : -1);
    }
    return out;
}

TEST(SimServerFaults, FaultsReplayFromTheSeed)
{
    const auto a = statusesFor(7);
    EXPECT_EQ(a, statusesFor(7));
    EXPECT_NE(a, statusesFor(8));
    EXPECT_GT(std::count(a.begin(), a.end(), 500), 0);
    EXPECT_GT(std::count(a.begin(), a.end(), 200), 0);
}

} // namespace
} // namespace relayhud::sim
