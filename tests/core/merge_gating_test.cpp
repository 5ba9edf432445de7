// Merge gating (issue 34, part 8) on hand-made facts copied from the real
// rules: pytorch/test-infra @61a77570f45416dc425c17d4a648376541a84732,
// torchci/lib/bot/pytorchBotHandler.ts L686-759 (the merge bot),
// torchci/pages/api/drci/drci.ts L296-320, L804-830 and
// torchci/lib/fetchRecentWorkflows.ts L16-60 (Dr. CI); summarised in
// ../shared/specs/real-backends.md section 5. And the gathering from a cache.
#include "relayhud/store/run_store.h"
#include "relayhud/verdict/merge_gating.h"
#include "relayhud/verdict/report.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace {

using namespace relayhud;
using namespace relayhud::verdict;

const Sha kHead{"2222222222222222222222222222222222222222"};
const Sha kEarlier{"1111111111111111111111111111111111111111"};
constexpr PrNumber kPr{4242};

CheckRun row(const std::string& repo, const std::string& job, Conclusion conclusion,
             const Sha& sha = kHead, int attempt = 1)
{
    CheckRun r;
    r.downstreamRepo = repo;
    r.upstreamSha = sha;
    r.prNumber = kPr;
    r.eventType = EventType::PullRequest;
    r.workflow = "crcr";
    r.jobName = job;
    r.checkRunId = CheckRunId{repo + job + sha.value + std::to_string(attempt)};
    r.runId = "77";
    r.runAttempt = attempt;
    r.reported.status = RunStatus::Completed;
    r.reported.conclusion = conclusion;
    r.reported.startedAt = 1000 + attempt;
    return r;
}

CheckRun pending(const std::string& repo, const std::string& job)
{
    CheckRun r = row(repo, job, Conclusion::None);
    r.reported.status = RunStatus::InProgress;
    return r;
}

MergeGatingFacts facts(std::vector<CheckRun> runs)
{
    MergeGatingFacts f;
    f.prNumber = kPr;
    f.head = kHead;
    f.runs = std::move(runs);
    f.allowlistLevels = {{"org/l4", Level::L4}, {"org/l3", Level::L3}, {"org/l2", Level::L2}};
    return f;
}

// The head's check run of `job`, of org/l4 unless `repo` says otherwise.
const BotCheck* checkOf(const MergeGating& g, const std::string& job,
                        const std::string& repo = "org/l4")
{
    const auto it = std::find_if(g.bot.checks.begin(), g.bot.checks.end(), [&](const BotCheck& c) {
        return c.run.jobName == job && c.repo == repo;
    });
    return it == g.bot.checks.end() ? nullptr : &*it;
}

// pytorchBotHandler.ts L735-752: isBlocking (L4) and (conclusion == "failure"
// or status != "completed"); BLOCKING_CONCLUSIONS = {"failure"} (L702).
TEST(MergeGating, OnlyAFailedOrPendingL4CheckBlocks)
{
    const MergeGating g = judgeMergeGating(facts({
        row("org/l4", "fails", Conclusion::Failure),
        row("org/l4", "cancels", Conclusion::Cancelled),
        row("org/l4", "times-out", Conclusion::TimedOut),
        row("org/l4", "passes", Conclusion::Success),
        pending("org/l4", "runs"),
        row("org/l3", "fails", Conclusion::Failure),
        pending("org/l3", "runs"),
    }));
    EXPECT_TRUE(g.bot.blocks);
    EXPECT_EQ(g.bot.blockingRepos, std::vector<std::string>{"org/l4"}); // each repo once
    EXPECT_TRUE(checkOf(g, "fails")->blocks);
    EXPECT_TRUE(checkOf(g, "runs")->blocks);
    EXPECT_FALSE(checkOf(g, "cancels")->blocks);
    EXPECT_FALSE(checkOf(g, "times-out")->blocks);
    EXPECT_FALSE(checkOf(g, "passes")->blocks);
    for (const BotCheck& c : g.bot.checks)
        if (c.repo == "org/l3") {
            EXPECT_FALSE(c.blocks) << c.name; // L3 never blocks
            EXPECT_NE(c.reason.find("L3 never blocks"), std::string::npos);
        }
    EXPECT_EQ(checkOf(g, "fails")->name, "crcr/org/l4/crcr/fails"); // gh_helper.check_run_name
    EXPECT_TRUE(g.bot.checks.front().blocks);                       // blocking first
    // L3 check runs exist only with the PR's label, which the HUD's rows do not carry.
    EXPECT_TRUE(std::any_of(g.notes.begin(), g.notes.end(), [](const std::string& n) {
        return n.find("ciflow/crcr/<device>") != std::string::npos;
    }));
}

// Below L3 the relay creates no check run (callback_handler.py L370), so an
// L2 row on the head is none of the bot's business.
TEST(MergeGating, RowsBelowL3AreNoCheckRuns)
{
    const MergeGating g = judgeMergeGating(facts({row("org/l2", "fails", Conclusion::Failure)}));
    EXPECT_TRUE(g.bot.checks.empty());
    EXPECT_EQ(g.bot.withoutCheckRun, 1);
    EXPECT_FALSE(g.bot.blocks);
    EXPECT_NE(g.bot.summary.find("no L3 or L4 CRCR check run"), std::string::npos);
}

TEST(MergeGating, CancelledAndTimedOutL4AndAnyL3DoNotBlock)
{
    const MergeGating g = judgeMergeGating(facts({
        row("org/l4", "cancels", Conclusion::Cancelled),
        row("org/l4", "times-out", Conclusion::TimedOut),
        row("org/l3", "fails", Conclusion::Failure),
    }));
    EXPECT_FALSE(g.bot.blocks);
    EXPECT_TRUE(g.bot.blockingRepos.empty());
    EXPECT_NE(g.bot.summary.find("nothing blocks"), std::string::npos);
}

// listForRef(ref: headSha, filter: "latest") (L707-717): only the head's
// check runs, the newest of each name.
TEST(MergeGating, TheBotReadsTheNewestCheckRunOfEachNameOnTheHeadOnly)
{
    CheckRun retried = row("org/l4", "flaky", Conclusion::Success, kHead, 2);
    const MergeGating g = judgeMergeGating(facts({
        row("org/l4", "flaky", Conclusion::Failure, kHead, 1), retried,
        row("org/l4", "old", Conclusion::Failure, kEarlier), // an earlier head
    }));
    EXPECT_FALSE(g.bot.blocks);
    ASSERT_EQ(g.bot.checks.size(), 1U);
    EXPECT_EQ(g.bot.checks[0].run.runAttempt, 2);
}

// Check runs come from PR callbacks only (callback_handler.py L371-374):
// rows of another event on the head's SHA make none.
TEST(MergeGating, RowsOfOtherEventsMakeNoCheckRun)
{
    CheckRun push = row("org/l4", "fails", Conclusion::Failure);
    push.eventType = EventType::Push;
    EXPECT_FALSE(judgeMergeGating(facts({push})).bot.blocks);
}

// L340-345: not for -f, and only for pytorch/pytorch; L718-735: fail open.
TEST(MergeGating, ForceOtherReposAndUnreadableFactsFailOpen)
{
    const std::vector<CheckRun> failing{row("org/l4", "fails", Conclusion::Failure)};
    EXPECT_TRUE(judgeMergeGating(facts(failing)).bot.blocks);
    MergeGatingFacts force = facts(failing);
    force.force = true;
    EXPECT_FALSE(judgeMergeGating(force).bot.blocks);
    MergeGatingFacts unlisted = facts(failing);
    unlisted.checkRunsListed = false;
    EXPECT_FALSE(judgeMergeGating(unlisted).bot.blocks);
    MergeGatingFacts noAllowlist = facts(failing);
    noAllowlist.allowlistLoaded = false;
    EXPECT_FALSE(judgeMergeGating(noAllowlist).bot.blocks);
    EXPECT_NE(judgeMergeGating(noAllowlist).bot.summary.find("fails open"), std::string::npos);
    MergeGatingFacts fork = facts(failing);
    fork.upstreamRepo = "pytorch/vision";
    EXPECT_FALSE(judgeMergeGating(fork).bot.blocks);
}

// The level: the relay's at dispatch where known (crcr_hud_results), else
// the allowlist's now; a repo the allowlist does not name never blocks
// (isBlocking: getLevelForRepo null -> false, crcrAllowlist.ts L60-64).
TEST(MergeGating, JudgesAtTheDispatchLevelWhereKnownAndSaysWhich)
{
    CheckRun atDispatch = row("org/l3", "fails", Conclusion::Failure);
    atDispatch.trusted.level = Level::L4;
    atDispatch.trusted.levelAtDispatch = true;
    CheckRun unknownRepo = row("org/none", "fails2", Conclusion::Failure);
    const MergeGating g = judgeMergeGating(facts({atDispatch, unknownRepo}));
    const BotCheck* c = checkOf(g, "fails", "org/l3");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(c->level.level, Level::L4);
    EXPECT_EQ(c->level.source, LevelSource::AtDispatch);
    EXPECT_TRUE(c->blocks);
    // Not in the allowlist: no level, so no check run (nor a block).
    EXPECT_EQ(checkOf(g, "fails2", "org/none"), nullptr);
    EXPECT_EQ(g.bot.withoutCheckRun, 1);
    // The bot itself reads the allowlist at merge time: the disagreement is said.
    ASSERT_FALSE(g.notes.empty());
    EXPECT_NE(g.notes.front().find("org/l3 was L4 at dispatch and is L3"), std::string::npos);
}

// fetchCrcrWorkflows: status = 'completed' and conclusion in (failure,
// cancelled, timed_out), no head-SHA filter; drci.ts L304-312: L3 ->
// CRCR_L3, L4 -> failedJobs (cancelled shown as cancelled, L812-818), others
// ignored.
TEST(MergeGating, DrCiListsEveryHeadsFailuresBySection)
{
    const MergeGating g = judgeMergeGating(facts({
        row("org/l3", "fails", Conclusion::Failure),
        row("org/l3", "old", Conclusion::TimedOut, kEarlier),
        row("org/l4", "fails", Conclusion::Failure, kEarlier),
        row("org/l4", "times-out", Conclusion::TimedOut),
        row("org/l4", "cancels", Conclusion::Cancelled),
        row("org/l4", "passes", Conclusion::Success),
        pending("org/l4", "runs"),
        row("org/l2", "fails", Conclusion::Failure),
    }));
    const DrciListing& d = g.drci;
    EXPECT_EQ(d.count(DrciSection::NonBlocking), 2);
    EXPECT_EQ(d.count(DrciSection::NewFailure), 2); // failure and timed_out
    EXPECT_EQ(d.count(DrciSection::Cancelled), 1);
    EXPECT_EQ(d.ignored, 1); // L2
    EXPECT_EQ(d.rows.size(), 5U);
    const auto earlier =
        std::count_if(d.rows.begin(), d.rows.end(), [](const DrciRow& r) { return r.earlierHead; });
    EXPECT_EQ(earlier, 2); // earlier heads' failures are listed too
    EXPECT_NE(d.summary.find("2 of them from earlier heads"), std::string::npos);
    // The bot, on the head only, sees no failed L4 check: it waits on "runs".
    EXPECT_EQ(g.bot.blockingRepos, std::vector<std::string>{"org/l4"});
    EXPECT_FALSE(checkOf(g, "times-out")->blocks);
}

// Every attempt is its own row (a new check_run_id per attempt; no FINAL, no
// attempt filter): a failed attempt stays listed after a passing rerun.
TEST(MergeGating, DrCiKeepsAnAttemptARerunSuperseded)
{
    const MergeGating g = judgeMergeGating(facts({
        row("org/l3", "flaky", Conclusion::Failure, kHead, 1),
        row("org/l3", "flaky", Conclusion::Success, kHead, 2),
    }));
    ASSERT_EQ(g.drci.rows.size(), 1U);
    EXPECT_TRUE(g.drci.rows[0].superseded);
    EXPECT_EQ(g.drci.rows[0].name, "crcr/org/l3/crcr/flaky");
}

TEST(MergeGating, GathersAPrsRunsNewestHeadFirstFromTheCache)
{
    auto cache = relayhud::testing::openTestCache(":memory:");
    ASSERT_TRUE(cache) << cache.message();
    SyncBatch batch;
    batch.backends = {{"org/l4", Level::L4, {}, true}, {"org/old", Level::L3, {}, false}};
    batch.commits = {{kEarlier, kPr, "main", EventType::PullRequest, 100, "t", "a"},
                     {kHead, kPr, "main", EventType::PullRequest, 200, "t", "a"},
                     {Sha{"3333333333333333333333333333333333333333"}, PrNumber{kPr.value + 1},
                      "main", EventType::PullRequest, 300, "other", "a"}};
    CheckRun a = row("org/l4", "fails", Conclusion::Failure, kEarlier);
    CheckRun b = pending("org/l4", "runs");
    CheckRun other =
        row("org/l4", "x", Conclusion::Failure, Sha{"3333333333333333333333333333333333333333"});
    other.prNumber = PrNumber{kPr.value + 1};
    CheckRun old = row("org/old", "y", Conclusion::Failure);
    batch.runs = {a, b, other, old};
    ASSERT_TRUE(RunStore(**cache).apply(batch));
    auto got = gatherMergeGating(**cache, kPr);
    ASSERT_TRUE(got) << got.message();
    EXPECT_EQ(got->head, kHead);
    EXPECT_EQ(got->runs.size(), 3U); // not the other PR's
    EXPECT_EQ(got->allowlistLevels.at("org/l4"), Level::L4);
    EXPECT_EQ(got->allowlistLevels.at("org/old"), Level::Unknown); // not at L2+ now
    const MergeGating g = judgeMergeGating(*got);
    EXPECT_TRUE(g.bot.blocks);                           // "runs" is pending on the head
    EXPECT_EQ(g.drci.count(DrciSection::NewFailure), 1); // the earlier head's failure
    EXPECT_EQ(g.drci.ignored, 1);                        // org/old: not at L3+ now
    EXPECT_FALSE(gatherMergeGating(**cache, PrNumber{99}));
}

// The report names the decision, each listed row and the rule with its source.
TEST(MergeGating, TheReportShowsTheGatingWithTheRuleCited)
{
    ReportInput input;
    input.sha = kEarlier;
    RunVerdict job;
    job.run = row("pytorch/crcr-test", "l1-critical", Conclusion::Failure, kEarlier);
    job.run.reported.tests = TestCounts{4, 3, 1, 0};
    job.verdict = Verdict::Red;
    input.jobs.push_back(job);
    input.gating = judgeMergeGating(facts({
        row("org/l4", "fails", Conclusion::Failure),
        row("org/l3", "old", Conclusion::Failure, kEarlier),
    }));
    const std::string md = markdownReport(input);
    EXPECT_NE(md.find("### Merge gating (#4242)"), std::string::npos) << md;
    EXPECT_NE(md.find("**Merge bot**: ⛔ blocks the merge of \\#4242"), std::string::npos) << md;
    EXPECT_NE(md.find("CRCR (non-blocking)"), std::string::npos);
    EXPECT_NE(md.find("(earlier head)"), std::string::npos);
    EXPECT_NE(md.find("is an earlier head"), std::string::npos);
    EXPECT_NE(md.find("pytorchBotHandler.ts L686-759"), std::string::npos);
    EXPECT_NE(md.find("drci.ts"), std::string::npos);
    EXPECT_NE(md.find("else the allowlist's now.</sub>"), std::string::npos); // the rule, whole
    // The job's own counts are named for what they count (model/count_kind.h).
    EXPECT_NE(md.find("self-reported health checks: 4, 1 failed"), std::string::npos) << md;
}

} // namespace
