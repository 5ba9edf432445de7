#pragma once
// The steps of a GitHub Actions job, timed within the row's started_at and
// completed_at: the jobs API lists them and the raw log has one ##[group]
// per step, so both come from one plan.
#include "relayhud/sim/sim_dataset.h"
#include "sim_catalog.h"

#include <cstdint>
#include <string>
#include <vector>

namespace relayhud::sim {

// What the job went through, read from the row.
enum class JobShape : std::uint8_t {
    Build,     // a build job that finished
    Tests,     // a test job that ran pytest and reported counts
    Infra,     // failed before any test ran: pod, runner or image trouble
    Cancelled, // cancelled while a step ran
    TimedOut,  // killed at timeout-minutes
    Running,   // not finished at the dataset's `now`
};

enum class StepKind : std::uint8_t {
    SetUp,
    Containers,
    Checkout,
    CheckoutPyTorch,
    Python,
    Install,
    Build,
    Tests,
    Upload,
    PostCheckout,
    Complete
};
enum class StepState : std::uint8_t { Success, Failure, Cancelled, Skipped, Running, Pending };

struct StepPlan {
    StepKind kind = StepKind::SetUp;
    std::string name;
    std::uint64_t start = 0; // 100 ns ticks since the epoch (a raw log's resolution)
    std::uint64_t end = 0;
    StepState state = StepState::Success;
};

inline constexpr std::uint64_t kTicksPerSecond = 10'000'000;

JobShape jobShape(const SimRow& row, const JobSpec& job);
// `uploads`: the row has an artifact to upload. `now` bounds a running job.
std::vector<StepPlan> planSteps(const SimRow& row, const JobSpec& job, bool uploads,
                                EpochSeconds now);

const char* stepConclusion(StepState state); // "success", ... or nullptr while running
const char* stepStatus(StepState state);     // "completed", "in_progress", "queued"

} // namespace relayhud::sim
