#pragma once
// The upstream commit a run really tested, where it differs from the SHA its
// HUD row names, and where that was read (../shared/specs/real-backends.md
// 3.1, 3.5).
//
// torch-spyre builds only merged PRs and tests the base branch's HEAD at
// gate time, while the HUD row carries the PR's head (3.1). The commit it
// built shows in three places (3.5, torch-spyre .github/actions/
// checkout-pytorch/action.yml @4ef5062f, build_test_pytorch_source.yaml
// @01f88357 and @5a14b852):
//  - the checkout's log: `FETCH_REF <sha or release/X.Y>`, then
//    `git log -1 --oneline` (`<abbreviated sha> <subject>`), read by
//    logs/checkout_scan.h into a LogCheckout;
//  - the build job's display name `Build PyTorch@<sha> + torch-spyre` and
//    its step `Checkout pytorch@<sha>`;
//  - the artifact names `pytorch-wheel-<sha>`, `torch-spyre-wheel-<sha>` and
//    `upstream-beta-reports-<sha>`.
// These functions read those shapes and nothing else; they take plain text,
// do no I/O, and are what the artifact pass and the log scan call.
#include "relayhud/model/log_checkout.h"
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

// Where a tested commit was read. Stored as these numbers (the cache's
// tested_commit.source): never reorder. A lower number is stronger evidence
// (what the job's log shows it checked out beats what a name says).
enum class TestedCommitSource : std::uint8_t {
    ActionsCheckout = 1, // the job log: actions/checkout's commit
    FetchRef = 2,        // the job log: torch-spyre's checkout-pytorch (FETCH_REF, git log)
    JobName = 3,         // "Build PyTorch@<sha> + torch-spyre", "Checkout pytorch@<sha>"
    ArtifactName = 4,    // "pytorch-wheel-<sha>", "torch-spyre-wheel-<sha>", ...
};

struct TestedCommit {
    // Lowercase hex: a full SHA (40 or 64 digits), or the abbreviation git
    // printed (`git log -1 --oneline`, 7 or more digits) when the job fetched
    // a branch and its log names the commit only so.
    std::string sha;
    // The branch the job fetched ("release/2.10") when it named one rather
    // than a SHA; "" otherwise.
    std::string ref;
    TestedCommitSource source = TestedCommitSource::ActionsCheckout;
    std::string evidence;   // the job name or artifact name (or log line text) it came from
    std::uint64_t line = 0; // from a log: the line in the raw log, from 1

    bool abbreviated() const { return sha.size() < 40; }
    bool operator==(const TestedCommit&) const = default;
};

// 40 (SHA-1) or 64 (SHA-256) hex digits, either case: an upstream commit.
// Anything else a row carries as its SHA (a nightly's free-text delivery-id
// such as "nightly-2026-12-01" or "buildkite-<n>-<uuid>", a push's delivery
// GUID; real-backends.md section 2) is not an upstream commit, and is never
// linked as one.
bool isUpstreamCommit(std::string_view sha);

// Whether `tested` (a full SHA or an abbreviation) names the commit `sha`.
bool sameCommit(std::string_view tested, std::string_view sha);

// "log (actions/checkout)", "log (FETCH_REF)", "job name", "artifact name".
std::string testedCommitSourceName(TestedCommitSource source);

// The SHA in a torch-spyre build job's or step's display name:
// "Build PyTorch@<sha> + torch-spyre" or "Checkout pytorch@<sha>" (40 or 64
// hex digits; either case). nullopt for any other name.
std::optional<TestedCommit> testedCommitFromJobName(std::string_view jobName);

// The SHA named by a run's artifacts `pytorch-wheel-<sha>`,
// `torch-spyre-wheel-<sha>` and `upstream-beta-reports-<sha>` (full SHAs;
// other names are ignored). nullopt when none has that shape; an error when
// two of them name different commits (the run's names cannot say which one
// it tested).
Result<std::optional<TestedCommit>>
testedCommitFromArtifactNames(const std::vector<std::string>& names);

// What a job log's checkouts (logs/checkout_scan.h) say the run tested: its
// last checkout of `upstreamRepo` (case-insensitive) that names a commit.
// nullopt when the log shows none.
std::optional<TestedCommit> testedCommitFromCheckouts(const std::vector<LogCheckout>& checkouts,
                                                      std::string_view upstreamRepo);

// Whether a tested commit read from `source` is a merged PR's build. The
// FETCH_REF checkout, the build job's name and the wheel and report names are
// torch-spyre's, which builds a PR only once merged, at its base branch's
// HEAD (real-backends.md 3.1): the PR's change is in what it tested.
// actions/checkout's commit, where it is not the row's, may be anything else:
// the default branch, which a checkout without `ref` takes (actions/checkout
// action.yml, input `ref`; the doctor's exact-sha rule), or a merge ref.
bool isMergedBuildSource(TestedCommitSource source);

// One line for the details, the tooltip and the report, beside the row's
// commit: "tested main@abc1234 after #1234 merged" (a torch-spyre-shaped
// source on a PR row; `baseBranch` is the PR's base when known, else the
// fetched ref), "tested release/2.10@abc1234", "tested abc1234, not the
// row's head", or "tested the row's commit" when they agree.
std::string testedCommitText(const TestedCommit& tested, const Sha& rowSha, PrNumber prNumber,
                             std::string_view baseBranch);

} // namespace relayhud
