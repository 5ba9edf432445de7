#pragma once
// Runs items 0..n-1 on a few threads and hands their results over in item
// order, as soon as each one's predecessors are done: search results and
// landmarks stream in file order while two threads share the work.
#include <algorithm>
#include <atomic>
#include <cstddef>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace relayhud::logs {

// work(i, thread) -> T on any thread (thread: 0..threads-1, for per-thread
// scratch); deliver(i, T&&) in order, one call at a time.
// Stops claiming items once `stop` is set (items already claimed finish).
template <class T, class Work, class Deliver>
void runOrdered(std::size_t items, unsigned threads, const std::atomic<bool>& stop, Work work,
                Deliver deliver)
{
    std::atomic<std::size_t> next{0};
    std::mutex mutex;
    std::map<std::size_t, T> done;
    std::size_t nextToDeliver = 0;
    const auto loop = [&](unsigned thread) {
        for (;;) {
            const std::size_t i = next.fetch_add(1);
            if (i >= items || stop)
                return;
            T result = work(i, thread);
            std::lock_guard lock(mutex);
            done.emplace(i, std::move(result));
            for (auto it = done.begin(); it != done.end() && it->first == nextToDeliver;
                 it = done.erase(it), ++nextToDeliver)
                deliver(it->first, std::move(it->second));
        }
    };
    const std::size_t helpers =
        items > 1 ? std::min<std::size_t>(threads > 1 ? threads - 1 : 0, items - 1) : 0;
    std::vector<std::jthread> pool;
    for (std::size_t t = 0; t < helpers; ++t)
        pool.emplace_back(loop, static_cast<unsigned>(t + 1));
    loop(0);
}

} // namespace relayhud::logs
