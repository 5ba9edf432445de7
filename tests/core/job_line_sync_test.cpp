// The job-line pass of ArtifactSync over a real SQLite cache and FakeGitHub
// on loopback: failed runs' logs are fetched and their line stored; a missing
// log is final, a refused one is asked again only after the retry delay; user
// rule files come after the defaults, a bad one is reported; a new rule set
// picks again.
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/triage/job_line.h"

#include "relayhud/util/time.h"

#include "artifact_test_support.h"
#include "github_sync_fixture.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstdio>

namespace {

using namespace std::chrono_literals;
using namespace relayhud;
using relayhud::test::FakeGitHub;

class JobLineSyncTest : public relayhud::test::GitHubSyncTest {
protected:
    JobLineSyncTest() : GitHubSyncTest("job-line-sync") {}

    // A finished run of job `index` without artifacts; its GitHub job id is
    // 2000 + index.
    CheckRunRow addRun(int index, Conclusion conclusion)
    {
        const EpochSeconds now = nowSeconds();
        CheckRun run = relayhud::testing::completedRun(
            std::string(40, static_cast<char>('a' + index)),
            "test (default, " + std::to_string(index) + ")", 1, conclusion, now - 3600);
        run.checkRunId = CheckRunId{std::to_string(2000 + index)};
        run.reported.artifactUrl.clear();
        return relayhud::testing::addRun(*m_cache, run, now - 3600);
    }
    ArtifactSync sync() { return ArtifactSync(*m_cache, *m_fetcher, m_settings); }
    JobFailureLine lineOf(CheckRunRow row)
    {
        auto line = EvidenceStore(*m_cache).jobFailureLine(row);
        EXPECT_TRUE(line && *line) << "no line for row " << row.value;
        return line && *line ? **line : JobFailureLine{};
    }
};

// A whole log ends with the runner's "Complete job" step (kRunnerLastLine);
// one that does not is taken for a download cut short.
std::string whole(const std::string& log)
{
    return log + "2026-05-04T10:09:59.0000000Z " + std::string(kRunnerLastLine);
}

const std::string kRunnerLost = whole("2026-05-04T10:00:00.0000000Z Set up job\n"
                                      "2026-05-04T10:00:01.0000000Z ##[error]The self-hosted "
                                      "runner: gpu-7 lost communication with the server.\n");

TEST_F(JobLineSyncTest, FailedRunsLogsAreReadAndTheirLineKept)
{
    const auto failed = addRun(0, Conclusion::Failure);
    const auto cancelled = addRun(1, Conclusion::Cancelled);
    const auto quiet = addRun(2, Conclusion::TimedOut);
    const auto green = addRun(3, Conclusion::Success);
    const auto gone = addRun(4, Conclusion::Failure);
    m_github.logs["2000"] = kRunnerLost;
    m_github.logs["2001"] = whole("line one\n##[error]The operation was canceled.\n");
    m_github.logs["2002"] = whole("nothing to see\n");
    m_github.logs["2003"] = kRunnerLost;

    auto report = sync().run({});
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->jobLogs, 4);
    EXPECT_EQ(report->jobLinesPicked, 2);
    EXPECT_EQ(report->jobLinesNoMatch, 1);
    EXPECT_EQ(report->jobLogsMissing, 1);
    EXPECT_EQ(report->jobLogsFailed, 0);
    EXPECT_TRUE(report->jobLineErrors.empty()) << "a gone log is no error";

    const auto line = lineOf(failed);
    EXPECT_EQ(line.state, JobLineState::Matched);
    EXPECT_EQ(line.rule, "Runner lost");
    EXPECT_EQ(line.cls, triage::FailureClass::Infra);
    EXPECT_EQ(line.line, 2u);
    EXPECT_EQ(line.rulesHash, triage::ruleSetHash(triage::defaultRuleSet()));
    ASSERT_FALSE(line.logHash.empty());
    EXPECT_TRUE(m_blobs->path(line.logHash)) << "the log is kept in the content cache";
    EXPECT_EQ(lineOf(cancelled).rule, "Job cancelled");
    EXPECT_EQ(lineOf(quiet).state, JobLineState::NoMatch);
    EXPECT_EQ(lineOf(gone).state, JobLineState::NoLog);
    EXPECT_FALSE(*EvidenceStore(*m_cache).jobFailureLine(green)) << "a green run's log is not read";

    const int asked = m_github.requestsTo("/logs");
    auto again = sync().run({});
    ASSERT_TRUE(again);
    EXPECT_EQ(again->jobLogs, 0) << "each line is picked once, a gone log never again";
    EXPECT_EQ(m_github.requestsTo("/logs"), asked);

    ArtifactSyncOptions off;
    off.jobLines = false;
    const auto later = addRun(5, Conclusion::Failure);
    ASSERT_TRUE(sync().run(off));
    EXPECT_FALSE(*EvidenceStore(*m_cache).jobFailureLine(later));
}

// The tested-SHA evidence: a failed run's checkouts come with its line; the
// newest greens' logs are read for theirs; a refused one is asked again only
// after the retry delay, a gone or read one never.
TEST_F(JobLineSyncTest, GreensLogsAreSampledForWhatTheyCheckedOut)
{
    const auto checkout = [](const std::string& sha) {
        return "2026-05-04T10:00:00.0000000Z Syncing repository: pytorch/pytorch\n"
               "2026-05-04T10:00:01.0000000Z [command]/usr/bin/git log -1 --format=%H\n"
               "2026-05-04T10:00:01.0000000Z "
               + sha + "\n";
    };
    const auto failed = addRun(0, Conclusion::Failure);
    const auto green = addRun(1, Conclusion::Success);
    const auto gone = addRun(2, Conclusion::Success);
    m_github.logs["2000"] = whole(checkout(std::string(40, 'a')) + kRunnerLost);
    m_github.logs["2001"] = whole(checkout(std::string(40, 'f')));

    auto report = sync().run({});
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->jobLogs, 1);
    EXPECT_EQ(report->checkoutLogs, 2);
    EXPECT_EQ(report->checkoutLogsUnread, 1);
    EXPECT_TRUE(report->jobLineErrors.empty()) << "a gone log is no error";
    const auto checkoutsOf = [&](CheckRunRow row) {
        auto read = CheckoutStore(*m_cache).logCheckouts(row);
        EXPECT_TRUE(read) << read.message();
        return read ? *read : std::nullopt;
    };
    EXPECT_EQ(checkoutsOf(failed),
              (std::vector<LogCheckout>{{"pytorch/pytorch", std::string(40, 'a'), 3}}));
    EXPECT_EQ(checkoutsOf(green),
              (std::vector<LogCheckout>{{"pytorch/pytorch", std::string(40, 'f'), 3}}));
    EXPECT_FALSE(checkoutsOf(gone)) << "a gone log is not one that shows no checkout";

    const int asked = m_github.requestsTo("/logs");
    ArtifactSyncOptions later;
    later.retryAfterSeconds = -60; // as if the delay had passed
    auto again = sync().run(later);
    ASSERT_TRUE(again);
    EXPECT_EQ(again->checkoutLogs, 0) << "read and gone logs are never asked again";
    EXPECT_EQ(m_github.requestsTo("/logs"), asked);

    // A refused one is asked again, after the delay only.
    const auto refused = addRun(3, Conclusion::Success);
    m_github.logs["2003"] = whole("2026-05-04T10:00:00.0000000Z pip install torch\n");
    useToken("ghs_wrong");
    auto denied = sync().run({});
    ASSERT_TRUE(denied) << denied.message();
    EXPECT_EQ(denied->checkoutLogsUnread, 1);
    EXPECT_EQ(denied->jobLineErrors.size(), 1u);
    useToken(FakeGitHub::kToken);
    auto soon = sync().run({});
    ASSERT_TRUE(soon);
    EXPECT_EQ(soon->checkoutLogs, 0) << "not before retryAfterSeconds";
    auto retried = sync().run(later);
    ASSERT_TRUE(retried) << retried.message();
    EXPECT_EQ(retried->checkoutLogs, 1);
    EXPECT_EQ(checkoutsOf(refused), std::vector<LogCheckout>{}) << "read: it shows no checkout";

    ArtifactSyncOptions none;
    none.checkoutSample = 0;
    addRun(4, Conclusion::Success);
    auto off = sync().run(none);
    ASSERT_TRUE(off);
    EXPECT_EQ(off->checkoutLogs, 0);
}

TEST_F(JobLineSyncTest, ARefusedLogIsAskedAgainOnlyAfterTheRetryDelay)
{
    const auto row = addRun(0, Conclusion::Failure);
    m_github.logs["2000"] = kRunnerLost;
    useToken("ghs_wrong");
    auto report = sync().run({});
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->jobLogsFailed, 1);
    ASSERT_EQ(report->jobLineErrors.size(), 1u);
    EXPECT_EQ(report->jobLineErrors[0].find("ghs_wrong"), std::string::npos) << "never the token";
    EXPECT_EQ(lineOf(row).state, JobLineState::FetchFailed);
    EXPECT_FALSE(lineOf(row).message.empty());

    useToken(FakeGitHub::kToken);
    auto soon = sync().run({});
    ASSERT_TRUE(soon);
    EXPECT_EQ(soon->jobLogs, 0) << "not before retryAfterSeconds";
    ArtifactSyncOptions later;
    later.retryAfterSeconds = -60; // as if the delay had passed
    auto retried = sync().run(later);
    ASSERT_TRUE(retried) << retried.message();
    EXPECT_EQ(retried->jobLinesPicked, 1);
    EXPECT_EQ(lineOf(row).state, JobLineState::Matched);
}

TEST_F(JobLineSyncTest, UserRulesComeAfterTheDefaultsAndANewSetPicksAgain)
{
    const auto row = addRun(0, Conclusion::Failure);
    m_github.logs["2000"] = whole("setup\nQUOTA: project spyre-ci has no GPU hours left\n");
    auto first = sync().run({});
    ASSERT_TRUE(first);
    EXPECT_EQ(lineOf(row).state, JobLineState::NoMatch);

    ArtifactSyncOptions withRules;
    withRules.ruleFiles = {m_scratch->write("ours.toml",
                                            "[[rule]]\nname = 'Out of GPU hours'\n"
                                            "pattern = '^QUOTA: project (\\S+) has no GPU hours'\n"
                                            "class = 'infra'\n"
                                            "[[rule]]\nname = 'Broken'\npattern = '(?=x)'\n"),
                           m_scratch->file("missing.toml")};
    auto report = sync().run(withRules);
    ASSERT_TRUE(report) << report.message();
    EXPECT_EQ(report->jobLogs, 1) << "another rule set: picked again";
    const auto line = lineOf(row);
    EXPECT_EQ(line.rule, "Out of GPU hours");
    EXPECT_EQ(line.cls, triage::FailureClass::Infra);
    EXPECT_EQ(line.captures, (std::vector<std::string>{"spyre-ci"}));
    EXPECT_EQ(line.line, 2u);
    ASSERT_EQ(report->jobLineErrors.size(), 2u);
    EXPECT_NE(report->jobLineErrors[0].find("missing.toml"), std::string::npos)
        << report->jobLineErrors[0];
    EXPECT_NE(report->jobLineErrors[1].find("ours.toml:"), std::string::npos)
        << report->jobLineErrors[1];
    EXPECT_NE(report->jobLineErrors[1].find("Broken"), std::string::npos)
        << report->jobLineErrors[1];
}

// A log cut on the way (no runner's last line) is asked again, its blob
// dropped; cut again, it is read as it is and asked again after the retry
// delay, so a whole download later replaces what the cut one gave.
TEST_F(JobLineSyncTest, ALogWithoutTheRunnersLastLineIsAskedAgainThenReadAsItIs)
{
    const auto failed = addRun(0, Conclusion::Failure);
    const std::string cut = "2026-05-04T10:00:00.0000000Z Set up job\n"
                            "2026-05-04T10:00:01.0000000Z ##[error]The self-hosted runner: "
                            "gpu-7 lost communication with the server.\n";
    m_github.logs["2000"] = cut;
    ArtifactSyncOptions now;
    now.retryAfterSeconds = -60; // as if the delay had passed
    auto first = sync().run(now);
    ASSERT_TRUE(first) << first.message();
    EXPECT_EQ(first->jobLogsFailed, 1);
    JobFailureLine line = lineOf(failed);
    EXPECT_EQ(line.state, JobLineState::FetchFailed);
    EXPECT_TRUE(line.message.starts_with(kLogBrokeOffMessage)) << line.message;
    const int perFetch = m_github.requestsTo("/logs");

    auto second = sync().run(now);
    ASSERT_TRUE(second) << second.message();
    EXPECT_EQ(second->jobLinesPicked, 1);
    line = lineOf(failed);
    EXPECT_EQ(line.state, JobLineState::Matched);
    EXPECT_EQ(line.rule, "Runner lost");
    EXPECT_TRUE(line.message.starts_with(kLogBrokeOffMessage)) << line.message;
    EXPECT_EQ(m_github.requestsTo("/logs"), 2 * perFetch) << "downloaded again, not reused";

    auto early = sync().run({});
    ASSERT_TRUE(early);
    EXPECT_EQ(early->jobLogs, 0) << "not asked again before the retry delay";

    m_github.logs["2000"] = whole(cut + "2026-05-04T10:00:02.0000000Z Cleaning up\n");
    auto later = sync().run(now);
    ASSERT_TRUE(later) << later.message();
    EXPECT_EQ(later->jobLogs, 1);
    line = lineOf(failed);
    EXPECT_EQ(line.state, JobLineState::Matched);
    EXPECT_EQ(line.message, "") << "a whole log: final";
    auto done = sync().run(now);
    ASSERT_TRUE(done);
    EXPECT_EQ(done->jobLogs, 0);
}

} // namespace

// Issue 36: a pass read at most 200 failed jobs' logs, so a SHA's red jobs
// sat under "others" with "sync artifacts to read it". A whole pass now
// reads every log it needs, a page at a time; a capped pass says how many
// it left, and the next pass reads exactly those.
TEST_F(JobLineSyncTest, APassReadsEveryFailedJobsLogOrSaysHowManyItLeft)
{
    constexpr int kFailed = 230; // more than a page (ArtifactSyncOptions::pageRuns)
    const EpochSeconds now = nowSeconds();
    std::vector<CheckRunRow> rows;
    for (int i = 0; i < kFailed; ++i) {
        char sha[41];
        std::snprintf(sha, sizeof sha, "%040x", 0x5000 + i);
        CheckRun run = relayhud::testing::completedRun(sha, "test (default, 1, 1)", 1,
                                                       Conclusion::Failure, now - 3600 - i);
        run.checkRunId = CheckRunId{std::to_string(70000 + i)};
        run.reported.artifactUrl.clear();
        rows.push_back(relayhud::testing::addRun(*m_cache, run, now - 3600 - i));
        m_github.logs[run.checkRunId.value] = kRunnerLost;
    }
    // The default pass: no cap, pages of 200.
    ArtifactSyncOptions all;
    all.checkoutSample = 0;
    auto first = sync().run(all);
    ASSERT_TRUE(first) << first.message();
    EXPECT_EQ(first->jobLogs, kFailed);
    EXPECT_EQ(first->jobLinesPicked, kFailed);
    EXPECT_EQ(first->jobLogsLeft, 0);
    for (const CheckRunRow row : rows)
        EXPECT_EQ(lineOf(row).state, JobLineState::Matched) << row.value;

    // Another rule set queues every log again. A capped pass says what it left ...
    ArtifactSyncOptions capped = all;
    capped.ruleFiles = {m_scratch->write("ours.toml", "[[rule]]\nname = 'Quota'\n"
                                                      "pattern = '^QUOTA: no GPU hours'\n"
                                                      "class = 'infra'\n")};
    capped.maxRuns = 120;
    auto second = sync().run(capped);
    ASSERT_TRUE(second) << second.message();
    EXPECT_EQ(second->jobLogs, 120);
    EXPECT_EQ(second->jobLogsLeft, kFailed - 120);

    // ... and the next pass, in pages of 40, reads exactly those.
    ArtifactSyncOptions rest = capped;
    rest.maxRuns = 0;
    rest.pageRuns = 40;
    auto third = sync().run(rest);
    ASSERT_TRUE(third) << third.message();
    EXPECT_EQ(third->jobLogs, kFailed - 120);
    EXPECT_EQ(third->jobLogsLeft, 0);
    auto fourth = sync().run(rest);
    ASSERT_TRUE(fourth) << fourth.message();
    EXPECT_EQ(fourth->jobLogs, 0);

    // A cancelled pass (the GUI's Stop) says what it left.
    for (int i = 0; i < 6; ++i) {
        char sha[41];
        std::snprintf(sha, sizeof sha, "%040x", 0x9000 + i);
        CheckRun run = relayhud::testing::completedRun(sha, "test (default, 1, 1)", 1,
                                                       Conclusion::Failure, now - 60 - i);
        run.checkRunId = CheckRunId{std::to_string(90000 + i)}; // with its artifacts
        relayhud::testing::addRun(*m_cache, run, now - 60 - i);
    }
    const std::atomic<bool> stop{true}; // Stop pressed as the pass starts
    auto cancelled = sync().run(rest, {}, &stop);
    ASSERT_FALSE(cancelled);
    EXPECT_EQ(cancelled.message(), "artifact sync cancelled: left 6 runs' test results "
                                   "unfetched; the next sync reads them");
}
