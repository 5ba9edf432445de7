// The commit a run really tested (model/tested_commit.h), from the shapes
// torch-spyre really writes (../shared/specs/real-backends.md 3.1, 3.2,
// 3.5: torch-spyre .github/actions/checkout-pytorch/action.yml @4ef5062f,
// build_test_pytorch_source.yaml @01f88357 and @5a14b852), and what the
// cache keeps of it (schema 9) and compares it with.
#include "relayhud/logs/checkout_scan.h"
#include "relayhud/model/tested_commit.h"
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/database.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

namespace relayhud {
namespace {

using testing::addRun;
using testing::completedRun;
using testing::openCacheOk;
using testing::ScratchDir;

constexpr const char* kBase = "4f1d3c0a9b8e7d6c5b4a39281706f5e4d3c2b1a0";  // main's HEAD
constexpr const char* kHead = "e2b7c19d04a35f68b1c0d9e8f7a6b5c4d3e2f1a0";  // the PR's head
constexpr const char* kOlder = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567"; // main before

// checkout-pytorch's step as the runner logs it (action.yml @4ef5062f): its
// echoes, git's fetch and checkout on stderr, the submodules, then
// `git log -1 --oneline` and TORCH_ROOT.
std::string fetchRefStep(const std::string& ref, const std::string& oneline)
{
    const auto stamped = [](const std::string& text) {
        return "2026-08-21T10:00:00.1234567Z " + text + "\n";
    };
    std::string log = stamped("##[group]Run ./.github/actions/checkout-pytorch")
                      + stamped("\x1b[36;1m  FETCH_REF=\"$SHA\"\x1b[0m")
                      + stamped("\x1b[36;1mecho \"FETCH_REF $FETCH_REF\"\x1b[0m")
                      + stamped("##[endgroup]")
                      + stamped("TORCH_SPYRE_DIR /home/runner/torch-spyre")
                      + stamped("PYTORCH_DIR /home/runner/pytorch") + stamped("FETCH_REF " + ref)
                      + stamped("PYTORCH_REPO_URL https://github.com/pytorch/pytorch.git")
                      + stamped("Initialized empty Git repository in /home/runner/pytorch/.git/")
                      + stamped("From https://github.com/pytorch/pytorch")
                      + stamped(" * branch            " + ref + " -> FETCH_HEAD")
                      + stamped("HEAD is now at " + oneline.substr(0, oneline.find(' ')) + " x")
                      + stamped("Submodule path 'third_party/pybind11': checked out "
                                "'a2e59f0e7065404b44dfe92a28aca47ba1378dc4'");
    if (!oneline.empty())
        log += stamped(oneline);
    return log + stamped("TORCH_ROOT /home/runner/pytorch");
}

// real-backends.md 3.5: FETCH_REF <sha> (a merged PR's build: the base's
// HEAD at gate time, 3.1), confirmed by git's abbreviation.
TEST(TestedCommitScan, AFetchRefShaIsTheCommitGitConfirms)
{
    const std::string log =
        fetchRefStep(kBase, "4f1d3c0a9b [inductor] Fuse the epilogue (#158123)");
    const auto found = logs::scanCheckoutsIn(log);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].repository, "pytorch/pytorch");
    EXPECT_EQ(found[0].sha, kBase);
    EXPECT_EQ(found[0].fetchRef, kBase);
    EXPECT_EQ(found[0].line, 14u) << "the line of git's answer";
    const auto tested = testedCommitFromCheckouts(found, "pytorch/pytorch");
    ASSERT_TRUE(tested);
    EXPECT_EQ(*tested, (TestedCommit{kBase, "", TestedCommitSource::FetchRef,
                                     std::string("FETCH_REF ") + kBase, 14}));
}

// real-backends.md 3.5: FETCH_REF release/2.10 (no sha input) resolves only
// through `git log -1 --oneline`'s abbreviation; without it, no commit.
TEST(TestedCommitScan, AFetchRefBranchResolvesOnlyThroughGitLogOneline)
{
    const auto found =
        logs::scanCheckoutsIn(fetchRefStep("release/2.10", "4f1d3c0a9b8 Bump version (#157000)"));
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].sha, "4f1d3c0a9b8");
    EXPECT_EQ(found[0].fetchRef, "release/2.10");
    const auto tested = testedCommitFromCheckouts(found, "pytorch/pytorch");
    ASSERT_TRUE(tested);
    EXPECT_EQ(tested->sha, "4f1d3c0a9b8");
    EXPECT_TRUE(tested->abbreviated());
    EXPECT_EQ(tested->ref, "release/2.10");
    EXPECT_TRUE(sameCommit(tested->sha, kBase));

    const std::string cut = fetchRefStep("release/2.10", "");
    const auto unresolved = logs::scanCheckoutsIn(cut);
    ASSERT_EQ(unresolved.size(), 1u) << "the fetch of the branch is known ...";
    EXPECT_EQ(unresolved[0].sha, "") << "... its commit is not";
    EXPECT_FALSE(testedCommitFromCheckouts(unresolved, "pytorch/pytorch"));
}

// A checkout-pytorch step and actions/checkout of torch-spyre itself in one
// log: the tested commit is the upstream repository's.
TEST(TestedCommitScan, OnlyTheUpstreamRepositorysCheckoutCounts)
{
    const std::vector<LogCheckout> checkouts = {
        {"torch-spyre/torch-spyre", kOlder, 12, ""},
        {"pytorch/pytorch", kBase, 40, kBase},
    };
    const auto tested = testedCommitFromCheckouts(checkouts, "PyTorch/PyTorch");
    ASSERT_TRUE(tested);
    EXPECT_EQ(tested->sha, kBase);
    EXPECT_FALSE(testedCommitFromCheckouts({checkouts[0]}, "pytorch/pytorch"));
}

// real-backends.md 3.2, 3.5: the build job's display name and its step's.
TEST(TestedCommitNames, TheBuildJobAndItsCheckoutStepNameTheSha)
{
    const std::string job = std::string("Build PyTorch@") + kBase + " + torch-spyre";
    const auto tested = testedCommitFromJobName(job);
    ASSERT_TRUE(tested);
    EXPECT_EQ(*tested, (TestedCommit{kBase, "", TestedCommitSource::JobName, job, 0}));
    std::string upperSha = kBase;
    for (char& c : upperSha)
        if (c >= 'a' && c <= 'f')
            c = static_cast<char>(c - 32);
    const std::string upper = "Checkout pytorch@" + upperSha;
    ASSERT_TRUE(testedCommitFromJobName(upper));
    EXPECT_EQ(testedCommitFromJobName(upper)->sha, kBase);
    for (const std::string& other : std::vector<std::string>{
             "linux-x86_64 / pytorch / test", "Build PyTorch@main + torch-spyre",
             std::string("Build PyTorch@") + kBase + " + torch-spyre (retry)",
             std::string("Build PyTorch@") + std::string(kBase).substr(0, 12) + " + torch-spyre"})
        EXPECT_FALSE(testedCommitFromJobName(other)) << other;
}

// real-backends.md 3.2, 3.6, 7: the wheels and merged reports carry the SHA;
// per-suite XMLs and crcr-test's health reports carry none.
TEST(TestedCommitNames, TheArtifactNamesNameTheShaOrSayTheyDisagree)
{
    const std::vector<std::string> names = {
        "test_indexing.xml",
        std::string("pytorch-wheel-") + kBase,
        std::string("torch-spyre-wheel-") + kBase,
        std::string("upstream-beta-reports-") + kBase,
        "crcr-health-l1-123456789",
    };
    auto tested = testedCommitFromArtifactNames(names);
    ASSERT_TRUE(tested) << tested.message();
    ASSERT_TRUE(tested->has_value());
    EXPECT_EQ(**tested, (TestedCommit{kBase, "", TestedCommitSource::ArtifactName,
                                      std::string("pytorch-wheel-") + kBase, 0}));

    auto none = testedCommitFromArtifactNames({"test_indexing.xml", "crcr-health-l1-1"});
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value());

    auto twice = testedCommitFromArtifactNames(
        {std::string("pytorch-wheel-") + kBase, std::string("upstream-beta-reports-") + kOlder});
    ASSERT_FALSE(twice);
    EXPECT_NE(twice.message().find("two commits"), std::string::npos) << twice.message();
}

// real-backends.md 3.1: "tested main@abc1234 after #1234 merged" where the
// row names the PR's head; section 2: free-text nightly ids are no commits.
TEST(TestedCommitText, SaysWhatWasTestedBesideTheRowsCommit)
{
    const TestedCommit byName{kBase, "", TestedCommitSource::JobName, "", 0};
    EXPECT_EQ(testedCommitText(byName, Sha{kHead}, PrNumber{158123}, "main"),
              "tested main@4f1d3c0 after #158123 merged");
    EXPECT_EQ(testedCommitText(byName, Sha{kHead}, PrNumber{158123}, ""),
              "tested 4f1d3c0 after #158123 merged");
    const TestedCommit branch{"4f1d3c0a9b8", "release/2.10", TestedCommitSource::FetchRef, "", 9};
    EXPECT_EQ(testedCommitText(branch, Sha{kHead}, PrNumber{158123}, ""),
              "tested release/2.10@4f1d3c0 after #158123 merged");
    const TestedCommit checkout{kBase, "", TestedCommitSource::ActionsCheckout, "", 7};
    EXPECT_EQ(testedCommitText(checkout, Sha{kHead}, PrNumber{158123}, "main"),
              "tested main@4f1d3c0, not the PR's head");
    EXPECT_EQ(testedCommitText(checkout, Sha{kBase}, PrNumber{158123}, "main"),
              "tested the row's commit");

    EXPECT_TRUE(isUpstreamCommit(kBase));
    EXPECT_FALSE(isUpstreamCommit("nightly-2026-12-01"));
    EXPECT_FALSE(isUpstreamCommit("buildkite-4242-0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"));
    EXPECT_FALSE(isUpstreamCommit(std::string(kBase).substr(0, 12)));
}

CheckRun mergedPrRun(const std::string& head, EpochSeconds time)
{
    CheckRun run =
        completedRun(head, "linux-x86_64 / pytorch / test", 1, Conclusion::Success, time);
    run.prNumber = PrNumber{158000 + time % 1000};
    return run;
}

// The cache keeps one tested commit per run: its log's checkout beats a job
// name, which beats an artifact name; a log read again that shows none
// takes back only what the log said.
TEST(TestedCommitStore, TheStrongestSourceWinsAndALogReadAgainTakesItsOwnBack)
{
    ScratchDir dir("tested");
    auto cache = openCacheOk(dir.file("cache.sqlite"));
    ASSERT_TRUE(cache);
    EXPECT_EQ(cache->schemaVersion(), Database::kSchemaVersion);
    const CheckRunRow row = addRun(*cache, mergedPrRun(kHead, 1'000'000), 1'000'000);
    const std::string wheel = std::string("pytorch-wheel-") + kOlder;
    ASSERT_TRUE(CheckoutStore(*cache).putTestedCommit(
        row, TestedCommit{kOlder, "", TestedCommitSource::ArtifactName, wheel, 0}));
    const std::vector<LogCheckout> log = {{"pytorch/pytorch", kBase, 15, kBase}};
    ASSERT_TRUE(CheckoutStore(*cache).putLogCheckouts(row, log, 1'000'100));
    auto tested = CheckoutStore(*cache).testedCommit(row);
    ASSERT_TRUE(tested && tested->has_value());
    EXPECT_EQ((*tested)->sha, kBase);
    EXPECT_EQ((*tested)->source, TestedCommitSource::FetchRef);
    ASSERT_TRUE(CheckoutStore(*cache).putTestedCommit(
        row, TestedCommit{kOlder, "", TestedCommitSource::ArtifactName, wheel, 0}));
    EXPECT_EQ((*CheckoutStore(*cache).testedCommit(row))->sha, kBase)
        << "a name never overrides the log";

    ASSERT_TRUE(CheckoutStore(*cache).putLogCheckouts(row, {}, 1'000'200));
    tested = CheckoutStore(*cache).testedCommit(row);
    ASSERT_TRUE(tested);
    EXPECT_FALSE(tested->has_value()) << "the log no longer says; the artifact was outranked";
    ASSERT_TRUE(CheckoutStore(*cache).putTestedCommit(
        row, TestedCommit{kOlder, "", TestedCommitSource::ArtifactName, wheel, 0}));
    EXPECT_EQ((*CheckoutStore(*cache).testedCommit(row))->source, TestedCommitSource::ArtifactName);
    auto many = CheckoutStore(*cache).testedCommits({row, CheckRunRow{row.value + 1000}});
    ASSERT_TRUE(many);
    EXPECT_EQ(many->size(), 1u);
}

// A merged PR's build compares with the job's previous tested commit (main's
// previous build), never with another PR's head (real-backends.md 3.1; R18).
TEST(TestedCommitStore, APreviousTestedCommitIsTheJobsPreviousBuildOfTheSameBranch)
{
    ScratchDir dir("tested");
    auto cache = openCacheOk(dir.file("cache.sqlite"));
    ASSERT_TRUE(cache);
    const CheckRunRow first =
        addRun(*cache, mergedPrRun(std::string(40, 'a'), 1'000'100), 1'000'100);
    const CheckRunRow same =
        addRun(*cache, mergedPrRun(std::string(40, 'b'), 1'000'200), 1'000'200);
    const CheckRunRow untested =
        addRun(*cache, mergedPrRun(std::string(40, 'c'), 1'000'300), 1'000'300);
    const CheckRunRow last = addRun(*cache, mergedPrRun(kHead, 1'000'400), 1'000'400);
    const auto byName = [](const char* sha) {
        return TestedCommit{sha, "", TestedCommitSource::JobName,
                            std::string("Build PyTorch@") + sha + " + torch-spyre", 0};
    };
    ASSERT_TRUE(CheckoutStore(*cache).putTestedCommit(first, byName(kOlder)));
    ASSERT_TRUE(CheckoutStore(*cache).putTestedCommit(same, byName(kBase))); // main had not moved
    ASSERT_TRUE(CheckoutStore(*cache).putTestedCommit(last, byName(kBase)));
    (void)untested;
    auto previous = CheckoutStore(*cache).previousTestedCommit(last);
    ASSERT_TRUE(previous && previous->has_value());
    EXPECT_EQ((*previous)->sha, kOlder) << "the previous build of another main commit";
    auto none = CheckoutStore(*cache).previousTestedCommit(first);
    ASSERT_TRUE(none);
    EXPECT_FALSE(none->has_value());
    auto noTested = CheckoutStore(*cache).previousTestedCommit(untested);
    ASSERT_TRUE(noTested);
    EXPECT_FALSE(noTested->has_value());
}

} // namespace
} // namespace relayhud
