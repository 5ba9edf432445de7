// The simulator's dataset: deterministic, big enough, shaped like the HUD's
// crcr_workflow_job table, and carrying the stories the other tests rely on.
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/util/hash.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace relayhud::sim {
namespace {

using relayhud::test::kNow;
constexpr EpochSeconds kHour = 3600;
// See storiesDigest() below. Changed on purpose since: the linear regression
// story became the broken-trunk culprit's (issue 15), so the story stream draws
// differently. And again: story commits are PR heads only (a push row has no
// PR number and no SHA on the HUD, specs/hud-read-api.md S1).
// And again (issue 34): the artifact-URL Spyre backend the stories pick is
// named spyre-labs/spyre-inductor-ci (torch-spyre/torch-spyre now reports as
// the real one does), and nightlies sit on main commits, titled as main's.
constexpr std::uint64_t kStoriesDigest = 2313557462927183475ULL;
constexpr std::uint64_t kCommitsDigest = 11011586976830818821ULL;
// Rows changed once on purpose since: torch-spyre's own test files are
// reported through their run_test.sh wrapper (`..__oot_wrapper.py`), which
// the failed-test lists of its rows name. And again: every failure has a
// known cause (issue 15), so random noise gave way to the cause stories.
// And again (issue 16): rows as the real HUD stores them (pushes without PR or
// SHA, nightly timings, the sweeper's timeouts, run URLs without /attempts),
// the probe, busy and departed backends, and closed/reopened re-dispatches.
// And again (issue 34): that rename, and torch-spyre/torch-spyre and
// TorchedHat/pytorch-redhat-ci appended as their real reporters send rows.
// And again (issue 37): a backend change on a whole job family, a late one,
// flaky tests that fail twice in a row, and torch-spyre's random misses
// drawn from failures that are no device-busy errors. And again: a PR's run
// on the backend that checks out main carries none of the PR's changes.
constexpr std::uint64_t kRowsDigest = 5051502191359483057ULL;

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
    return a.run == b.run && a.testedSha == b.testedSha && a.specJob == b.specJob
           && a.deliveryId == b.deliveryId && a.eventTypeText == b.eventTypeText
           && a.failedTestsJson == b.failedTestsJson && a.environmentJson == b.environmentJson
           && a.startedMicros == b.startedMicros && a.completedMicros == b.completedMicros;
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
        // The busy backend's test legs all report job_name "test"; torch-spyre
        // reports from one job, `linux-x86_64 / pytorch / test`
        // (real-backends.md 1.5).
        if (repo == "ROCm/torch-rocm-ext" || repo == "torch-spyre/torch-spyre")
            continue;
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
    EXPECT_GT(jobs["spyre-labs/spyre-inductor-ci"].size(), 12U);
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
            EXPECT_FALSE(c.prNumber);
            continue;
        }
        EXPECT_GE(c.prNumber.value, 150000);
        EXPECT_LE(c.prNumber.value, 170000);
        if (c.eventType == EventType::Push) {
            EXPECT_EQ(c.branch, "refs/tags/ciflow/trunk/" + std::to_string(c.prNumber.value));
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
    std::set<std::string> mergeCommits;
    for (const SimPullRequest& pr : data.pulls)
        if (pr.merged())
            mergeCommits.insert(pr.mergeCommitSha.value);
    for (const auto& row : data.rows) {
        const CheckRun& run = row.run;
        EXPECT_TRUE(checkRuns.insert(run.checkRunId.value).second) << run.checkRunId.value;
        // torch-spyre tests main's HEAD when a PR merged (real-backends.md
        // 3.1): a merge commit, which no row is keyed by.
        EXPECT_TRUE(times.count(row.testedSha.value) || mergeCommits.count(row.testedSha.value))
            << row.testedSha.value;
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
            // Nightlies bypass the relay's state machine: no timings.
            EXPECT_EQ(run.trusted.executionTimeSeconds.has_value(),
                      run.eventType != EventType::Nightly);
        } else {
            EXPECT_EQ(run.reported.status, RunStatus::InProgress);
            EXPECT_FALSE(run.reported.completedAt.has_value());
            EXPECT_EQ(run.reported.conclusion, Conclusion::None);
            EXPECT_FALSE(run.trusted.executionTimeSeconds.has_value());
            EXPECT_TRUE(run.reported.artifactUrl.empty());
        }
        if (run.eventType == EventType::Nightly) {
            EXPECT_FALSE(run.prNumber);
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
        byAttempt[{row.run.runId, row.specJob, row.run.runAttempt}] = &row;
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

// The broken-trunk culprit's job fails its test exactly on the culprit's own
// heads and on main-based runs (PR heads but the fix's, nightlies) between the
// culprit's merge and the fix; it is clean everywhere else.
bool brokenAt(const SimDataset& data, const CheckRun& run, EpochSeconds time,
              const std::string& branch)
{
    for (const SimBrokenTrunk& b : data.stories.brokenTrunk) {
        if (b.job != run.jobName || b.backend != run.downstreamRepo)
            continue;
        if (run.eventType == EventType::PullRequest && run.prNumber == b.culpritPr)
            return true;
        const bool mainBased = run.eventType == EventType::Nightly || branch == "main";
        if (time >= b.mergedAt && time < b.fixedAt && mainBased && run.prNumber != b.fixPr)
            return true;
    }
    return false;
}

TEST(SimDataset, BrokenTrunkFailsOnTheCulpritsHeadsAndUntilTheFix)
{
    const auto& data = shared();
    const auto& s = data.stories;
    const auto times = commitTimes(data);
    std::map<std::string, std::string> branches;
    for (const auto& c : data.commits)
        branches[c.sha.value] = c.branch;
    ASSERT_TRUE(times.count(s.regressionFirstBadSha.value));
    ASSERT_EQ(s.regressionTests.size(), 1U);
    int clean = 0;
    int broken = 0;
    bool firstBadSeen = false;
    for (const auto& row : data.rows) {
        const CheckRun& run = row.run;
        if (run.downstreamRepo != s.regressionBackend || run.workflow != s.regressionWorkflow
            || run.jobName != s.regressionJob || !completed(row)
            || run.eventType == EventType::Push)
            continue;
        const std::string& sha = row.testedSha.value;
        if (!brokenAt(data, run, times.at(sha), branches.at(sha))) {
            ++clean;
            EXPECT_EQ(run.reported.conclusion, Conclusion::Success) << sha;
            continue;
        }
        ++broken;
        EXPECT_EQ(run.reported.conclusion, Conclusion::Failure) << sha;
        EXPECT_NE(row.failedTestsJson.find(s.regressionTests.front()), std::string::npos);
        firstBadSeen = firstBadSeen || row.testedSha == s.regressionFirstBadSha;
    }
    EXPECT_TRUE(firstBadSeen);
    EXPECT_GT(clean, 50);
    EXPECT_GT(broken, 5);
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

TEST(SimDataset, SomePullRequestsTargetAReleaseBranch)
{
    const auto& data = shared();
    int prHeads = 0;
    int release = 0;
    std::map<PrNumber, std::string> baseOfPr;
    for (const auto& c : data.commits) {
        if (c.eventType != EventType::PullRequest)
            continue;
        ++prHeads;
        if (c.branch.rfind("release/", 0) == 0)
            ++release;
        else
            EXPECT_EQ(c.branch, "main") << c.sha.value;
        // A PR's base ref is the PR's, whichever head is dispatched.
        const auto [it, inserted] = baseOfPr.emplace(c.prNumber, c.branch);
        EXPECT_EQ(it->second, c.branch) << "PR " << c.prNumber.value;
    }
    EXPECT_GE(release, 1);
    EXPECT_LT(release * 100, prHeads * 15) << release << " of " << prHeads;
}

// A digest of what the stories and draws were before the incomplete-green
// story and the release branches were added: both draw from streams of their
// own, so the commits (but their branch), the other stories and the rows of
// every other job stay exactly as they were. Computed with that older code
// for seed 1 and kNow; change it only when a change to them is meant.
std::uint64_t storiesDigest(const SimDataset& data)
{
    const SimStories& s = data.stories;
    std::string text = s.regressionBackend + s.regressionWorkflow + s.regressionJob
                       + s.regressionFirstBadSha.value + s.flakyBackend + s.flakyWorkflow
                       + s.flakyJob + s.flakyTest + s.cancelledSha.value + s.cancelledBackend
                       + s.zombieSha.value + s.zombieBackend + s.zombieJob + s.hiddenFailureBackend
                       + s.hiddenFailureWorkflow + s.hiddenFailureJob;
    for (const auto& list : {s.regressionTests, s.outageBackends, s.hiddenFailureTests})
        for (const std::string& item : list)
            text += "|" + item;
    for (const auto& list : {s.outageShas, s.hiddenFailureShas})
        for (const Sha& sha : list)
            text += "|" + sha.value;
    return fnv1a(text);
}

std::uint64_t commitsDigest(const SimDataset& data)
{
    std::string text;
    for (const auto& c : data.commits)
        text += c.sha.value + std::to_string(c.prNumber.value) + std::to_string(c.time) + c.title
                + c.author + "|";
    return fnv1a(text);
}

// Every row but the counts of the incomplete-green story's own rows (its
// JUnit lacks a file, so its counts are smaller by design).
std::uint64_t rowsDigest(const SimDataset& data)
{
    const SimStories& s = data.stories;
    std::string text;
    for (const auto& row : data.rows) {
        const CheckRun& r = row.run;
        text += r.downstreamRepo + r.upstreamSha.value + r.workflow + r.jobName
                + std::to_string(r.runAttempt) + r.checkRunId.value + r.runId
                + std::to_string(r.reported.startedAt.value_or(0))
                + std::to_string(r.reported.completedAt.value_or(0))
                + std::string(toString(r.reported.conclusion)) + r.reported.artifactUrl
                + row.failedTestsJson;
        const bool story =
            r.downstreamRepo == s.incompleteGreenBackend && r.jobName == s.incompleteGreenJob
            && std::count(s.incompleteGreenShas.begin(), s.incompleteGreenShas.end(), r.upstreamSha)
                   != 0;
        if (r.reported.tests && !story)
            text += std::to_string(r.reported.tests->total) + "/"
                    + std::to_string(r.reported.tests->skipped);
        text += "|";
    }
    return fnv1a(text);
}

TEST(SimDataset, ExistingStoriesCommitsAndRowsAreUnchanged)
{
    const auto& data = shared();
    EXPECT_EQ(storiesDigest(data), kStoriesDigest);
    EXPECT_EQ(commitsDigest(data), kCommitsDigest);
    EXPECT_EQ(rowsDigest(data), kRowsDigest);
}

TEST(SimDataset, IncompleteGreenStoryDropsAFileAndCountsAgree)
{
    const auto& data = shared();
    const SimStories& s = data.stories;
    ASSERT_EQ(s.incompleteGreenShas.size(), 3U);
    ASSERT_FALSE(s.incompleteGreenFile.empty());
    ASSERT_FALSE(s.incompleteGreenMissingTests.empty());
    EXPECT_FALSE(s.incompleteGreenJob == s.regressionJob
                 && s.incompleteGreenBackend == s.regressionBackend);
    const SimArtifacts truth(data);
    int stories = 0;
    int others = 0;
    for (const auto& row : data.rows) {
        const auto& r = row.run;
        if (r.downstreamRepo != s.incompleteGreenBackend || r.jobName != s.incompleteGreenJob
            || !completed(row) || !r.reported.tests)
            continue;
        const bool story =
            std::count(s.incompleteGreenShas.begin(), s.incompleteGreenShas.end(), r.upstreamSha)
            != 0;
        if (!story && others >= 2)
            continue;
        const auto reports = truth.reports(row);
        ASSERT_FALSE(reports.empty());
        std::int64_t tests = 0, skipped = 0, failed = 0;
        bool hasFile = false;
        for (const auto& report : reports) {
            tests += report.tests;
            skipped += report.skipped;
            failed += report.failures + report.errors;
            hasFile =
                hasFile
                || report.xml.find("file=\"" + s.incompleteGreenFile + "\"") != std::string::npos;
        }
        EXPECT_EQ(tests, r.reported.tests->total);
        EXPECT_EQ(skipped, r.reported.tests->skipped);
        if (story) {
            EXPECT_EQ(r.reported.conclusion, Conclusion::Success);
            EXPECT_FALSE(r.reported.artifactUrl.empty());
            EXPECT_EQ(failed, 0);
            EXPECT_FALSE(hasFile) << r.upstreamSha.value;
            ++stories;
        } else {
            EXPECT_TRUE(hasFile) << "an ordinary run collects " << s.incompleteGreenFile;
            ++others;
        }
    }
    EXPECT_EQ(stories, 3);
    EXPECT_EQ(others, 2);
}

} // namespace
} // namespace relayhud::sim
