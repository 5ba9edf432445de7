#include "sync/fetch_pool.h"
#include "relayhud/store/test_result_store.h"

#include <algorithm>

namespace relayhud::sync {

FetchPool::FetchPool(std::vector<ArtifactCandidate> runs, int maxParallel, Work work,
                     const std::atomic<bool>* cancel)
    : m_runs(std::move(runs)), m_work(std::move(work)), m_cancel(cancel)
{
    const auto workers =
        std::min<std::size_t>(static_cast<std::size_t>(std::max(maxParallel, 1)), m_runs.size());
    m_working = static_cast<int>(workers);
    for (std::size_t i = 0; i < workers; ++i)
        m_threads.emplace_back([this] { workLoop(); });
}

FetchPool::~FetchPool()
{
    stop();
    for (auto& thread : m_threads)
        thread.join();
}

bool FetchPool::stopping() const { return m_stopped || (m_cancel && m_cancel->load()); }

void FetchPool::workLoop()
{
    while (!stopping()) {
        const std::size_t index = m_nextRun.fetch_add(1);
        if (index >= m_runs.size())
            break;
        FetchedRun fetched = m_work(m_runs[index]);
        {
            const std::lock_guard lock(m_mutex);
            m_done.push_back(std::move(fetched));
        }
        m_ready.notify_one();
    }
    {
        const std::lock_guard lock(m_mutex);
        --m_working;
    }
    m_ready.notify_all();
}

std::optional<FetchedRun> FetchPool::next()
{
    std::unique_lock lock(m_mutex);
    m_ready.wait(lock, [this] { return !m_done.empty() || m_working == 0; });
    if (m_done.empty())
        return std::nullopt;
    FetchedRun fetched = std::move(m_done.front());
    m_done.pop_front();
    return fetched;
}

} // namespace relayhud::sync
