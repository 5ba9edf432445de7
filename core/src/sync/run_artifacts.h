#pragma once
// One run's way through artifact sync: fetched on a worker thread
// (fetchRunArtifacts), then stored on the thread that owns the Database
// (storeRunArtifacts): its reports imported as one test run, or the reason
// there are none recorded so the run is not fetched again for nothing.
#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/store/test_result_store.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace relayhud {
class Database;
}

namespace relayhud::sync {

struct FetchedRun {
    ArtifactCandidate candidate;
    TestRunOrigin origin;
    Result<ArtifactFetch> fetch = makeError("not fetched");
    bool unreadableUrl = false; // the artifact_url names no store we read
};

// Locates and downloads the run's artifacts. Thread-safe (no Database).
FetchedRun fetchRunArtifacts(ArtifactFetcher& fetcher, const ArtifactSettings& settings,
                             const ArtifactCandidate& candidate, const std::atomic<bool>* cancel);

struct StoredRun {
    bool recorded = false; // false: cancelled, nothing written
    TestRunId testRunId;
    TestRunState state = TestRunState::Failed;
    std::string message;  // why, for a state other than Stored
    bool problem = false; // the message belongs in the sync's error list
    std::int64_t cases = 0;
};

// Imports or records the run in one transaction. An Error only when the
// cache itself fails.
Result<StoredRun> storeRunArtifacts(Database& cache, ContentCache& blobs, const FetchedRun& run,
                                    const std::atomic<bool>* cancel);

// Whether a test run in this state ends the fetching of its check run.
bool isFinalState(TestRunState state);

} // namespace relayhud::sync
