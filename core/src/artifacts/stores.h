#pragma once
// One fetch function per kind of artifact store, behind ArtifactFetcher.
#include "artifacts/fetch_context.h"

#include <string>
#include <vector>

namespace relayhud::artifacts {

Result<ArtifactFetch> fetchGitHubArtifacts(FetcherContext& context, FetchCall& call,
                                           const ArtifactLocation& location);
Result<JobLogFetch> fetchGitHubJobLog(FetcherContext& context, FetchCall& call,
                                      const std::string& owner, const std::string& repo,
                                      const std::string& jobId);
Result<RepoFilesFetch> fetchGitHubWorkflows(FetcherContext& context, FetchCall& call,
                                            const std::string& owner, const std::string& repo);
RepoFilesFetch keptGitHubWorkflows(FetcherContext& context, const std::string& owner,
                                   const std::string& repo);
Result<ArtifactFetch> fetchS3(FetcherContext& context, FetchCall& call,
                              const ArtifactLocation& location);
Result<ArtifactFetch> fetchHttpsFile(FetcherContext& context, FetchCall& call,
                                     const ArtifactLocation& location);
Result<ArtifactFetch> fetchLocalPath(const ArtifactLocation& location);

// A fetch that ended without files, for a reason the user can act on.
ArtifactFetch fetchWithStatus(FetchStatus status, std::string message);

} // namespace relayhud::artifacts
