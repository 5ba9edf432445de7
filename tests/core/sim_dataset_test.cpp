// The simulator's dataset: deterministic, big enough, shaped like the HUD's
// crcr_workflow_job table, and carrying the stories the other tests rely on.
#include "relayhud/sim/sim_dataset.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace relayhud::sim {
namespace {

constexpr EpochSeconds kNow = 1777914000; // 2026-05-04T17:00:00Z
constexpr EpochSeconds kHour = 3600;

SimDataset dataset(std::uint64_t seed = 1, int jobsScale = 1)
{
    SimConfig config;
    config.seed = seed;
    config.now = kNow;
    config.jobsScale = jobsScale;
    return buildDataset(config);
}

const SimDataset& shared()
{
    static const SimDataset data = dataset();
    return data;
}

bool sameRow(const SimRow& a, const SimRow& b)
{
    return a.run == b.run && a.deliveryId == b.deliveryId && a.eventTypeText == b.eventTypeText
           && a.failedTestsJson == b.failedTestsJson && a.environmentJson == b.environmentJson;
}

std::map<std::string, EpochSeconds> commitTimes(const SimDataset& data)
{
    std::map<std::string, EpochSeconds> out;
    for (const auto& c : data.commits)
        out[c.sha.value] = c.time;
    return out;
}

bool completed(const SimRow& row) { return row.run.reported.status == RunStatus::Completed; }

bool isHex40(const std::string& text)
{
    return text.size() == 40 && std::all_of(text.begin(), text.end(), [](char c) {
               return std::isxdigit(static_cast<unsigned char>(c))
                      && !std::isupper(static_cast<unsigned char>(c));
           });
}

TEST(SimDataset, SameSeedGivesIdenticalRows)
{
    const SimDataset a = dataset(42);
    const SimDataset b = dataset(42);
    ASSERT_EQ(a.rows.size(), b.rows.size());
    for (std::size_t i = 0; i < a.rows.size(); ++i)
        ASSERT_TRUE(sameRow(a.rows[i], b.rows[i])) << "row " << i;
    EXPECT_EQ(a.commits, b.commits);
    EXPECT_EQ(a.stories.regressionFirstBadSha, b.stories.regressionFirstBadSha);
}

TEST(SimDataset, DifferentSeedGivesDifferentRows)
{
    const SimDataset a = dataset(1);
    const SimDataset b = dataset(2);
    EXPECT_NE(a.commits.front().sha, b.commits.front().sha);
    const std::size_t n = std::min(a.rows.size(), b.rows.size());
    std::size_t same = 0;
    for (std::size_t i = 0; i < n; ++i)
        same += sameRow(a.rows[i], b.rows[i]) ? 1U : 0U;
    EXPECT_EQ(same, 0U);
}

TEST(SimDataset, AllowlistSpansAllLevelsAndL1NeverReports)
{
    const auto& data = shared();
    EXPECT_GE(data.backends.size(), 6U);
    std::set<Level> levels;
    std::set<std::string> l1;
    for (const auto& b : data.backends) {
        levels.insert(b.level);
        EXPECT_NE(b.repo.find('/'), std::string::npos);
        EXPECT_FALSE(b.oncalls.empty());
        if (b.level == Level::L1)
            l1.insert(b.repo);
    }
    EXPECT_EQ(levels, (std::set<Level>{Level::L1, Level::L2, Level::L3, Level::L4}));
    EXPECT_FALSE(l1.empty());
    for (const auto& row : data.rows)
        EXPECT_EQ(l1.count(row.run.downstreamRepo), 0U) << row.run.downstreamRepo;
}

TEST(SimDataset, VolumeMeetsTheDefaults)
{
    const auto& data = shared();
    EXPECT_GE(data.commits.size(), 200U);
    EXPECT_GE(data.rows.size(), 2000U);
    std::map<std::string, std::set<std::pair<std::string, std::string>>> columns;
    for (const auto& row : data.rows)
        columns[row.run.downstreamRepo].insert({row.run.workflow, row.run.jobName});
    EXPECT_GE(columns.size(), 5U);
    for (const auto& [repo, jobs] : columns) {
        EXPECT_GE(jobs.size(), 4U) << repo;
        EXPECT_LE(jobs.size(), 12U) << repo;
    }
}

TEST(SimDataset, JobsScaleMultipliesTheMatrix)
{
    const SimDataset big = dataset(1, 3);
    std::map<std::string, std::set<std::string>> jobs;
    for (const auto& row : big.rows)
        jobs[row.run.downstreamRepo].insert(row.run.workflow + "/" + row.run.jobName);
    EXPECT_GT(big.rows.size(), shared().rows.size() * 2);
    EXPECT_GT(jobs["torch-spyre/torch-spyre"].size(), 12U);
}

TEST(SimDataset, CommitsLookLikeUpstreamHistory)
{
    const auto& data = shared();
    std::set<std::string> shas;
    std::map<EventType, int> kinds;
    for (const auto& c : data.commits) {
        EXPECT_TRUE(isHex40(c.sha.value)) << c.sha.value;
        EXPECT_TRUE(shas.insert(c.sha.value).second) << "duplicate " << c.sha.value;
        EXPECT_LT(c.time, kNow);
        EXPECT_GT(c.time, kNow - 11 * 24 * kHour);
        EXPECT_FALSE(c.title.empty());
        ++kinds[c.eventType];
        if (c.eventType == EventType::Nightly) {
            EXPECT_EQ(c.prNumber, 0);
            continue;
        }
        EXPECT_GE(c.prNumber, 150000);
        EXPECT_LE(c.prNumber, 170000);
        if (c.eventType == EventType::Push) {
            EXPECT_EQ(c.branch, "refs/tags/ciflow/trunk/" + std::to_string(c.prNumber));
        }
    }
    EXPECT_GT(kinds[EventType::PullRequest], 100);
    EXPECT_GT(kinds[EventType::Push], 10);
    EXPECT_GT(kinds[EventType::Nightly], 5);
    EXPECT_TRUE(std::is_sorted(data.commits.begin(), data.commits.end(),
                               [](const auto& a, const auto& b) { return a.time < b.time; }));
}

TEST(SimDataset, RowsAreConsistent)
{
    const auto& data = shared();
    const auto times = commitTimes(data);
    std::set<std::string> checkRuns;
    std::map<std::string, std::string> repoOfRun;
    for (const auto& row : data.rows) {
        const CheckRun& run = row.run;
        EXPECT_TRUE(checkRuns.insert(run.checkRunId.value).second) << run.checkRunId.value;
        EXPECT_TRUE(times.count(run.upstreamSha.value));
        ASSERT_TRUE(run.reported.startedAt.has_value());
        EXPECT_LT(*run.reported.startedAt, kNow);
        EXPECT_GE(run.runAttempt, 1);
        EXPECT_NE(run.reported.runUrl.find("/actions/runs/" + run.runId), std::string::npos);
        auto [it, fresh] = repoOfRun.emplace(run.runId, run.downstreamRepo);
        EXPECT_EQ(it->second, run.downstreamRepo) << "run id shared across repos";
        if (completed(row)) {
            ASSERT_TRUE(run.reported.completedAt.has_value());
            EXPECT_GE(*run.reported.completedAt, *run.reported.startedAt);
            EXPECT_NE(run.reported.conclusion, Conclusion::None);
            EXPECT_TRUE(run.trusted.executionTimeSeconds.has_value());
        } else {
            EXPECT_EQ(run.reported.status, RunStatus::InProgress);
            EXPECT_FALSE(run.reported.completedAt.has_value());
            EXPECT_EQ(run.reported.conclusion, Conclusion::None);
            EXPECT_FALSE(run.trusted.executionTimeSeconds.has_value());
            EXPECT_TRUE(run.reported.artifactUrl.empty());
        }
        if (run.eventType == EventType::Nightly) {
            EXPECT_EQ(run.prNumber, 0);
            EXPECT_EQ(row.deliveryId, run.upstreamSha.value);
            EXPECT_TRUE(completed(row)) << "nightlies only send a completed callback";
        }
    }
}

TEST(SimDataset, RerunsKeepTheRunAndGetANewCheckRun)
{
    const auto& data = shared();
    std::map<std::tuple<std::string, std::string, int>, const SimRow*> byAttempt;
    for (const auto& row : data.rows)
        byAttempt[{row.run.runId, row.run.jobName, row.run.runAttempt}] = &row;
    int reruns = 0;
    for (const auto& [key, row] : byAttempt) {
        const auto& [runId, job, attempt] = key;
        if (attempt < 2)
            continue;
        ++reruns;
        const auto previous = byAttempt.find({runId, job, attempt - 1});
        ASSERT_NE(previous, byAttempt.end()) << runId << " " << job;
        EXPECT_NE(previous->second->run.checkRunId, row->run.checkRunId);
        EXPECT_NE(previous->second->run.reported.conclusion, Conclusion::Success);
        EXPECT_GT(*row->run.reported.startedAt, *previous->second->run.reported.startedAt);
    }
    EXPECT_GT(reruns, 20);
}

TEST(SimDataset, RecentJobsAreStillRunning)
{
    int recent = 0;
    for (const auto& row : shared().rows)
        if (!completed(row) && *row.run.reported.startedAt > kNow - 2 * kHour)
            ++recent;
    EXPECT_GT(recent, 0);
}

TEST(SimDataset, RegressionFailsFromItsFirstBadCommitOnward)
{
    const auto& data = shared();
    const auto& s = data.stories;
    const auto times = commitTimes(data);
    ASSERT_TRUE(times.count(s.regressionFirstBadSha.value));
    ASSERT_FALSE(s.regressionTests.empty());
    const EpochSeconds start = times.at(s.regressionFirstBadSha.value);
    int before = 0;
    int after = 0;
    bool firstBadSeen = false;
    for (const auto& row : data.rows) {
        const CheckRun& run = row.run;
        if (run.downstreamRepo != s.regressionBackend || run.workflow != s.regressionWorkflow
            || run.jobName != s.regressionJob || !completed(row))
            continue;
        if (times.at(run.upstreamSha.value) < start) {
            ++before;
            EXPECT_EQ(run.reported.conclusion, Conclusion::Success) << run.upstreamSha.value;
            continue;
        }
        ++after;
        EXPECT_EQ(run.reported.conclusion, Conclusion::Failure) << run.upstreamSha.value;
        EXPECT_NE(row.failedTestsJson.find(s.regressionTests.front()), std::string::npos);
        firstBadSeen = firstBadSeen || run.upstreamSha == s.regressionFirstBadSha;
    }
    EXPECT_TRUE(firstBadSeen);
    EXPECT_GT(before, 50);
    EXPECT_GT(after, 20);
}

TEST(SimDataset, FlakyJobPassesOnRerun)
{
    const auto& s = shared().stories;
    std::map<std::string, std::map<int, Conclusion>> attempts; // run id -> attempt -> conclusion
    for (const auto& row : shared().rows)
        if (row.run.downstreamRepo == s.flakyBackend && row.run.workflow == s.flakyWorkflow
            && row.run.jobName == s.flakyJob && completed(row))
            attempts[row.run.runId][row.run.runAttempt] = row.run.reported.conclusion;
    int flaked = 0;
    for (const auto& [runId, byAttempt] : attempts) {
        const auto first = byAttempt.find(1);
        const auto second = byAttempt.find(2);
        if (first != byAttempt.end() && second != byAttempt.end()
            && first->second == Conclusion::Failure && second->second == Conclusion::Success)
            ++flaked;
    }
    EXPECT_GE(flaked, 2);
    EXPECT_NE(s.flakyBackend, s.regressionBackend);
}

TEST(SimDataset, OutageHitsSeveralBackendsAtOnce)
{
    const auto& s = shared().stories;
    ASSERT_GE(s.outageShas.size(), 2U);
    for (const Sha& sha : s.outageShas) {
        std::set<std::string> hit;
        for (const auto& row : shared().rows) {
            const Conclusion c = row.run.reported.conclusion;
            if (row.run.upstreamSha == sha && row.run.runAttempt == 1
                && (c == Conclusion::Failure || c == Conclusion::Cancelled))
                hit.insert(row.run.downstreamRepo);
        }
        EXPECT_GE(hit.size(), 3U) << sha.value;
    }
}

TEST(SimDataset, CancelledRunIsCancelled)
{
    const auto& s = shared().stories;
    int cancelled = 0;
    for (const auto& row : shared().rows)
        if (row.run.upstreamSha == s.cancelledSha && row.run.downstreamRepo == s.cancelledBackend) {
            EXPECT_EQ(row.run.reported.conclusion, Conclusion::Cancelled);
            ++cancelled;
        }
    EXPECT_GT(cancelled, 0);
}

TEST(SimDataset, ZombieIsStillInProgressAfterSixHours)
{
    const auto& s = shared().stories;
    int zombies = 0;
    for (const auto& row : shared().rows)
        if (row.run.upstreamSha == s.zombieSha && row.run.downstreamRepo == s.zombieBackend
            && row.run.jobName == s.zombieJob) {
            EXPECT_EQ(row.run.reported.status, RunStatus::InProgress);
            EXPECT_LT(*row.run.reported.startedAt, kNow - kStaleAfterSeconds);
            ++zombies;
        }
    EXPECT_EQ(zombies, 1);
}

TEST(SimDataset, SmallWorldsStillBuild)
{
    SimConfig config;
    config.now = kNow;
    for (int commits : {1, 2, 5, 19}) {
        config.commits = commits;
        const SimDataset data = buildDataset(config);
        EXPECT_EQ(data.commits.size(), static_cast<std::size_t>(commits));
    }
}

} // namespace
} // namespace relayhud::sim
