#pragma once
// Bounded parallel fetching for artifact sync: up to N worker threads take
// runs from a shared list, each fetching on its own, and hand back what they
// got in completion order to the one thread that writes the Database.
#include "relayhud/store/test_result_store.h"
#include "sync/run_artifacts.h"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

namespace relayhud::sync {

class FetchPool {
public:
    using Work = std::function<FetchedRun(const ArtifactCandidate&)>;

    // Starts min(maxParallel, runs) workers right away. `cancel` (may be
    // null) stops them taking further runs.
    FetchPool(std::vector<ArtifactCandidate> runs, int maxParallel, Work work,
              const std::atomic<bool>* cancel);
    ~FetchPool(); // stops taking runs and waits for the running fetches
    FetchPool(const FetchPool&) = delete;
    FetchPool& operator=(const FetchPool&) = delete;

    // The next finished run; nullopt once every started fetch was handed out.
    std::optional<FetchedRun> next();
    // No further runs are started (the writer gave up).
    void stop() { m_stopped = true; }

private:
    void workLoop();
    bool stopping() const;

    const std::vector<ArtifactCandidate> m_runs;
    const Work m_work;
    const std::atomic<bool>* m_cancel;
    std::atomic<bool> m_stopped{false};
    std::atomic<std::size_t> m_nextRun{0};
    std::mutex m_mutex;
    std::condition_variable m_ready;
    std::deque<FetchedRun> m_done;
    int m_working = 0;
    std::vector<std::thread> m_threads;
};

} // namespace relayhud::sync
