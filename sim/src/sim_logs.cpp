#include "sim_logs.h"

#include "relayhud/sim/sim_artifacts.h"
#include "sim_artifact_names.h"
#include "sim_text.h"

#include <algorithm>
#include <cstdio>

namespace relayhud::sim {
namespace {

constexpr std::string_view kCyan = "\x1b[36;1m";

std::string hexOf(std::uint64_t value, int digits)
{
    char buf[24];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
    return std::string(buf + 16 - digits);
}

std::string runnerName(const LogContext& ctx) { return runnerHostName(*ctx.job, ctx.hash); }

void group(LogWriter& log, const std::string& title, const std::vector<std::string>& body)
{
    log.line("##[group]" + title);
    for (const std::string& text : body)
        log.line(text);
    log.line("##[endgroup]");
}

void command(LogWriter& log, const std::string& run, const std::vector<std::string>& env)
{
    log.line("##[group]Run " + run);
    log.line(std::string(kCyan) + run + std::string(kAnsiReset));
    log.line("shell: /usr/bin/bash -e {0}");
    if (!env.empty())
        log.line("env:");
    for (const std::string& text : env)
        log.line("  " + text);
    log.line("##[endgroup]");
}

void setUp(LogWriter& log, const LogContext& ctx)
{
    const std::string& repo = ctx.backend->backend.repo;
    log.line("Current runner version: '2.325.0'");
    log.line("Runner name: '" + runnerName(ctx) + "'");
    log.line("Runner group name: 'Default'");
    log.line("Machine name: 'ip-10-0-" + std::to_string(ctx.hash % 250) + "-"
             + std::to_string((ctx.hash >> 8) % 250) + "'");
    group(log, "Operating System", {"Ubuntu", "22.04.5", "LTS"});
    group(log, "GITHUB_TOKEN Permissions",
          {"Actions: read", "Contents: read", "Metadata: read", "Packages: read"});
    log.line("Secret source: Actions");
    log.line("Prepare workflow directory");
    log.line("Prepare all required actions");
    log.line("Getting action download info");
    log.line("Download action repository 'actions/checkout@v4' "
             "(SHA:11bd71901bbe5b1630ceea73d27597364c9af683)");
    log.line("Download action repository 'actions/setup-python@v5' "
             "(SHA:a26af69be951a213d495a4c3e4e4022e16d87065)");
    log.line("Download action repository 'actions/upload-artifact@v4' "
             "(SHA:ea165f8d65b6e75b540449e92b4886f43607fa02)");
    log.line("Uses: " + repo + "/.github/workflows/ci.yml@refs/heads/main");
    log.line("Complete job name: " + ctx.row->run.jobName);
}

// actions/checkout v4 as the runner logs it (src/git-source-provider.ts,
// getSource): the repository, the fetch, the checkout, then the commit it
// checked out, echoed by `git log -1 --format=%H`. An empty `ref` is the
// default branch, which the action looks up first.
void checkout(LogWriter& log, const LogContext& ctx, const std::string& repo,
              const std::string& ref, const std::string& sha, const std::string& path,
              const std::string& subject)
{
    const std::string& own = ctx.backend->backend.repo;
    const std::string name = own.substr(own.find('/') + 1);
    const std::string workspace = "/__w/" + name + "/" + name + (path.empty() ? "" : "/" + path);
    std::vector<std::string> with = {"with:", "  repository: " + repo};
    if (!ref.empty())
        with.push_back("  ref: " + ref);
    with.insert(with.end(), {"  token: ***", "  fetch-depth: 1"});
    if (!path.empty())
        with.push_back("  path: " + path);
    group(log, "Run actions/checkout@v4", with);
    log.line("Syncing repository: " + repo);
    group(log, "Getting Git version info",
          {"Working directory is '" + workspace + "'", "[command]/usr/bin/git version",
           "git version 2.49.0"});
    const std::string fetch = "[command]/usr/bin/git -c protocol.version=2 fetch --no-tags "
                              "--prune --no-recurse-submodules --depth=1 origin ";
    if (ref.empty()) {
        group(log, "Determining the default branch",
              {"Retrieving the default branch name", "Default branch 'main'"});
        group(log, "Fetching the repository",
              {fetch + "+refs/heads/main:refs/remotes/origin/main"});
        group(log, "Checking out the ref",
              {"[command]/usr/bin/git checkout --progress --force -B main refs/remotes/origin/main",
               "Switched to a new branch 'main'", "branch 'main' set up to track 'origin/main'."});
    } else {
        group(log, "Fetching the repository", {fetch + ref});
        group(log, "Checking out the ref",
              {"[command]/usr/bin/git checkout --progress --force " + ref,
               "HEAD is now at " + sha.substr(0, 7) + " " + subject});
    }
    log.line("[command]/usr/bin/git log -1 --format=%H");
    log.line(sha);
}

// torch-spyre's own .github/actions/checkout-pytorch (real-backends.md 3.5;
// torch-spyre checkout-pytorch/action.yml @4ef5062f): the folders, FETCH_REF
// (the sha input, or release/X.Y), the repository, a depth-1 fetch and a
// detached checkout, then `git log -1 --oneline` and TORCH_ROOT.
void checkoutPyTorchAction(LogWriter& log, const LogContext& ctx)
{
    const std::string& sha = ctx.row->testedSha.value;
    const std::string root = "/__w/torch-spyre/torch-spyre";
    group(log, "Run ./.github/actions/checkout-pytorch", {"with:", "  sha: " + sha});
    log.line("TORCH_SPYRE_DIR " + root);
    log.line("PYTORCH_DIR " + root + "/pytorch");
    log.line("FETCH_REF " + sha);
    log.line("PYTORCH_REPO_URL https://github.com/pytorch/pytorch.git");
    log.line("From https://github.com/pytorch/pytorch");
    log.line(" * branch            " + sha + " -> FETCH_HEAD");
    log.line("HEAD is now at " + sha.substr(0, 11) + " Merged upstream change");
    log.line(sha.substr(0, 11) + " Merged upstream change");
    log.line("TORCH_ROOT " + root + "/pytorch");
}

void infra(LogWriter& log, const LogContext& ctx, const StepPlan& step)
{
    const std::string pod = runnerName(ctx) + "-runner-" + hexOf(ctx.hash >> 20, 5);
    if (ctx.hash % 3 == 0) {
        log.line("##[error]The self-hosted runner: " + runnerName(ctx)
                 + " lost communication with the server. Verify the machine is running and has a "
                   "healthy network connection. Anything in your workflow that terminates the "
                   "runner process, starves it for CPU/Memory, or blocks its network access can "
                   "cause this error.");
        return;
    }
    if (ctx.hash % 3 == 1) {
        const std::string image =
            "ghcr.io/" + ctx.backend->backend.repo + "/ci-image:" + hexOf(ctx.hash, 12);
        log.line("##[group]Pulling image " + image);
        for (int attempt = 0; attempt < 3; ++attempt) {
            // Docker's words for a registry that does not answer in time; the
            // default rules' network failure (infra) matches them.
            log.line("Error response from daemon: Get \"https://ghcr.io/v2/\": net/http: TLS "
                     "handshake timeout");
            log.line("##[warning]Docker pull failed with exit code 1, back off 8.4 seconds before "
                     "retry.");
            log.advance(9 * kTicksPerSecond);
        }
        log.line("##[endgroup]");
        log.line("##[error]Docker pull failed with exit code 1");
        return;
    }
    const std::uint64_t waited = (step.end - step.start) / kTicksPerSecond;
    for (std::uint64_t s = 7; s + 20 < waited; s += 20) {
        log.line("Pod " + pod
                 + "-workflow: phase=Pending, conditions=[PodScheduled=False], "
                   "waiting=[none] ("
                 + std::to_string(s) + "s/600s)");
        log.advance(20 * kTicksPerSecond);
    }
    log.line("##[error]Error: pod failed to come online with error: Error: Pod " + pod
             + "-workflow is unhealthy with phase status Pending: backoff timeout");
    log.line("##[error]Process completed with exit code 1.");
    log.line("##[error]Executing the custom container implementation failed. Please contact your "
             "self hosted runner administrator.");
}

void stopEarly(LogWriter& log, const LogContext& ctx, const StepPlan& step)
{
    log.at(step.end);
    if (step.state == StepState::Cancelled
        && ctx.row->run.reported.conclusion == Conclusion::TimedOut)
        log.line("##[error]The job running on runner " + runnerName(ctx)
                 + " has exceeded the maximum execution time of 240 minutes.");
    log.line("##[error]The operation was canceled.");
}

void build(LogWriter& log, const LogContext& ctx, const StepPlan& step)
{
    command(log, "python setup.py bdist_wheel", {"MAX_JOBS: 16", "USE_CCACHE: 1"});
    const int targets = 1842;
    const std::uint64_t stride = (step.end - step.start) / 64;
    for (int i = 1; i <= 60; ++i) {
        if (step.state == StepState::Cancelled && i > 30)
            return stopEarly(log, ctx, step);
        log.at(step.start + stride * static_cast<std::uint64_t>(i));
        log.line("[" + std::to_string(i * targets / 60) + "/" + std::to_string(targets)
                 + "] Building CXX object csrc/CMakeFiles/_C.dir/aten/kernels/op_"
                 + std::to_string(i) + ".cpp.o");
    }
    log.line("Successfully built dist/"
             + ctx.backend->backend.repo.substr(ctx.backend->backend.repo.find('/') + 1)
             + "-0.1.0+git" + ctx.downstreamSha.substr(0, 7) + "-cp311-cp311-linux_x86_64.whl");
}

std::vector<std::string> testEnv(const LogContext& ctx)
{
    return {"PYTORCH_TEST_CONFIG: " + ctx.job->config,
            "SHARD_NUMBER: " + std::to_string(ctx.job->shard),
            "NUM_TEST_SHARDS: " + std::to_string(ctx.job->numShards),
            "PYTORCH_TESTING_DEVICE_ONLY_FOR: " + ctx.backend->device,
            "CONTINUE_THROUGH_ERROR: " + std::string(ctx.continueOnError ? "True" : "False")};
}

void tests(LogWriter& log, const LogContext& ctx, const StepPlan& step)
{
    const std::string run = "python -m pytest -v --durations-min=0 --junit-xml=test-reports/"
                            + ctx.job->config
                            + ".xml --shard-id=" + std::to_string(ctx.job->shard - 1)
                            + " --num-shards=" + std::to_string(ctx.job->numShards);
    command(log, run, testEnv(ctx));
    if (!ctx.run) { // cancelled or timed out while testing
        log.line("collecting ... ");
        return stopEarly(log, ctx, step);
    }
    // With continue-on-error the error line is still there; only the job
    // (and the step's conclusion) stay green.
    if (writePytestSession(log, ctx, step.end) != 0)
        log.line("##[error]Process completed with exit code 1.");
}

void upload(LogWriter& log, const LogContext& ctx)
{
    const SimStore store = ctx.backend->store;
    if (store == SimStore::GitHubArtifacts) {
        group(log, "Run actions/upload-artifact@v4",
              {"with:", "  name: " + ctx.artifactName, "  path: test/test-reports",
               "  retention-days: " + std::to_string(ctx.backend->retentionDays),
               "  if-no-files-found: warn"});
        log.line("With the provided path, there will be 1 file uploaded");
        log.line("Artifact name is valid!");
        log.line("Beginning upload of artifact content to blob storage");
        log.line("Finished uploading artifact content to blob storage!");
        log.line("Artifact " + ctx.artifactName + " has been successfully uploaded!");
        return;
    }
    const std::string target = store == SimStore::S3Bucket
                                   ? "s3://" + std::string(kSimBucket) + "/" + ctx.artifactName
                                   : ctx.artifactName;
    command(log, "ci/upload-test-reports.sh test/test-reports " + target, {});
    log.line("upload: test/test-reports -> " + target);
}

void writeStep(LogWriter& log, const LogContext& ctx, const StepPlan& step)
{
    switch (step.kind) {
    case StepKind::SetUp: return setUp(log, ctx);
    case StepKind::Containers: return infra(log, ctx, step);
    case StepKind::Checkout:
        return checkout(log, ctx, ctx.backend->backend.repo, ctx.downstreamSha, ctx.downstreamSha,
                        "", "Merge pull request");
    case StepKind::CheckoutPyTorch:
        if (ctx.backend->reporter == Reporter::TorchSpyre)
            return checkoutPyTorchAction(log, ctx);
        if (!ctx.defaultBranchTip.empty())
            return checkout(log, ctx, "pytorch/pytorch", "", ctx.defaultBranchTip, "pytorch", "");
        return checkout(log, ctx, "pytorch/pytorch", ctx.row->testedSha.value,
                        ctx.row->testedSha.value, "pytorch", "upstream head");
    case StepKind::Python:
        group(log, "Run actions/setup-python@v5", {"with:", "  python-version: 3.11"});
        return log.line("Successfully set up CPython (3.11.13)");
    case StepKind::Install:
        command(log, "pip install dist/*.whl", {});
        return log.line("Successfully installed torch-2.9.0a0+git" + ctx.row->testedSha.shortSha());
    case StepKind::Build: return build(log, ctx, step);
    case StepKind::Tests:
        if (!ctx.childRunId.empty()) {
            // build_test_pytorch_source.yaml @5a14b852, the test job's script.
            log.line("Dispatching _upstream_tests_beta_matrix.yaml (mode=validate)");
            log.line("Found dispatched run " + ctx.childRunId + " (https://github.com/"
                     + ctx.backend->backend.repo + "/actions/runs/" + ctx.childRunId + ")");
        }
        return tests(log, ctx, step);
    case StepKind::Upload: return upload(log, ctx);
    case StepKind::PostCheckout:
        log.line("Post job cleanup.");
        return log.line("[command]/usr/bin/git version");
    case StepKind::Complete: return log.line("Cleaning up orphan processes");
    }
}

} // namespace

void LogWriter::at(std::uint64_t ticks) { m_ticks = std::max(m_ticks, ticks); }

void LogWriter::line(std::string_view text)
{
    appendLogTimestamp(m_out, m_ticks);
    m_out += text;
    m_out += '\n';
    m_ticks += 731; // lines written in one burst are ~73 µs apart
}

void LogWriter::lines(std::string_view text)
{
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        line(text.substr(0, end));
        text.remove_prefix(std::min(end + 1, text.size()));
    }
}

std::string writeJobLog(const LogContext& ctx)
{
    std::string out;
    LogWriter log(out);
    for (const StepPlan& step : ctx.steps) {
        if (step.state == StepState::Skipped || step.state == StepState::Pending
            || step.state == StepState::Running)
            continue; // skipped steps leave no lines; a running job has no log yet
        log.at(step.start);
        writeStep(log, ctx, step);
    }
    return out;
}

} // namespace relayhud::sim
