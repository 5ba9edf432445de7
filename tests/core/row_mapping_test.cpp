#include "relayhud/hud/row_mapping.h"
#include "relayhud/util/time.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

using namespace relayhud;
using nlohmann::json;

namespace {

json loadFixture(const std::string& name)
{
    std::ifstream in(std::string(RELAYHUD_TEST_DATA_DIR) + "/hud/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return json::parse(ss.str());
}

const RowContext kSpyre{"torch-spyre/torch-spyre", EventType::PullRequest, {}, 0};

json minimalRow()
{
    return json{{"pytorch_head_sha", "abc123"},
                {"workflow_name", "CI"},
                {"job_name", "build"},
                {"status", "completed"},
                {"conclusion", "success"}};
}

} // namespace

TEST(RowMapping, MapsARealShapedCompletedRow)
{
    const json page = loadFixture("crcr_backend_dashboard_page.json");
    auto run = mapCheckRunRow(page.at(0), kSpyre);
    ASSERT_TRUE(run) << run.message();
    EXPECT_EQ(run->downstreamRepo, "torch-spyre/torch-spyre");
    EXPECT_EQ(run->upstreamSha.value, "3f1c2a9d8b7e6f5a4c3b2a1908f7e6d5c4b3a291");
    EXPECT_EQ(run->prNumber, PrNumber{168802});
    EXPECT_EQ(run->workflow, "Torch-Spyre CI");
    EXPECT_EQ(run->jobName, "test (upstream, 2, 3, spyre-runner)");
    EXPECT_EQ(run->checkRunId.value, "58213376120");
    EXPECT_EQ(run->runId, "20561234567");
    EXPECT_EQ(run->runAttempt, 2);
    EXPECT_EQ(run->reported.status, RunStatus::Completed);
    EXPECT_EQ(run->reported.conclusion, Conclusion::Failure);
    EXPECT_EQ(run->reported.startedAt, parseTimestamp("2026-11-30T18:02:11Z"));
    EXPECT_EQ(run->reported.completedAt, parseTimestamp("2026-11-30T18:49:40Z"));
    ASSERT_TRUE(run->reported.tests);
    EXPECT_EQ(*run->reported.tests, (TestCounts{1204, 1150, 3, 51}));
    EXPECT_EQ(run->reported.artifactUrl,
              "https://github.com/torch-spyre/torch-spyre/actions/runs/20561234567/artifacts");
    EXPECT_EQ(run->trusted.queueTimeSeconds, 41.7);
    EXPECT_EQ(run->trusted.executionTimeSeconds, 2851.2);
    EXPECT_EQ(run->eventType, EventType::PullRequest);
}

TEST(RowMapping, InProgressRowHasNoCompletionNoCountsNoExecutionTime)
{
    const json page = loadFixture("crcr_backend_dashboard_page.json");
    auto run = mapCheckRunRow(page.at(1), kSpyre);
    ASSERT_TRUE(run) << run.message();
    EXPECT_EQ(run->reported.status, RunStatus::InProgress);
    EXPECT_EQ(run->reported.conclusion, Conclusion::None);
    EXPECT_FALSE(run->reported.completedAt);
    EXPECT_FALSE(run->reported.tests);
    EXPECT_FALSE(run->trusted.executionTimeSeconds);
    EXPECT_EQ(run->trusted.queueTimeSeconds, 3.2);
}

TEST(RowMapping, AcceptsNumbersAsStringsAndIdsAsNumbers)
{
    json row = minimalRow();
    row["run_attempt"] = "3";
    row["pr_number"] = "168000";
    row["run_id"] = 20561234567LL;
    row["check_run_id"] = 58213376120LL;
    row["queue_time"] = "12.5";
    row["started_at"] = "2026-11-30 18:02:11";
    auto run = mapCheckRunRow(row, kSpyre);
    ASSERT_TRUE(run) << run.message();
    EXPECT_EQ(run->runAttempt, 3);
    EXPECT_EQ(run->prNumber, PrNumber{168000});
    EXPECT_EQ(run->runId, "20561234567");
    EXPECT_EQ(run->checkRunId.value, "58213376120");
    EXPECT_EQ(run->trusted.queueTimeSeconds, 12.5);
    EXPECT_EQ(run->reported.startedAt, parseTimestamp("2026-11-30T18:02:11Z"));
}

TEST(RowMapping, MissingOptionalFieldsTakeDefaults)
{
    auto run = mapCheckRunRow(minimalRow(), kSpyre);
    ASSERT_TRUE(run) << run.message();
    EXPECT_EQ(run->runAttempt, 1);
    EXPECT_EQ(run->upstreamRepo, "pytorch/pytorch");
    EXPECT_FALSE(run->reported.startedAt);
}

TEST(RowMapping, RowsNameTheirOwnRepoAndEventType)
{
    json row = minimalRow();
    row["downstream_repo"] = "Ascend/pytorch";
    row["event_type"] = "nightly";
    row["downstream_repo_level"] = "L3";
    auto run = mapCheckRunRow(row, kSpyre);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->downstreamRepo, "Ascend/pytorch");
    EXPECT_EQ(run->eventType, EventType::Nightly);
    EXPECT_EQ(run->trusted.level, Level::L3);
}

TEST(RowMapping, PrResultsRowsTakeTheShaFromTheContext)
{
    json row = minimalRow();
    row.erase("pytorch_head_sha");
    row["downstream_repo"] = "vllm-project/vllm";
    auto run = mapCheckRunRow(
        row, RowContext{{}, EventType::PullRequest, Sha{"feed"}, 99, "crcr_pr_results"});
    ASSERT_TRUE(run) << run.message();
    EXPECT_EQ(run->upstreamSha.value, "feed");
    EXPECT_EQ(run->prNumber, PrNumber{99});
}

TEST(RowMapping, WrongTypesAndMissingKeysGiveNamedErrors)
{
    json row = minimalRow();
    row["run_attempt"] = "two";
    auto bad = mapCheckRunRow(row, kSpyre);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.message().find("run_attempt"), std::string::npos) << bad.message();

    row = minimalRow();
    row["status"] = json::array();
    bad = mapCheckRunRow(row, kSpyre);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.message().find("status"), std::string::npos) << bad.message();

    row = minimalRow();
    row.erase("pytorch_head_sha");
    bad = mapCheckRunRow(row, kSpyre);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.message().find("pytorch_head_sha"), std::string::npos);

    row = minimalRow();
    row["started_at"] = "last tuesday";
    bad = mapCheckRunRow(row, kSpyre);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.message().find("started_at"), std::string::npos);

    row = minimalRow();
    row["run_attempt"] = 0;
    EXPECT_FALSE(mapCheckRunRow(row, kSpyre));

    EXPECT_FALSE(mapCheckRunRow(json::array(), kSpyre));
    EXPECT_FALSE(mapCheckRunRow(json("text"), kSpyre));
}

TEST(RowMapping, ConclusionWithoutStatusMeansCompleted)
{
    json row = minimalRow();
    row.erase("status");
    auto run = mapCheckRunRow(row, kSpyre);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->reported.status, RunStatus::Completed);
}

TEST(RowMapping, AllowlistOfTheRealShape)
{
    const json doc = json::parse(R"({
        "L1": [{"repo": "org/l1only", "oncalls": []}],
        "L2": [{"repo": "Ascend/pytorch", "oncalls": ["ascend-ci"]}],
        "L3": [{"repo": "torch-spyre/torch-spyre", "oncalls": ["alice", "bob"]}],
        "L4": []
    })");
    auto backends = mapAllowlist(doc);
    ASSERT_TRUE(backends) << backends.message();
    ASSERT_EQ(backends->size(), 3u);
    EXPECT_EQ(backends->at(0), (Backend{"org/l1only", Level::L1, {}}));
    EXPECT_EQ(backends->at(2), (Backend{"torch-spyre/torch-spyre", Level::L3, {"alice", "bob"}}));
}

TEST(RowMapping, AllowlistRejectsWrongShapes)
{
    EXPECT_FALSE(mapAllowlist(json::array()));
    EXPECT_FALSE(mapAllowlist(json::parse(R"({"L2": "org/repo"})")));
    EXPECT_FALSE(mapAllowlist(json::parse(R"({"L2": [{"repo": 5}]})")));
    EXPECT_FALSE(mapAllowlist(json::parse(R"({"L2": ["not-a-repo"]})")));
}

TEST(RowMapping, CommitsFromRunsTakeEarliestStartPerSha)
{
    CheckRun a, b, c;
    a.upstreamSha = b.upstreamSha = Sha{"a1"};
    c.upstreamSha = Sha{std::string(40, 'c')};
    a.reported.startedAt = 500;
    b.reported.startedAt = 300;
    b.prNumber = PrNumber{7};
    c.eventType = EventType::Nightly;
    c.reported.completedAt = 900;
    const auto commits = commitsFromRuns({a, b, c});
    ASSERT_EQ(commits.size(), 2u);
    EXPECT_EQ(commits[0].time, 300);
    EXPECT_EQ(commits[0].prNumber, PrNumber{7});
    EXPECT_EQ(commits[1].eventType, EventType::Nightly);
    // A nightly's SHA is a main commit (the one its nightly was cut from, or
    // main's HEAD), never a nightly-branch commit: real-backends.md section
    // 2; hud-read-api.md R6, corrected.
    EXPECT_EQ(commits[1].branch, "main");
    EXPECT_EQ(commits[1].time, 900);
    // A free-text nightly id ("nightly-<date>", "buildkite-<n>-<uuid>") is not
    // an upstream commit: no branch.
    c.upstreamSha = Sha{"nightly-2026-12-01"};
    EXPECT_EQ(commitsFromRuns({c})[0].branch, "");
}
