#include "sim_steps.h"

#include <algorithm>

namespace relayhud::sim {
namespace {

struct StepShare {
    StepKind kind;
    const char* name;
    double share; // of the job's wall time
};

std::vector<StepShare> testSteps()
{
    return {{StepKind::SetUp, "Set up job", 0.01},
            {StepKind::Checkout, "Checkout", 0.02},
            {StepKind::CheckoutPyTorch, "Checkout PyTorch", 0.04},
            {StepKind::Python, "Setup Python", 0.02},
            {StepKind::Install, "Install wheels", 0.08},
            {StepKind::Tests, "Run tests", 0.80},
            {StepKind::Upload, "Upload test reports", 0.01},
            {StepKind::PostCheckout, "Post Checkout", 0.01},
            {StepKind::Complete, "Complete job", 0.01}};
}

std::vector<StepShare> buildSteps()
{
    return {{StepKind::SetUp, "Set up job", 0.01},
            {StepKind::Checkout, "Checkout", 0.03},
            {StepKind::CheckoutPyTorch, "Checkout PyTorch", 0.05},
            {StepKind::Python, "Setup Python", 0.02},
            {StepKind::Build, "Build wheel", 0.86},
            {StepKind::PostCheckout, "Post Checkout", 0.02},
            {StepKind::Complete, "Complete job", 0.01}};
}

std::vector<StepShare> infraSteps()
{
    return {{StepKind::SetUp, "Set up job", 0.2},
            {StepKind::Containers, "Initialize containers", 0.7},
            {StepKind::Complete, "Complete job", 0.1}};
}

// The step that was running when the job ended early.
bool isMainStep(StepKind kind) { return kind == StepKind::Tests || kind == StepKind::Build; }

// The step where the job ended early fails (or is cancelled) and the ones
// after it are skipped; post steps and "Complete job" always run.
// A failed pytest fails "Run tests"; the upload after it runs anyway
// (`if: always()`).
void settle(std::vector<StepPlan>& steps, JobShape shape, bool uploads, bool testsFailed)
{
    const bool cancelled = shape == JobShape::Cancelled || shape == JobShape::TimedOut;
    bool after = false;
    for (StepPlan& step : steps) {
        if (step.kind == StepKind::Complete || step.kind == StepKind::PostCheckout)
            continue;
        if (after) {
            step.state = StepState::Skipped;
            continue;
        }
        if (shape == JobShape::Infra && step.kind == StepKind::Containers)
            step.state = StepState::Failure;
        else if (cancelled && isMainStep(step.kind))
            step.state = StepState::Cancelled;
        after = step.state != StepState::Success;
        if (step.kind == StepKind::Tests && testsFailed)
            step.state = StepState::Failure;
        if (step.kind == StepKind::Upload && !uploads)
            step.state = StepState::Skipped;
    }
}

void markRunning(std::vector<StepPlan>& steps, std::uint64_t now)
{
    for (StepPlan& step : steps) {
        if (step.end <= now)
            continue;
        step.state = step.start <= now ? StepState::Running : StepState::Pending;
    }
}

} // namespace

JobShape jobShape(const SimRow& row, const JobSpec& job)
{
    const auto& r = row.run.reported;
    if (r.status != RunStatus::Completed)
        return JobShape::Running;
    if (r.conclusion == Conclusion::Cancelled)
        return JobShape::Cancelled;
    if (r.conclusion == Conclusion::TimedOut)
        return JobShape::TimedOut;
    if (job.kind == JobKind::Build)
        return r.conclusion == Conclusion::Success ? JobShape::Build : JobShape::Infra;
    // A torch-spyre variant B callback reports no counts, yet its suites ran.
    return r.tests || row.evidence.junitTotal > 0 ? JobShape::Tests : JobShape::Infra;
}

std::vector<StepPlan> planSteps(const SimRow& row, const JobSpec& job, bool uploads,
                                EpochSeconds now)
{
    const JobShape shape = jobShape(row, job);
    const auto& r = row.run.reported;
    const EpochSeconds started = r.startedAt.value_or(now);
    const EpochSeconds ended = r.completedAt.value_or(started + job.maxMinutes * 60);
    std::vector<StepShare> shares = shape == JobShape::Infra     ? infraSteps()
                                    : job.kind == JobKind::Build ? buildSteps()
                                                                 : testSteps();
    std::vector<StepPlan> steps;
    const auto begin = static_cast<std::uint64_t>(started) * kTicksPerSecond + 1'234'567;
    const auto length =
        static_cast<std::uint64_t>(std::max<EpochSeconds>(1, ended - started)) * kTicksPerSecond;
    std::uint64_t at = begin;
    for (const StepShare& share : shares) {
        const auto span = static_cast<std::uint64_t>(share.share * static_cast<double>(length));
        steps.push_back({share.kind, share.name, at, at + span, StepState::Success});
        at += span;
    }
    settle(steps, shape, uploads, shape == JobShape::Tests && r.conclusion == Conclusion::Failure);
    if (shape == JobShape::Running)
        markRunning(steps, static_cast<std::uint64_t>(now) * kTicksPerSecond);
    return steps;
}

const char* stepConclusion(StepState state)
{
    switch (state) {
    case StepState::Success: return "success";
    case StepState::Failure: return "failure";
    case StepState::Cancelled: return "cancelled";
    case StepState::Skipped: return "skipped";
    case StepState::Running:
    case StepState::Pending: break;
    }
    return nullptr;
}

const char* stepStatus(StepState state)
{
    switch (state) {
    case StepState::Running: return "in_progress";
    case StepState::Pending: return "queued";
    default: break;
    }
    return "completed";
}

} // namespace relayhud::sim
