#pragma once
// Where a row's artifact lives on its store, named the way the real uploads
// name them; shared by the dataset (artifact_url), the routes that serve the
// stores and SimArtifacts.
#include "relayhud/sim/sim_artifacts.h"
#include "sim_catalog.h"

#include <string>
#include <string_view>

namespace relayhud::sim {

// "test (default, 1, 3, linux.spyre.1)" -> "test-default-1-3-linux.spyre.1"
std::string jobSlug(std::string_view jobName);

// PyTorch's upload-test-artifacts: "test-reports-runattempt{N}-test-{config}-
// {shard}-{num_shards}-{runner}_{job id}" (GitHub adds ".zip" on download).
std::string githubArtifactName(const CheckRun& run, const JobSpec& job);

// "ci-results/{run_id}/{attempt}/{job slug}/" in kSimBucket.
std::string s3Prefix(const CheckRun& run);

// "/files/{o}/{r}/{run_id}/{attempt}/{job slug}/report.xml.gz" (or .tar.gz).
std::string filesPath(const CheckRun& run, SimStore store);

// The artifact_url the HUD row carries; HTTPS files start with
// kSimUnboundBaseUrl until a server rebases them.
std::string artifactUrlFor(const BackendSpec& backend, const CheckRun& run);

// The downstream repository's commit a run checked out: the backend moves on
// once a day, so runs of a day share it.
std::string downstreamSha(std::uint64_t seed, const CheckRun& run);

// The run id of the matrix run a torch-spyre variant B row dispatched
// (SimEvidenceShape::Dispatched); "" for any other row.
std::string childRunIdOf(const SimRow& row);

// A per-row hash (runner names, infrastructure flavours): the check run id's.
std::uint64_t rowHash(std::uint64_t seed, const CheckRun& run);

// "linux.spyre.1-3fa9c": the runner label plus an instance suffix.
std::string runnerHostName(const JobSpec& job, std::uint64_t hash);

} // namespace relayhud::sim
