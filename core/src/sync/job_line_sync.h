#pragma once
// The job-line pass of artifact sync (ArtifactSyncOptions::jobLines): fetches
// the GitHub logs of failed runs and stores the line that explains each.
#include "relayhud/sync/artifact_sync.h"

#include <atomic>
#include <string>
#include <vector>

namespace relayhud::sync {

// One pass over EvidenceStore::jobLineQueue. Counts go to `report`; each problem (a
// log that could not be fetched, a bad rule file) is appended to `problems`
// once per run, for the caller to fold. An error only when the cache cannot
// be read or written.
Result<void> syncJobLines(Database& cache, ArtifactFetcher& fetcher,
                          const ArtifactSyncOptions& options, ArtifactSyncReport& report,
                          std::vector<std::string>& problems, const std::atomic<bool>* cancel);

} // namespace relayhud::sync
