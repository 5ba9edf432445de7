#include "sim_catalog.h"

#include <algorithm>

namespace relayhud::sim {
namespace {

// One matrix config split into shards, named the way pytorch-style workflows
// name their legs: "test (<config>, <shard>, <num_shards>, <runner>)".
struct ShardedConfig {
    std::string config;
    int shards = 1;
    std::string runner;
    std::int64_t testsTotal = 0; // across all shards
    int minMinutes = 20;
    int maxMinutes = 60;
};

JobSpec buildJob(std::string name, int minMinutes, int maxMinutes)
{
    JobSpec job;
    job.name = std::move(name);
    job.kind = JobKind::Build;
    job.minMinutes = minMinutes;
    job.maxMinutes = maxMinutes;
    return job;
}

void addShards(WorkflowSpec& workflow, const ShardedConfig& spec, int jobsScale)
{
    const int total = spec.shards * jobsScale;
    for (int shard = 1; shard <= total; ++shard) {
        JobSpec job;
        job.name = "test (" + spec.config + ", " + std::to_string(shard) + ", "
                   + std::to_string(total) + ", " + spec.runner + ")";
        job.kind = JobKind::Test;
        job.testsTotal = std::max<std::int64_t>(1, spec.testsTotal / total);
        job.minMinutes = spec.minMinutes;
        job.maxMinutes = spec.maxMinutes;
        job.config = spec.config;
        job.shard = shard;
        job.numShards = total;
        job.runner = spec.runner;
        workflow.jobs.push_back(std::move(job));
    }
}

WorkflowSpec workflow(std::string name, JobSpec build, const std::vector<ShardedConfig>& configs,
                      int jobsScale)
{
    WorkflowSpec out{std::move(name), {std::move(build)}};
    for (const auto& config : configs)
        addShards(out, config, jobsScale);
    return out;
}

// A Spyre backend that reports the way our first guess had it: one zip of
// test-reports per job, its run URL as artifact_url, on every PR head, at L4
// (so the demo shows a check that would block a merge). The real
// torch-spyre/torch-spyre is spyreAsReal() below.
BackendSpec spyre(int scale)
{
    BackendSpec b{{"spyre-labs/spyre-inductor-ci", Level::L4, {"spyre-ci-oncall", "mkarlsson"}},
                  "spyre",
                  "spyre-sdk 1.6.2",
                  1.0,
                  true,
                  1.0,
                  0.03,
                  {}};
    const std::string runner = "linux.spyre.1";
    b.workflows.push_back(workflow("CI", buildJob("build", 12, 25),
                                   {{"default", 3, runner, 9600, 35, 70},
                                    {"inductor", 2, runner, 3100, 30, 55},
                                    {"distributed", 1, "linux.spyre.4", 420, 15, 30}},
                                   scale));
    b.store = SimStore::GitHubArtifacts;
    b.retentionDays = 7; // upload-artifact's retention-days: 7 in its CI
    return b;
}

BackendSpec ascend(int scale)
{
    BackendSpec b{{"Ascend/pytorch", Level::L2, {"ascend-robot", "hwliu-npu"}},
                  "npu",
                  "CANN 8.1.RC1",
                  0.7,
                  true,
                  0.9,
                  0.05,
                  {}};
    const std::string runner = "linux.arm64.npu.2";
    b.workflows.push_back(workflow(
        "pull", buildJob("build", 18, 35),
        {{"default", 4, runner, 14000, 40, 90}, {"op-plugin", 1, runner, 2600, 25, 45}}, scale));
    b.store = SimStore::S3Bucket;
    return b;
}

BackendSpec xpu(int scale)
{
    BackendSpec b{{"intel/torch-xpu-ops", Level::L2, {"xpu-triage", "dvrogozh-bot"}},
                  "xpu",
                  "oneAPI 2025.2",
                  0.6,
                  true,
                  0.8,
                  0.04,
                  {}};
    b.workflows.push_back(workflow("Linux PR", buildJob("build", 25, 45),
                                   {{"op_ut", 3, "linux.idc.xpu", 11000, 45, 100},
                                    {"e2e_huggingface", 2, "linux.idc.xpu", 180, 30, 60}},
                                   scale));
    b.workflows.push_back(workflow("Windows PR", buildJob("build", 35, 60),
                                   {{"op_ut", 1, "windows.xpu.arc", 5200, 40, 80}}, scale));
    b.store = SimStore::HttpsReportGz;
    b.classSuffix = "XPU"; // an in-tree device type
    return b;
}

BackendSpec vllm(int scale)
{
    BackendSpec b{{"vllm-project/vllm", Level::L3, {"vllm-ci", "youkaichao-oss"}},
                  "cuda",
                  "CUDA 12.8",
                  0.35,
                  false,
                  0.75,
                  0.06,
                  {}};
    b.workflows.push_back(workflow("pytorch-integration", buildJob("build", 20, 40),
                                   {{"basic-correctness", 1, "linux.g6.4xlarge", 640, 15, 30},
                                    {"entrypoints", 2, "linux.g6.4xlarge", 1800, 20, 40},
                                    {"models", 1, "linux.g6.12xlarge", 950, 30, 60}},
                                   scale));
    b.store = SimStore::GitHubArtifacts;
    b.classSuffix = "CUDA";
    return b;
}

BackendSpec tpu(int scale)
{
    BackendSpec b{{"openxla-oot/torch-tpu", Level::L3, {"tpu-oncall"}},
                  "tpu",
                  "libtpu 0.0.19",
                  0.4,
                  true,
                  0.0, // uploads nothing: its results live only in its logs
                  0.03,
                  {}};
    b.nightlyKeyFreeText = true; // its nightly delivery-id: "nightly-<date>"
    b.checksOutDefaultBranch = true;
    b.workflows.push_back(workflow(
        "TPU CI", buildJob("build", 15, 30),
        {{"default", 2, "v5e-8", 4800, 25, 50}, {"dynamo", 1, "v5e-8", 1300, 20, 40}}, scale));
    return b;
}

BackendSpec mlu(int scale)
{
    BackendSpec b{{"openmlu/torch-mlu", Level::L4, {"mlu-ci", "zhao-mlu"}},
                  "mlu",
                  "CNToolkit 4.2",
                  0.9,
                  false,
                  0.85,
                  0.04,
                  {}};
    b.workflows.push_back(workflow(
        "ci", buildJob("build", 20, 35),
        {{"default", 3, "mlu590", 10500, 35, 75}, {"distributed", 1, "mlu590-x8", 600, 20, 40}},
        scale));
    b.store = SimStore::HttpsTarball;
    return b;
}

// pytorch/crcr-test, the relay's probe: the relay accepts its callbacks only
// at L2+ (callback_handler.py:65-72), so it is in the allowlist, and the HUD
// counts its x* jobs' expected outcomes as successes (crcr_summary/query.sql,
// pytorch/test-infra @61a77570). Its jobs report no test counts.
BackendSpec crcrTest()
{
    BackendSpec b;
    b.backend = {"pytorch/crcr-test", Level::L2, {"pytorch-dev-infra"}};
    b.device = "cpu";
    b.sdk = "none";
    b.coverage = 0.5;
    b.nightly = true;
    b.artifactShare = 0.0;
    b.failRate = 0.0;
    b.probe = true;
    b.storyFree = true;
    WorkflowSpec wf{"crcr-probe", {}};
    for (const char* name :
         {"smoke", "echo-payload", "xfail-probe", "xcancel-probe", "xtimeout-probe"})
        wf.jobs.push_back(buildJob(name, 1, 3));
    b.workflows.push_back(std::move(wf));
    return b;
}

// A busy backend: a wide matrix on every PR head, whose test legs do not
// pass job-name, so they all report job_name "test" (same run_id, each its own
// check_run_id). At --jobs-scale 4 a 50-PR page of its crcr_backend_dashboard
// is far over Vercel's 4.5 MB.
BackendSpec rocm(int scale)
{
    BackendSpec b{{"ROCm/torch-rocm-ext", Level::L3, {"rocm-ci-oncall"}},
                  "cuda", // ROCm builds of PyTorch name their device cuda
                  "ROCm 6.4.1",
                  1.0,
                  true,
                  0.0,
                  0.02,
                  {}};
    b.storyFree = true;
    b.sharedTestJobName = "test";
    b.classSuffix = "CUDA";
    b.workflows.push_back(workflow("rocm-ci", buildJob("build", 15, 30),
                                   {{"default", 24, "linux.rocm.gpu.mi300.2", 24000, 20, 45},
                                    {"inductor", 16, "linux.rocm.gpu.mi300.2", 8000, 20, 40}},
                                   scale));
    return b;
}

// Reported at L2 until it left the allowlist three days ago: its rows are
// found only through crcr_summary ("ClickHouse-only" repos).
BackendSpec departed(int scale)
{
    BackendSpec b{{"graphcore-oss/poptorch-crcr", Level::L2, {"poptorch-ci"}},
                  "ipu",
                  "Poplar SDK 3.4",
                  0.5,
                  false,
                  0.0,
                  0.04,
                  {}};
    b.storyFree = true;
    b.listed = false;
    b.dispatchLevel = Level::L2;
    b.removedDaysAgo = 3;
    b.workflows.push_back(workflow("ipu-ci", buildJob("build", 10, 20),
                                   {{"default", 3, "ipu.pod4", 2400, 15, 30}}, scale));
    return b;
}

// torch-spyre/torch-spyre as it really reports (real-backends.md 1.5, 3.1-3.6;
// torch-spyre push-pytorch-dispatch-to-clickhouse.yaml @0225ff97,
// build_test_pytorch_source.yaml @01f88357 (variant A) and @5a14b852
// (variant B), _upstream_tests_beta_matrix.yaml @1c1da12d): L2; builds only
// merged PRs (the `closed` dispatch of a PR labelled Merged) and tests main's
// HEAD at gate time, not the PR head its HUD row carries; one callback job
// `linux-x86_64 / pytorch / test` of the caller workflow; a nightly at 04:00
// on the main commit the nightly branch was cut from; never an artifact-url.
BackendSpec spyreAsReal()
{
    BackendSpec b;
    b.backend = {"torch-spyre/torch-spyre", Level::L2, {"spyre-triage", "dbrandon-ibm"}};
    b.device = "spyre";
    b.sdk = "spyre-sdk 1.7.0";
    b.coverage = 1.0; // every merged PR
    b.nightly = true;
    b.artifactShare = 0.0; // no artifact-url; its evidence is in its runs (SimEvidence)
    b.failRate = 0.03;
    b.storyFree = true;
    b.reporter = Reporter::TorchSpyre;
    b.store = SimStore::None;
    b.retentionDays = 90; // the per-suite XML
    JobSpec test;
    test.name = "linux-x86_64 / pytorch / test";
    test.kind = JobKind::Test;
    test.testsTotal = 1800;
    test.minMinutes = 60;
    test.maxMinutes = 110;
    test.config = "upstream_beta";
    test.shard = 1;
    test.numShards = 1;
    test.runner = "linux.spyre.1";
    b.workflows.push_back({"push-pytorch-dispatch-to-clickhouse", {test}});
    return b;
}

// TorchedHat/pytorch-redhat-ci (real-backends.md 1.4; pytorch-redhat-ci
// crcr-nightly.yml @a559b043): nightly only, on the main commit the nightly
// branch was cut from; one completed callback per job with its full name; no
// test-results, no artifact-url, no artifacts: its evidence is its logs.
BackendSpec torchedHat()
{
    BackendSpec b;
    b.backend = {"TorchedHat/pytorch-redhat-ci", Level::L2, {"rhel-pytorch-ci"}};
    b.device = "cuda";
    b.sdk = "CUDA 13.0 (RHEL 9.6)";
    b.coverage = 0.0; // no repository_dispatch handling
    b.nightly = true;
    b.artifactShare = 0.0;
    b.failRate = 0.05;
    b.storyFree = true;
    b.reporter = Reporter::TorchedHat;
    b.classSuffix = "CUDA";
    const std::string prefix = "linux-rhel9.6-cuda13.0-py3.12-gcc11-x86_64 / ";
    WorkflowSpec wf{"CRCR Nightly", {buildJob(prefix + "build", 40, 70)}};
    for (const char* leg : {"cpu", "inductor", "sgpu", "mgpu"}) {
        JobSpec job;
        job.name = prefix + "test (" + leg + ", linux.rhel96)";
        job.kind = JobKind::Test;
        job.testsTotal = 0; // command counts, written to step summaries only
        job.minMinutes = 30;
        job.maxMinutes = 90;
        job.config = leg;
        job.runner = "linux.rhel96";
        wf.jobs.push_back(std::move(job));
    }
    b.workflows.push_back(std::move(wf));
    return b;
}

// L1 backends are dispatched to but never report: allowlist entries only.
BackendSpec dispatchOnly(std::string repo, std::vector<std::string> oncalls, std::string device)
{
    BackendSpec b;
    b.backend = {std::move(repo), Level::L1, std::move(oncalls)};
    b.device = std::move(device);
    b.coverage = 0.0;
    return b;
}

} // namespace

std::size_t BackendSpec::jobCount() const
{
    std::size_t count = 0;
    for (const auto& wf : workflows)
        count += wf.jobs.size();
    return count;
}

const BackendSpec* findBackend(const std::vector<BackendSpec>& catalog, std::string_view repo)
{
    for (const auto& spec : catalog)
        if (spec.backend.repo == repo)
            return &spec;
    return nullptr;
}

const JobSpec* findJob(const BackendSpec& backend, std::string_view workflow, std::string_view job)
{
    for (const auto& wf : backend.workflows) {
        if (wf.name != workflow)
            continue;
        for (const auto& spec : wf.jobs)
            if (spec.name == job)
                return &spec;
    }
    return nullptr;
}

std::vector<BackendSpec> backendCatalog(int jobsScale)
{
    const int scale = std::max(1, jobsScale);
    std::vector<BackendSpec> out;
    out.push_back(dispatchOnly("rbln-oss/torch-rbln", {"rbln-oncall"}, "rbln"));
    out.push_back(dispatchOnly("tt-forge/pytorch-tt", {"tt-ci", "akovacs-tt"}, "tt"));
    out.push_back(ascend(scale));
    out.push_back(xpu(scale));
    out.push_back(vllm(scale));
    out.push_back(tpu(scale));
    out.push_back(spyre(scale));
    out.push_back(mlu(scale));
    // Appended after the others: the stories' picks stay as they were.
    out.push_back(crcrTest());
    out.push_back(rocm(scale));
    out.push_back(departed(scale));
    out.push_back(spyreAsReal());
    out.push_back(torchedHat());
    return out;
}

} // namespace relayhud::sim
