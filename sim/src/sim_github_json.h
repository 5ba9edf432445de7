#pragma once
// GitHub REST API objects (workflow runs, jobs, artifacts) with GitHub's
// field names, types and order, built from the dataset.
#include "sim_artifact_index.h"
#include "sim_blob_store.h"
#include "sim_columns.h"

#include <string>

namespace relayhud::sim {

struct GitHubContext {
    const SimDataset& data;
    const ArtifactIndex& index;
    std::string apiUrl; // "{base}/api/v3"
};

Json workflowRunJson(const GitHubContext& ctx, const WorkflowRun& run, int attempt);
Json jobJson(const GitHubContext& ctx, const SimRow& row);
// `zip` gives size_in_bytes and digest.
Json artifactJson(const GitHubContext& ctx, const SimRow& row, std::int64_t id,
                  const BlobMeta& zip);

// The row's artifact is past its retention at the dataset's `now`.
// A GitHub artifact of the index (sim_artifact_index.h) with its zip's size
// and digest, expired once past expires_at at the dataset's `now`.
Json githubArtifactJson(const GitHubContext& ctx, const GitHubArtifact& artifact,
                        std::uint64_t zipBytes, const std::string& sha256);
// A dispatched child run (torch-spyre variant B) as "List workflow runs" shows it.
Json childRunJson(const GitHubContext& ctx, const ChildRun& child);
bool artifactExpired(const GitHubContext& ctx, const SimRow& row);
EpochSeconds artifactExpiresAt(const GitHubContext& ctx, const SimRow& row);

// The status and conclusion of a run attempt from its jobs.
std::string runStatus(const std::vector<const SimRow*>& jobs);
Json runConclusion(const std::vector<const SimRow*>& jobs);

} // namespace relayhud::sim
