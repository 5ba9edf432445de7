// Which of a run's artifacts are read for its reports, from the listing
// alone. The names and retentions are the real reporters' (see
// ../shared/specs/real-backends.md 1.3, 3.2, 3.3, 3.6, 7):
//   torch-spyre build_test_pytorch_source.yaml @5a14b852 and
//   _upstream_tests_beta_matrix.yaml @1c1da12d: pytorch-wheel-<sha> and
//   torch-spyre-wheel-<sha> (5 days), <config stem>.xml per suite (90 days),
//   upstream-beta-reports-<sha> (30 days);
//   pytorch/crcr-test crcr-dispatch-receiver.yml @03d231d3:
//   crcr-health-l1-<run_id> (health-report.json).
#include "relayhud/artifacts/report_plan.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace relayhud {
namespace {

constexpr EpochSeconds kNow = 1'780'000'000;
const std::string kSha = "6f1d2a9c0b8e4f3a2d1c0b9a8f7e6d5c4b3a2f10";

github::ArtifactInfo artifact(std::int64_t id, std::string name, std::int64_t bytes,
                              EpochSeconds expiresAt = kNow + 5 * kSecondsPerDay)
{
    github::ArtifactInfo a;
    a.id = github::ArtifactId{id};
    a.name = std::move(name);
    a.sizeInBytes = bytes;
    a.createdAt = kNow - kSecondsPerHour;
    a.expiresAt = expiresAt;
    return a;
}

std::vector<std::string> namesOf(const std::vector<github::ArtifactInfo>& listing,
                                 const ReportPlan& plan)
{
    std::vector<std::string> out;
    for (const std::size_t i : plan.download)
        out.push_back(listing[i].name);
    return out;
}

const SkippedArtifact* skipped(const ReportPlan& plan, const std::string& name)
{
    const auto it = std::find_if(plan.skipped.begin(), plan.skipped.end(),
                                 [&](const SkippedArtifact& s) { return s.name == name; });
    return it == plan.skipped.end() ? nullptr : &*it;
}

// A torch-spyre variant A run, as its listing shows it: two wheels, the
// per-suite reports and the merged reports.
std::vector<github::ArtifactInfo> spyreRun()
{
    return {artifact(1, "pytorch-wheel-" + kSha, 812LL << 20),
            artifact(2, "torch-spyre-wheel-" + kSha, 96LL << 20),
            artifact(3, "test_indexing.xml", 41'000, kNow + 90 * kSecondsPerDay),
            artifact(4, "test_linalg.xml", 77'000, kNow + 90 * kSecondsPerDay),
            artifact(5, "upstream-beta-reports-" + kSha, 120'000, kNow + 30 * kSecondsPerDay)};
}

TEST(ReportPlan, KindsFollowTheRealReportersNames)
{
    EXPECT_EQ(artifactKindOf("pytorch-wheel-" + kSha), ArtifactKind::Binary);
    EXPECT_EQ(artifactKindOf("torch-spyre-wheel-" + kSha), ArtifactKind::Binary);
    EXPECT_EQ(artifactKindOf("dist/torch-2.10.0-cp312-linux_x86_64.whl"), ArtifactKind::Binary);
    EXPECT_EQ(artifactKindOf("test_indexing.xml"), ArtifactKind::Report);
    EXPECT_EQ(artifactKindOf("upstream-beta-reports-" + kSha), ArtifactKind::MergedReports);
    EXPECT_EQ(artifactKindOf("crcr-health-l1-17000000001"), ArtifactKind::HealthReport);
    EXPECT_EQ(artifactKindOf("crcr-health-l1-closed-17000000001"), ArtifactKind::HealthReport);
    EXPECT_EQ(artifactKindOf("test-reports-runattempt1-test-default-1-3-linux.spyre.1_4100"),
              ArtifactKind::Report);
    EXPECT_EQ(artifactKindOf("junit-results"), ArtifactKind::Report);
    EXPECT_EQ(artifactKindOf("coverage-data"), ArtifactKind::Unknown);
    EXPECT_EQ(artifactKindOf("wheelhouse-notes"), ArtifactKind::Unknown)
        << "a word of the name, not any substring";
}

TEST(ReportPlan, WheelsAreNeverDownloadedAndTheMergedReportsStandForTheSuites)
{
    const auto listing = spyreRun();
    const ReportPlan plan = planReportDownloads(listing, "41000000077", 1, kNow);
    EXPECT_EQ(namesOf(listing, plan), std::vector<std::string>{"upstream-beta-reports-" + kSha});
    EXPECT_EQ(plan.liveReports, 1);
    const SkippedArtifact* wheel = skipped(plan, "pytorch-wheel-" + kSha);
    ASSERT_NE(wheel, nullptr);
    EXPECT_EQ(skippedText(*wheel), "pytorch-wheel-" + kSha + " (812 MiB, a wheel or other binary)");
    const SkippedArtifact* suite = skipped(plan, "test_indexing.xml");
    ASSERT_NE(suite, nullptr);
    EXPECT_EQ(suite->why, "the same cases as upstream-beta-reports-" + kSha);
}

TEST(ReportPlan, OnceTheMergedReportsExpireThePerSuiteReportsAreRead)
{
    auto listing = spyreRun();
    listing[4].expiresAt = kNow - kSecondsPerDay; // 30 days are over, the suites' 90 are not
    listing[0].expired = listing[1].expired = true;
    const ReportPlan plan = planReportDownloads(listing, "", 0, kNow);
    EXPECT_EQ(namesOf(listing, plan),
              (std::vector<std::string>{"test_indexing.xml", "test_linalg.xml"}));
    EXPECT_EQ(plan.liveReports, 2);
    EXPECT_EQ(plan.expiredReports, 1);
}

TEST(ReportPlan, EveryReportExpiredSaysWhen)
{
    auto listing = spyreRun();
    listing[2].expired = listing[3].expired = true;
    listing[2].expiresAt = kNow - 3 * kSecondsPerDay;
    listing[3].expiresAt = kNow - 2 * kSecondsPerDay;
    listing[4].expiresAt = kNow - 40 * kSecondsPerDay;
    const ReportPlan plan = planReportDownloads(listing, "", 0, kNow);
    EXPECT_TRUE(plan.download.empty());
    EXPECT_EQ(plan.liveReports, 0);
    EXPECT_EQ(plan.expiredReports, 3);
    EXPECT_EQ(plan.expiredOn, kNow - 2 * kSecondsPerDay) << "the last to go";
}

TEST(ReportPlan, AVariantBParentWithOnlyWheelsHasNothingToRead)
{
    // The suites ran in the dispatched child run, and the merged reports
    // come after the completed callback: at first only the wheels are there.
    const std::vector<github::ArtifactInfo> listing = {
        artifact(1, "pytorch-wheel-" + kSha, 812LL << 20),
        artifact(2, "torch-spyre-wheel-" + kSha, 96LL << 20)};
    const ReportPlan plan = planReportDownloads(listing, "41000000077", 1, kNow);
    EXPECT_TRUE(plan.download.empty());
    EXPECT_EQ(plan.liveReports, 0);
    EXPECT_EQ(plan.skipped.size(), 2u);
}

TEST(ReportPlan, CrcrTestsHealthReportIsNotATestReport)
{
    const std::vector<github::ArtifactInfo> listing = {
        artifact(7, "crcr-health-l1-17000000001", 2'000)};
    const ReportPlan plan = planReportDownloads(listing, "", 0, kNow);
    EXPECT_TRUE(plan.download.empty());
    ASSERT_EQ(plan.skipped.size(), 1u);
    EXPECT_EQ(plan.skipped[0].why, "health checks, not test cases");
}

TEST(ReportPlan, ANamelessArtifactIsLookedIntoOnlyWhenSmall)
{
    const std::vector<github::ArtifactInfo> listing = {
        artifact(1, "ci-output", 2 << 20), artifact(2, "ci-bundle", kPeekArtifactBytes + 1)};
    const ReportPlan plan = planReportDownloads(listing, "", 0, kNow);
    EXPECT_EQ(namesOf(listing, plan), std::vector<std::string>{"ci-output"});
    EXPECT_EQ(plan.liveReports, 0) << "looked into, not known to be a report";
    ASSERT_NE(skipped(plan, "ci-bundle"), nullptr);
}

TEST(ReportPlan, PyTorchStyleNamesNarrowToTheJobAndAttempt)
{
    const std::vector<github::ArtifactInfo> listing = {
        artifact(1, "test-reports-runattempt1-test-default-1-2-linux.spyre_111", 9'000),
        artifact(2, "test-reports-runattempt1-test-default-2-2-linux.spyre_222", 9'000),
        artifact(3, "test-reports-runattempt2-test-default-1-2-linux.spyre_333", 9'000),
        artifact(4, "logs-runattempt1", 9'000)};
    const ReportPlan plan = planReportDownloads(listing, "111", 1, kNow);
    EXPECT_EQ(
        namesOf(listing, plan),
        std::vector<std::string>{"test-reports-runattempt1-test-default-1-2-linux.spyre_111"});
    ASSERT_NE(skipped(plan, "logs-runattempt1"), nullptr);
    ASSERT_NE(skipped(plan, "test-reports-runattempt1-test-default-2-2-linux.spyre_222"), nullptr);
}

} // namespace
} // namespace relayhud
