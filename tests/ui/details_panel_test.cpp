// RunDetailsPanel and the links derived from a run.
#include "relayhud/ui/details/attempts_model.h"
#include "relayhud/ui/details/run_details.h"
#include "relayhud/ui/details/run_details_panel.h"

#include "test_support.h"

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

RunDetails sampleDetails()
{
    RunDetails d;
    d.rowId = CheckRunRow{7};
    d.level = Level::L4;
    CheckRun& run = d.run;
    run.downstreamRepo = "torch-spyre/torch-spyre";
    run.upstreamSha = Sha{"1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"};
    run.prNumber = PrNumber{4242};
    run.workflow = "pull";
    run.jobName = "test (default, 1, 3, linux.spyre.1) <b>bold</b>";
    run.runAttempt = 2;
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = Conclusion::Failure;
    run.reported.startedAt = 1'700'000'000;
    run.reported.completedAt = 1'700'000'000 + 3725;
    run.reported.tests = TestCounts{50, 42, 3, 5};
    run.reported.runUrl = "https://github.com/torch-spyre/torch-spyre/actions/runs/99/attempts/2";
    run.reported.artifactUrl = "javascript:alert(1)";
    run.trusted.level = Level::L4;
    run.trusted.queueTimeSeconds = 42;
    run.trusted.executionTimeSeconds = 3700;
    CheckRun first = run;
    first.runAttempt = 1;
    d.attempts = {run, first};
    d.previous = UpstreamCommit{Sha{"0000000bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"},
                                4242, // this PR's previous head
                                "main",
                                EventType::PullRequest,
                                1,
                                "",
                                ""};
    return d;
}

} // namespace

TEST(RunLinks, PointAtTheRunHudCompareAndPr)
{
    const RunLinks links = runLinks(sampleDetails(), QStringLiteral("https://hud.pytorch.org/"));
    EXPECT_EQ(
        links.run.toString(),
        QStringLiteral("https://github.com/torch-spyre/torch-spyre/actions/runs/99/attempts/2"));
    EXPECT_EQ(links.hudPage.toString(),
              QStringLiteral("https://hud.pytorch.org/crcr/torch-spyre/torch-spyre"));
    EXPECT_EQ(
        links.compare.toString(),
        QStringLiteral(
            "https://github.com/pytorch/pytorch/compare/"
            "0000000bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb...1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"));
    EXPECT_EQ(links.pullRequest.toString(),
              QStringLiteral("https://github.com/pytorch/pytorch/pull/4242"));
}

// A nightly's SHA is a main commit (the one its nightly was cut from, or
// main's HEAD): two nightlies compare main..main; a free-text id is not an
// upstream commit and gets no link (real-backends.md section 2; R6, R18).
TEST(RunLinks, NeverCompareTwoPrsHeadsAndNightliesCompareMainToMain)
{
    RunDetails other = sampleDetails();
    other.previous->prNumber = PrNumber{4241}; // another PR's head: no history with this one
    EXPECT_TRUE(runLinks(other, {}).compare.isEmpty());

    RunDetails nightly = sampleDetails();
    nightly.run.prNumber = PrNumber{0};
    nightly.run.eventType = EventType::Nightly;
    const std::string before(40, 'b');
    nightly.previous = UpstreamCommit{
        Sha{before}, 0, "main", EventType::Nightly, 1, "[inductor] Fuse (#158100)", "someone"};
    nightly.commit =
        UpstreamCommit{nightly.run.upstreamSha, 0,        "main", EventType::Nightly, 2,
                       "Fix a typo (#158123)",  "someone"};
    EXPECT_EQ(runLinks(nightly, {}).compare.toString().toStdString(),
              "https://github.com/pytorch/pytorch/compare/" + before + "..."
                  + nightly.run.upstreamSha.value);
    nightly.run.upstreamSha = Sha{"buildkite-4242-0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"};
    EXPECT_TRUE(runLinks(nightly, {}).compare.isEmpty()) << "not an upstream commit: no link";
}

// R18: the job's page as the HUD's "Show log" builds it; a nightly's HUD page
// with ?event=nightly. R5, R6, R7: a nightly's one callback, its SHA (a main
// commit, or free text: real-backends.md section 2), its level.
TEST(RunDetailsPanel, ANightlyShowsItsJobLinkNoDurationAndItsMainCommit)
{
    RunDetails details = sampleDetails();
    CheckRun& run = details.run;
    run.eventType = EventType::Nightly;
    run.prNumber = PrNumber{0};
    run.runAttempt = 1;
    run.checkRunId = CheckRunId{"123456"};
    run.reported.runUrl = "https://github.com/torch-spyre/torch-spyre/actions/runs/99";
    run.reported.startedAt = run.reported.completedAt;
    run.trusted = Trusted{Level::L4, true, std::nullopt, std::nullopt};
    details.previous.reset();
    details.commit = UpstreamCommit{run.upstreamSha,        0,        "main", EventType::Nightly, 1,
                                    "Fix a typo (#158123)", "someone"};
    const RunLinks links = runLinks(details, QStringLiteral("https://hud.pytorch.org"));
    EXPECT_EQ(
        links.run.toString(),
        QStringLiteral("https://github.com/torch-spyre/torch-spyre/actions/runs/99/job/123456"));
    EXPECT_EQ(links.hudPage.toString(),
              QStringLiteral("https://hud.pytorch.org/crcr/torch-spyre/torch-spyre?event=nightly"));
    RunDetailsPanel panel;
    panel.showDetails(details, links);
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::DurationField),
              QStringLiteral("not reported (one callback, no start time)"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::LevelField),
              QStringLiteral("L4 (verified by the relay at dispatch)"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::ShaField),
              QStringLiteral("1111111aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (main)"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::BranchField), QStringLiteral("main"));
    run.upstreamSha = Sha{"nightly-2026-12-01"};
    EXPECT_TRUE(runLinks(details, {}).compare.isEmpty());
    panel.showDetails(details, runLinks(details, {}));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::ShaField),
              QStringLiteral("nightly-2026-12-01 (not an upstream commit)"));
}

// real-backends.md 3.1, 3.5: torch-spyre builds a merged PR at its base
// branch's HEAD; the row names the PR's head. The details show the commit
// tested beside it, and compare it with the job's previous tested commit,
// never with the PR's previous head or another PR's.
TEST(RunDetailsPanel, AMergedPrsBuildShowsAndComparesItsTestedCommit)
{
    RunDetails details = sampleDetails();
    details.commit =
        UpstreamCommit{details.run.upstreamSha, 4242, "main", EventType::PullRequest, 1, "", ""};
    const std::string tested = "abc1234" + std::string(33, 'd');
    const std::string before = "9876543" + std::string(33, 'e');
    details.tested = TestedCommit{tested, "", TestedCommitSource::JobName,
                                  "Build PyTorch@" + tested + " + torch-spyre", 0};
    EXPECT_TRUE(runLinks(details, {}).compare.isEmpty())
        << "no earlier tested commit: the PR's previous head is not what was tested";
    details.previousTested =
        TestedCommit{before, "", TestedCommitSource::ArtifactName, "pytorch-wheel-" + before, 0};
    EXPECT_EQ(runLinks(details, {}).compare.toString().toStdString(),
              "https://github.com/pytorch/pytorch/compare/" + before + "..." + tested);
    RunDetailsPanel panel;
    panel.showDetails(details, runLinks(details, {}));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::TestedField),
              QStringLiteral("tested main@abc1234 after #4242 merged (from its job name)"));
    details.tested.reset();
    panel.showDetails(details, runLinks(details, {}));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::TestedField),
              QStringLiteral("not shown by its log or names (the row's commit)"));
}

TEST(RunLinks, NonWebUrlsFromCiAreDropped)
{
    const RunLinks links = runLinks(sampleDetails(), QStringLiteral("https://hud.pytorch.org"));
    EXPECT_TRUE(links.artifacts.isEmpty());
    EXPECT_FALSE(isWebUrl(QUrl(QStringLiteral("file:///etc/passwd"))));
    EXPECT_TRUE(isWebUrl(QUrl(QStringLiteral("https://example.org/x"))));
}

TEST(RunDetailsPanel, StartsWithAHint)
{
    RunDetailsPanel panel;
    EXPECT_FALSE(panel.hasDetails());
}

TEST(RunDetailsPanel, ShowsRunFieldsAsPlainText)
{
    RunDetailsPanel panel;
    const RunDetails details = sampleDetails();
    panel.showDetails(details, runLinks(details, QStringLiteral("https://hud.pytorch.org")));
    ASSERT_TRUE(panel.hasDetails());
    const QString job = QStringLiteral("test (default, 1, 3, linux.spyre.1) <b>bold</b>");
    EXPECT_EQ(panel.titleText(), job);
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::JobField), job);
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::BackendField),
              QStringLiteral("torch-spyre/torch-spyre"));
    // No crcr_hud_results level for this run: the backend's allowlist level now (R7).
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::LevelField),
              QStringLiteral("L4 (allowlist level now)"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::ConclusionField), QStringLiteral("failure"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::PrField), QStringLiteral("#4242"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::DurationField), QStringLiteral("1h 02m"));
    // Attempt 2: the relay measured its queue time from the first dispatch (R9).
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::QueueTimeField),
              QStringLiteral("42s since the first dispatch (not this attempt's wait)"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::TestsField),
              QStringLiteral("42 passed · 3 failed · 5 skipped · 50 total (JUnit test cases)"));
    EXPECT_EQ(
        panel.linkUrl(RunDetailsPanel::RunLink).toString(),
        QStringLiteral("https://github.com/torch-spyre/torch-spyre/actions/runs/99/attempts/2"));
    EXPECT_TRUE(panel.linkUrl(RunDetailsPanel::ArtifactLink).isEmpty());
    EXPECT_EQ(panel.attemptsModel().rowCount(), 2);
}

TEST(RunDetailsPanel, UnmeasuredTrustedTimesSaySo)
{
    RunDetailsPanel panel;
    RunDetails details = sampleDetails();
    details.run.trusted.queueTimeSeconds.reset();
    details.run.reported.tests.reset();
    panel.showDetails(details, runLinks(details, {}));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::QueueTimeField), QStringLiteral("not measured"));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::TestsField),
              QStringLiteral("not reported (its counts are JUnit test cases)"));
    EXPECT_TRUE(panel.linkUrl(RunDetailsPanel::HudLink).isEmpty());
}

// What the counts count, where real-backends.md 1.3/1.4 says (model/count_kind.h);
// a backend the table does not know keeps the plain counts.
TEST(RunDetailsPanel, CountsAreLabelledWithWhatTheyCount)
{
    RunDetailsPanel panel;
    RunDetails details = sampleDetails();
    details.run.downstreamRepo = "pytorch/crcr-test";
    details.run.reported.tests = TestCounts{4, 3, 1, 0};
    details.attempts = {details.run};
    panel.showDetails(details, runLinks(details, {}));
    EXPECT_EQ(
        panel.fieldText(RunDetailsPanel::TestsField),
        QStringLiteral("3 passed · 1 failed · 0 skipped · 4 total (health checks, not tests)"));
    EXPECT_TRUE(panel.attemptsModel()
                    .data(panel.attemptsModel().index(0, 0), Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("health checks, not tests (self-reported)")));
    panel.resize(420, 640);
    relayhud::ui::test::keepPictures(panel, QStringLiteral("details_health_check_counts"));
    details.run.downstreamRepo = "TorchedHat/pytorch-redhat-ci";
    details.run.reported.tests.reset();
    panel.showDetails(details, runLinks(details, {}));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::TestsField),
              QStringLiteral("not reported (its counts are test commands, not test cases)"));
    details.run.downstreamRepo = "Ascend/pytorch";
    details.run.reported.tests = TestCounts{4, 3, 1, 0};
    panel.showDetails(details, runLinks(details, {}));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::TestsField),
              QStringLiteral("3 passed · 1 failed · 0 skipped · 4 total"));
}
