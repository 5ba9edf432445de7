#pragma once
// The integration doctor's runtime health (issue 20): what a backend's rows
// in the cache say about its integration over a window, beside what its
// workflows say (workflow_lint.h). Each finding names the runs behind it.
// The facts (6 h sweeper, the relay's state key, queue time from the
// dispatch) are cited in docs/crcr-integration-facts.md.
#include "relayhud/doctor/workflow_lint.h"
#include "relayhud/store/health_runs.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relayhud::doctor {

// The relay's zombie sweeper marks a run in_progress for this long timed_out
// (ZOMBIE_TIMEOUT_SECONDS, utils/config.py:158-162).
inline constexpr EpochSeconds kSweepAfterSeconds = 6 * 3600;
// Its schedule is not in test-infra; a run in progress this long was missed.
inline constexpr EpochSeconds kMissedAfterSeconds = 7 * 3600;

struct HealthFinding {
    Severity severity = Severity::Info;
    std::string check;   // "never-completed", ... (runtimeChecks())
    std::string message; // what the rows show, with counts
    std::string fix;
    std::vector<CheckRunRow> runs; // the check-run rows behind it, oldest first (at most 200)
};

const std::vector<CheckInfo>& runtimeChecks();

// What one run's job log says of its tested SHA (check `tested-sha`), and
// the checkout of the upstream repository behind it: the one at the
// dispatched SHA (Verified) or the first at another (Mismatched); none for
// NotRead (the log was never read) and NotShown (no upstream checkout in it:
// cannot judge).
enum class ShaEvidence : std::uint8_t { NotRead, Verified, Mismatched, NotShown };
struct TestedSha {
    ShaEvidence evidence = ShaEvidence::NotRead;
    const LogCheckout* checkout = nullptr; // into run.checkouts
    std::string upstreamRepo;              // "pytorch/pytorch"
};
TestedSha testedSha(const HealthRun& run);

struct RuntimeHealth {
    std::string repo;
    EpochSeconds since = 0;
    EpochSeconds now = 0;
    std::size_t runs = 0;         // check-run rows (every attempt)
    std::size_t workflowRuns = 0; // distinct run ids
    std::size_t completed = 0;
    std::size_t swept = 0;          // timed_out by the sweeper after 6 h
    std::size_t neverCompleted = 0; // in progress past kMissedAfterSeconds
    std::size_t sharedNames = 0;    // job names several legs reported under at one attempt
    std::size_t rerunRuns = 0;      // workflow runs with more than one attempt
    // Of the completed pull-request and push runs: none reported test counts,
    // none an artifact URL. Nightly self-reports apart.
    std::size_t completedPr = 0;
    std::size_t withoutCounts = 0;
    std::size_t withoutArtifactUrl = 0;
    // The relay's queue time (dispatch to in_progress) of first attempts; a
    // rerun's is measured from the original dispatch and says nothing.
    std::optional<double> queueMedianSeconds;
    std::optional<double> queueP90Seconds;
    // The tested SHA, over completed pull-request and push runs whose job log
    // was read (HealthRun::checkouts): the log shows the upstream repository
    // checked out at the dispatched SHA, only at others, or not at all
    // (cannot judge: a wheel, a tarball, a script's own clone).
    std::size_t logsRead = 0;
    std::size_t shaVerified = 0;
    std::size_t shaMismatched = 0;
    std::size_t shaNotShown = 0;
    std::vector<HealthFinding> findings; // errors first

    std::size_t count(Severity severity) const;
};

RuntimeHealth judgeRuntime(const std::string& repo, const std::vector<HealthRun>& runs,
                           EpochSeconds since, EpochSeconds now);

} // namespace relayhud::doctor
