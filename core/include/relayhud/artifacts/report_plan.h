#pragma once
// Which of a workflow run's GitHub artifacts hold its test reports, decided
// from the listing alone (name, size, expiry) before anything is downloaded.
//
// The real reporters put very different things beside their reports
// (../shared/specs/real-backends.md sections 1.3, 3.2, 3.3, 7):
//   torch-spyre/torch-spyre   `<config stem>.xml` per suite (90 days),
//                             `upstream-beta-reports-<sha>` holding all of them
//                             (30 days), and the wheels `pytorch-wheel-<sha>`
//                             and `torch-spyre-wheel-<sha>` (5 days, hundreds of MB)
//                             (torch-spyre build_test_pytorch_source.yaml
//                             @5a14b852, _upstream_tests_beta_matrix.yaml @1c1da12d)
//   pytorch/crcr-test         `crcr-health-l1[-closed|-push-deleted]-<run_id>`:
//                             health-report.json, health checks, not JUnit
//                             (crcr-test crcr-dispatch-receiver.yml @03d231d3)
//   PyTorch-style CI          `test-reports-runattempt<N>-..._<job id>`
// Reports are downloaded; binaries and health reports never are; an artifact
// whose name says nothing is downloaded to look inside only when it is small.
// A run holding both the per-suite files and the merged reports has the same
// cases twice: only the merged one is read while it lasts.
#include "relayhud/artifacts/listings.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

enum class ArtifactKind : std::uint8_t {
    Report,        // JUnit by its name: test-reports*, *.xml, *junit*, *test-results*
    MergedReports, // one artifact holding every suite's report: upstream-beta-reports-<sha>
    Binary,        // wheels, packages, images: never downloaded
    HealthReport,  // crcr-test's health-check JSON: never a test report
    Unknown,       // the name says nothing
};

ArtifactKind artifactKindOf(const std::string& name);
const char* artifactKindName(ArtifactKind kind); // "report", "wheel or binary", ...

// An artifact of unknown kind is downloaded to look inside up to this size.
inline constexpr std::int64_t kPeekArtifactBytes = 16LL << 20;

// SkippedArtifact::why of an artifact that belongs to another job or attempt.
inline constexpr std::string_view kOtherJobOrAttempt = "of another job or attempt";

struct SkippedArtifact {
    std::string name;
    std::int64_t bytes = 0;
    std::string why; // "a wheel or other binary", "the same cases as upstream-beta-reports-..."
};

struct ReportPlan {
    std::vector<std::size_t> download; // indexes into the listing, in listing order
    std::vector<SkippedArtifact> skipped;
    // Report artifacts the listing calls expired (or whose expires_at passed),
    // and the latest expiry among them: "reports expired on <date>".
    int expiredReports = 0;
    EpochSeconds expiredOn = 0;
    // Report artifacts that are live (downloaded or not): 0 means the run
    // has none to read now.
    int liveReports = 0;
};

// jobId and runAttempt narrow PyTorch-style names that carry `_<job id>` or
// `runattempt<N>` (a run's artifacts cover all its jobs); names that carry
// neither are all the run's. `now` judges expires_at.
ReportPlan planReportDownloads(const std::vector<github::ArtifactInfo>& listing,
                               const std::string& jobId, int runAttempt, EpochSeconds now);

// "pytorch-wheel-<sha> (812 MB, a wheel or other binary)", one per skipped
// artifact, for the test run's warnings.
std::string skippedText(const SkippedArtifact& skipped);

} // namespace relayhud
