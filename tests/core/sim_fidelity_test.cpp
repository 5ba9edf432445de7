// The simulator against the real PyTorch HUD (specs/hud-read-api.md §2, S1-S17):
// the exact SELECT lists of every saved query, how the HUD stores pushes and
// nightlies, the relay's timings, the probe repo, a repo the allowlist no
// longer lists, and the real HUD's failure modes (Vercel's size cap, the
// allowlist's GitHub fetch, pr-info's single GraphQL query).
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_options.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/sim/sim_truth.h"
#include "sim_http_support.h"
#include "test_world.h"

#include "relayhud/sim/httplib_quiet.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <regex>
#include <set>

namespace relayhud::sim {
namespace {

using json = nlohmann::ordered_json;

using relayhud::test::kNow;
using relayhud::test::kSpyre;
const std::string kProbe = "pytorch/crcr-test";
const std::string kBusy = "ROCm/torch-rocm-ext";
const std::string kDeparted = "graphcore-oss/poptorch-crcr";
const std::string kTpu = "openxla-oot/torch-tpu";

std::vector<std::string> split(const std::string& list)
{
    std::vector<std::string> out;
    std::stringstream in(list);
    std::string item;
    while (std::getline(in, item, ','))
        out.push_back(item.substr(item.find_first_not_of(' ')));
    return out;
}

class SimFidelityTest : public ::testing::Test {
protected:
    static void SetUpTestSuite()
    {
        SimConfig config;
        config.now = kNow;
        s_server = new SimServer(buildDataset(config));
        ASSERT_GT(s_server->start(0), 0);
    }
    static void TearDownTestSuite()
    {
        delete s_server;
        s_server = nullptr;
    }
    void TearDown() override { s_server->setFaults({}); }

    static const SimDataset& data() { return s_server->dataset(); }

    static httplib::Result get(const std::string& path)
    {
        httplib::Client cli(s_server->baseUrl());
        cli.set_read_timeout(20, 0);
        return cli.Get(path.c_str());
    }

    static json getJson(const std::string& path, int status = 200)
    {
        auto res = get(path);
        EXPECT_TRUE(res) << path;
        if (!res)
            return json();
        EXPECT_EQ(res->status, status) << path << ": " << res->body.substr(0, 200);
        return json::parse(res->body, nullptr, false);
    }

    static PrNumber aPrOf(const std::string& repo)
    {
        for (auto it = data().rows.rbegin(); it != data().rows.rend(); ++it)
            if (it->run.downstreamRepo == repo && it->run.prNumber.value > 0
                && it->run.reported.status == RunStatus::Completed)
                return it->run.prNumber;
        return PrNumber{};
    }

    static SimServer* s_server;
};

SimServer* SimFidelityTest::s_server = nullptr;

// ----------------------------------------------------------------- S2, S14

// The SELECT lists, in order, copied as facts from pytorch/test-infra
// @61a77570f45416dc425c17d4a648376541a84732,
// torchci/clickhouse_queries/<name>/query.sql (aliases as they name them).
const std::map<std::string, std::string>& realSelectLists()
{
    static const std::map<std::string, std::string> lists = {
        {"crcr_backend_dashboard",
         "upstream_repo, pr_number, pytorch_head_sha, workflow_name, job_name, check_run_id, "
         "run_id, run_attempt, status, conclusion, started_at, completed_at, duration_seconds, "
         "total_tests, passed_tests, failed_tests, skipped_tests, workflow_run_url, artifact_url, "
         "queue_time, execution_time"},
        {"crcr_nightly_dashboard",
         "upstream_repo, pytorch_head_sha, workflow_name, job_name, check_run_id, run_id, "
         "run_attempt, status, conclusion, started_at, completed_at, duration_seconds, "
         "total_tests, passed_tests, failed_tests, skipped_tests, workflow_run_url, artifact_url, "
         "queue_time, execution_time"},
        {"crcr_pr_results",
         "downstream_repo, workflow_name, job_name, check_run_id, run_id, run_attempt, status, "
         "conclusion, duration_seconds, workflow_run_url, artifact_url, started_at, queue_time, "
         "execution_time"},
        {"crcr_hud_results",
         "pr_number, pytorch_head_sha, downstream_repo, downstream_repo_level, workflow_name, "
         "job_name, check_run_id, run_id, run_attempt, status, conclusion, workflow_run_url, "
         "duration_seconds, failed_tests_json"},
        {"crcr_summary",
         "repo, downstream_repo_level, successes, failures, timed_out, total, pass_rate, "
         "avg_duration_s, last_run"},
        {"crcr_nightly_summary",
         "repo, downstream_repo_level, successes, failures, timed_out, total, pass_rate, "
         "avg_duration_s, last_run, latest_sha"},
        {"crcr_backend_summary",
         "successes, failures, timed_out, total_jobs, pass_rate, total_prs, avg_queue_time_s, "
         "avg_exec_time_s, timeout_rate"},
        {"crcr_success_rate", "day, repo, successes, failures, timed_out, total, pass_rate"},
        {"crcr_health_last_prs", "pr_number, last_run, successes, total, pass_rate"},
    };
    return lists;
}

TEST_F(SimFidelityTest, EveryQueryAnswersTheRealSelectList)
{
    const std::int64_t pr = aPrOf(kSpyre).value;
    ASSERT_GT(pr, 0);
    const std::map<std::string, json> parameters = {
        {"crcr_backend_dashboard", {{"repo", kSpyre}, {"days", 7}, {"per_page", 3}, {"offset", 0}}},
        {"crcr_nightly_dashboard", {{"repo", kSpyre}, {"days", 7}}},
        {"crcr_pr_results", {{"pr", pr}}},
        {"crcr_hud_results", {{"prNums", json::array({pr})}}},
        {"crcr_summary", {{"days", 7}}},
        {"crcr_nightly_summary", {{"days", 7}}},
        {"crcr_backend_summary", {{"repo", kSpyre}, {"days", 7}}},
        {"crcr_success_rate", {{"days", 7}, {"event_type", "pull_request"}}},
        {"crcr_health_last_prs", {{"count", 5}}},
    };
    for (const auto& [name, list] : realSelectLists()) {
        const json rows = getJson(query(name, parameters.at(name)));
        ASSERT_TRUE(rows.is_array()) << name;
        ASSERT_FALSE(rows.empty()) << name;
        for (const auto& row : rows)
            ASSERT_EQ(keysOf(row), split(list)) << name;
    }
}

TEST_F(SimFidelityTest, FailedTestsJsonIsTheNeverWrittenDefault)
{
    const json rows =
        getJson(query("crcr_hud_results", {{"prNums", json::array({aPrOf(kSpyre).value})}}));
    ASSERT_FALSE(rows.empty());
    for (const auto& row : rows) {
        EXPECT_EQ(row["failed_tests_json"], "");
        EXPECT_TRUE(row["downstream_repo_level"] == "L3" || row["downstream_repo_level"] == "L4");
        EXPECT_NE(row["downstream_repo"], kProbe);
    }
}

// ----------------------------------------------------------------- S1

TEST_F(SimFidelityTest, PushRowsHaveNoPrAndTheDeliveryGuidAsSha)
{
    static const std::regex kGuid("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
    std::map<std::string, std::int64_t> completedPushes; // repo -> rows in 7 days
    std::size_t pushes = 0;
    for (const SimRow& row : data().rows) {
        if (row.eventTypeText != "push")
            continue;
        ++pushes;
        EXPECT_FALSE(row.run.prNumber);
        EXPECT_EQ(row.run.upstreamSha.value, row.deliveryId);
        EXPECT_TRUE(std::regex_match(row.deliveryId, kGuid)) << row.deliveryId;
        EXPECT_NE(row.testedSha, row.run.upstreamSha);
        if (row.run.reported.status == RunStatus::Completed
            && *row.run.reported.startedAt > kNow - 7 * 86400)
            ++completedPushes[row.run.downstreamRepo];
    }
    ASSERT_GT(pushes, 0U);
    // No row query returns them ...
    const json page =
        getJson(query("crcr_backend_dashboard",
                      {{"repo", kSpyre}, {"days", 30}, {"per_page", 1000}, {"offset", 0}}));
    for (const auto& row : page)
        EXPECT_GT(row["pr_number"].get<std::int64_t>(), 0);
    EXPECT_EQ(getJson(query("crcr_pr_results", {{"pr", 0}})), json::array());
    // ... only crcr_success_rate counts them.
    std::map<std::string, std::int64_t> counted;
    for (const auto& line :
         getJson(query("crcr_success_rate", {{"days", 7}, {"event_type", "push"}})))
        counted[line["repo"]] += line["total"].get<std::int64_t>();
    EXPECT_EQ(counted, completedPushes);
}

TEST_F(SimFidelityTest, GroundTruthListsOnlyServedRuns)
{
    std::map<std::string, const SimRow*> byId;
    for (const SimRow& row : data().rows)
        byId[row.run.checkRunId.value] = &row;
    for (const SimTruthLine& line : groundTruth(data())) {
        const SimRow* row = byId.at(line.checkRunId.value);
        EXPECT_TRUE(row->eventTypeText == "pull_request" || row->eventTypeText == "nightly")
            << row->eventTypeText;
        EXPECT_NE(row->run.downstreamRepo, kProbe);
    }
}

// ----------------------------------------------------------------- S4, S5, S7, S8, S9

TEST_F(SimFidelityTest, NightlyRowsAreOneCompletedCallback)
{
    std::size_t nightly = 0;
    for (const SimRow& row : data().rows) {
        if (row.eventTypeText != "nightly")
            continue;
        ++nightly;
        EXPECT_EQ(row.run.reported.status, RunStatus::Completed);
        EXPECT_EQ(row.run.reported.startedAt, row.run.reported.completedAt);
        EXPECT_EQ(row.startedMicros, row.completedMicros);
        EXPECT_FALSE(row.run.trusted.queueTimeSeconds);
        EXPECT_FALSE(row.run.trusted.executionTimeSeconds);
        EXPECT_EQ(row.run.upstreamSha.value, row.deliveryId);
        if (row.run.downstreamRepo == kTpu)
            EXPECT_TRUE(std::regex_match(row.deliveryId, std::regex(R"(nightly-\d{4}-\d\d-\d\d)")))
                << "a free-text delivery-id: " << row.deliveryId;
        else
            EXPECT_EQ(row.run.upstreamSha, row.testedSha);
    }
    EXPECT_GT(nightly, 0U);
}

TEST_F(SimFidelityTest, RerunsCarryQueueTimeFromTheOriginalDispatch)
{
    std::map<std::pair<std::string, std::string>, double> firstQueue; // (run_id, job)
    for (const SimRow& row : data().rows)
        if (row.run.runAttempt == 1 && row.run.trusted.queueTimeSeconds)
            firstQueue[{row.run.runId, row.specJob}] = *row.run.trusted.queueTimeSeconds;
    std::size_t reruns = 0;
    for (const SimRow& row : data().rows) {
        if (row.run.runAttempt < 2 || row.eventTypeText == "nightly")
            continue;
        ++reruns;
        ASSERT_TRUE(row.run.trusted.queueTimeSeconds) << row.run.checkRunId.value;
        const auto first = firstQueue.find({row.run.runId, row.specJob});
        if (first != firstQueue.end()) {
            EXPECT_GT(*row.run.trusted.queueTimeSeconds, first->second + 600);
        }
    }
    EXPECT_GT(reruns, 0U);
}

TEST_F(SimFidelityTest, TimedOutComesOnlyFromTheSixHourSweeper)
{
    std::size_t timedOut = 0;
    for (const SimRow& row : data().rows) {
        if (row.run.reported.conclusion != Conclusion::TimedOut || row.eventTypeText == "nightly")
            continue;
        ++timedOut;
        const EpochSeconds done = *row.run.reported.completedAt;
        EXPECT_EQ(row.completedMicros, 0) << "the sweeper writes whole seconds";
        EXPECT_GE(done - *row.run.reported.startedAt, 6 * 3600);
        ASSERT_TRUE(row.run.trusted.executionTimeSeconds);
        EXPECT_GE(*row.run.trusted.executionTimeSeconds, 6 * 3600 - 1);
        EXPECT_TRUE(row.run.trusted.queueTimeSeconds) << "queue_time is kept";
    }
    EXPECT_GT(timedOut, 0U);
}

TEST_F(SimFidelityTest, RunUrlsHaveNoAttemptAndTimesHaveMicroseconds)
{
    const json rows =
        getJson(query("crcr_backend_dashboard",
                      {{"repo", kSpyre}, {"days", 7}, {"per_page", 50}, {"offset", 0}}));
    std::set<std::string> fractions;
    for (const auto& row : rows) {
        EXPECT_EQ(row["workflow_run_url"].get<std::string>(),
                  "https://github.com/" + kSpyre + "/actions/runs/"
                      + row["run_id"].get<std::string>());
        fractions.insert(row["started_at"].get<std::string>().substr(20, 6));
    }
    EXPECT_GT(fractions.size(), 10U);
    // The GitHub API still resolves the run the URL names.
    const std::string runId = rows.at(0)["run_id"];
    auto res = get("/api/v3/repos/" + kSpyre + "/actions/runs/" + runId);
    ASSERT_TRUE(res);
    EXPECT_EQ(res->status, 200);
}

// ----------------------------------------------------------------- S3

TEST_F(SimFidelityTest, NightlyDashboardFiltersEachRowAndKeysAttemptsOnRunAndJob)
{
    for (int days : {1, 3, 14}) {
        const json rows =
            getJson(query("crcr_nightly_dashboard", {{"repo", kSpyre}, {"days", days}}));
        std::set<std::string> want;
        for (const SimRow& row : data().rows)
            if (row.run.downstreamRepo == kSpyre && row.eventTypeText == "nightly"
                && *row.run.reported.startedAt >= kNow - days * 86400)
                want.insert(row.run.checkRunId.value);
        std::set<std::string> got;
        std::string previous = "9999";
        for (const auto& row : rows) {
            got.insert(row["check_run_id"].get<std::string>());
            EXPECT_LE(row["started_at"].get<std::string>(), previous);
            previous = row["started_at"];
        }
        EXPECT_LE(rows.size(), 500U);
        for (const std::string& id : got)
            EXPECT_TRUE(want.count(id)) << days;
    }
}

// ----------------------------------------------------------------- S6

TEST_F(SimFidelityTest, MatrixLegsShareAJobNameWithTheirOwnCheckRuns)
{
    std::map<std::string, std::set<std::string>> legs; // run_id -> check_run_ids of "test"
    for (const SimRow& row : data().rows)
        if (row.run.downstreamRepo == kBusy && row.run.jobName == "test" && row.run.runAttempt == 1)
            legs[row.run.runId].insert(row.run.checkRunId.value);
    ASSERT_FALSE(legs.empty());
    EXPECT_GT(legs.begin()->second.size(), 10U);
}

TEST_F(SimFidelityTest, ClosedAndReopenedPrsAreDispatchedAgain)
{
    // (sha, repo, workflow) -> run_ids at attempt 1
    std::map<std::tuple<std::string, std::string, std::string>, std::set<std::string>> runs;
    for (const SimRow& row : data().rows)
        if (row.eventTypeText == "pull_request" && row.run.runAttempt == 1)
            runs[{row.run.upstreamSha.value, row.run.downstreamRepo, row.run.workflow}].insert(
                row.run.runId);
    std::size_t redispatched = 0;
    for (const auto& [key, ids] : runs)
        redispatched += ids.size() > 1 ? 1U : 0U;
    EXPECT_GT(redispatched, 0U);
}

// ----------------------------------------------------------------- R3, R11

TEST_F(SimFidelityTest, ProbeRepoIsListedAndItsExpectedFailuresCountAsSuccesses)
{
    const json allowlist = getJson("/api/crcr/allowlist");
    bool listedL2 = false;
    for (const auto& entry : allowlist["L2"])
        listedL2 = listedL2 || entry["repo"] == kProbe;
    EXPECT_TRUE(listedL2) << "the relay accepts its callbacks only at L2+";
    std::set<Conclusion> seen;
    for (const SimRow& row : data().rows) {
        if (row.run.downstreamRepo != kProbe || row.run.reported.status != RunStatus::Completed)
            continue;
        const std::string& job = row.run.jobName;
        const Conclusion c = row.run.reported.conclusion;
        seen.insert(c);
        if (job.find("xfail") != std::string::npos)
            EXPECT_EQ(c, Conclusion::Failure);
        else if (job.find("xcancel") != std::string::npos)
            EXPECT_EQ(c, Conclusion::Cancelled);
        else if (job.find("xtimeout") != std::string::npos)
            EXPECT_EQ(c, Conclusion::TimedOut);
        else
            EXPECT_EQ(c, Conclusion::Success);
    }
    EXPECT_EQ(seen.size(), 4U);
    for (const auto& line : getJson(query("crcr_summary", {{"days", 7}})))
        if (line["repo"] == kProbe) {
            EXPECT_EQ(line["failures"], 0);
            EXPECT_EQ(line["timed_out"], 0);
            EXPECT_EQ(line["successes"], line["total"]);
            EXPECT_EQ(line["pass_rate"], 1);
        }
    const json health = getJson(query("crcr_health_last_prs", {{"count", 5}}));
    ASSERT_EQ(health.size(), 5U);
    std::string previous = "9999";
    for (const auto& line : health) {
        EXPECT_EQ(line["pass_rate"], 1);
        EXPECT_LE(line["last_run"].get<std::string>(), previous);
        previous = line["last_run"];
    }
    // The x* adjustment exists only for the probe repo's own name.
    const json summary = getJson(query("crcr_backend_summary", {{"repo", kProbe}, {"days", 7}}));
    EXPECT_EQ(summary.at(0)["failures"], 0);
    const json nightly = getJson(query("crcr_nightly_summary", {{"days", 14}}));
    for (const auto& line : nightly)
        if (line["repo"] == kProbe) {
            EXPECT_GT(line["failures"], 0) << "crcr_nightly_summary has no x* adjustment";
        }
}

TEST_F(SimFidelityTest, ARepoOffTheAllowlistIsFoundOnlyThroughCrcrSummary)
{
    const json allowlist = getJson("/api/crcr/allowlist");
    for (const auto& [level, entries] : allowlist.items())
        for (const auto& entry : entries)
            EXPECT_NE(entry["repo"], kDeparted) << level;
    bool found = false;
    for (const auto& line : getJson(query("crcr_summary", {{"days", 7}})))
        if (line["repo"] == kDeparted) {
            found = true;
            EXPECT_EQ(line["downstream_repo_level"], "L2");
        }
    EXPECT_TRUE(found);
    for (const auto& line : getJson(query("crcr_summary", {{"days", 2}})))
        EXPECT_NE(line["repo"], kDeparted) << "removed three days ago";
}

// ----------------------------------------------------------------- faults

TEST_F(SimFidelityTest, AnswersOverTheSizeCapAreVercels500)
{
    const std::string path = query(
        "crcr_backend_dashboard", {{"repo", kSpyre}, {"days", 7}, {"per_page", 50}, {"offset", 0}});
    auto whole = get(path);
    ASSERT_TRUE(whole);
    ASSERT_EQ(whole->status, 200);
    FaultConfig faults;
    faults.maxResponseBytes = whole->body.size();
    s_server->setFaults(faults);
    EXPECT_EQ(get(path)->status, 200) << "exactly at the cap is fine";
    faults.maxResponseBytes = whole->body.size() - 1;
    s_server->setFaults(faults);
    auto capped = get(path);
    ASSERT_TRUE(capped);
    EXPECT_EQ(capped->status, 500);
    EXPECT_NE(capped->body.find("FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE"), std::string::npos);
    EXPECT_EQ(capped->get_header_value("X-Vercel-Error"), "FUNCTION_RESPONSE_PAYLOAD_TOO_LARGE");
}

TEST_F(SimFidelityTest, AllowlistFailsAfterNAnswers)
{
    FaultConfig faults;
    faults.allowlistFailAfter = 2;
    s_server->setFaults(faults);
    // The counter runs across the server's life: find where it stands.
    int ok = 0;
    int failed = 0;
    for (int i = 0; i < 30 && failed < 2; ++i) {
        auto res = get("/api/crcr/allowlist");
        ASSERT_TRUE(res);
        if (res->status == 200) {
            EXPECT_EQ(failed, 0) << "never answers again once the fetch fails";
            ++ok;
            continue;
        }
        EXPECT_EQ(res->status, 502);
        EXPECT_EQ(json::parse(res->body),
                  json({{"error", "Failed to fetch allowlist from GitHub: 503"}}));
        ++failed;
    }
    EXPECT_EQ(failed, 2);
    EXPECT_LE(ok, 2);
    faults = {};
    faults.allowlistStaleAfter = 0;
    s_server->setFaults(faults);
    auto stale = get("/api/crcr/allowlist");
    ASSERT_TRUE(stale);
    EXPECT_EQ(stale->status, 200);
    EXPECT_EQ(stale->get_header_value("X-Cache"), "STALE");
    EXPECT_TRUE(json::parse(stale->body).contains("L4"));
}

TEST_F(SimFidelityTest, PrInfoFailsTheWholeBatchForOneBadPr)
{
    const std::int64_t a = data().pulls.at(0).number.value;
    const std::int64_t b = data().pulls.at(1).number.value;
    const std::string path =
        "/api/crcr/pr-info?repo=pytorch/pytorch&prs=" + std::to_string(a) + "," + std::to_string(b);
    EXPECT_EQ(getJson(path).size(), 2U);
    FaultConfig faults;
    faults.prInfoFail = {PrNumber{b}};
    s_server->setFaults(faults);
    EXPECT_EQ(getJson(path, 500), json({{"error", "Failed to fetch PR info"}}));
    EXPECT_EQ(getJson("/api/crcr/pr-info?repo=pytorch/pytorch&prs=" + std::to_string(a)).size(),
              1U);
}

TEST(SimFidelityOptions, ParsesTheRealFailureFlags)
{
    auto options = parseSimOptions({"--max-response-bytes", "4500000", "--allowlist-fail-after=3",
                                    "--allowlist-stale-after", "5", "--pr-info-fail", "12,13",
                                    "--pr-info-fail=14"});
    ASSERT_TRUE(options) << options.message();
    EXPECT_EQ(options->faults.maxResponseBytes, 4500000U);
    EXPECT_EQ(options->faults.allowlistFailAfter, 3);
    EXPECT_EQ(options->faults.allowlistStaleAfter, 5);
    EXPECT_EQ(options->faults.prInfoFail,
              (std::vector<PrNumber>{PrNumber{12}, PrNumber{13}, PrNumber{14}}));
    EXPECT_FALSE(parseSimOptions({"--pr-info-fail", "12,x"}));
    EXPECT_FALSE(parseSimOptions({"--max-response-bytes", "-1"}));
    for (const char* flag : {"--max-response-bytes", "--allowlist-fail-after",
                             "--allowlist-stale-after", "--pr-info-fail"})
        EXPECT_NE(simUsage().find(flag), std::string::npos) << flag;
}

} // namespace
} // namespace relayhud::sim
