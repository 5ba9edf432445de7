#pragma once
// Resolutions of test variants already resolved against one config: a
// backend's runs repeat the same tests, and judging 200 greens resolved each
// of their 1,000 tests 200 times. Shared by every copy of a RunConfig (the
// matrix's worker, the coverage panel and reports judge runs at once).
#include "relayhud/config/resolver.h"
#include "relayhud/model/test_results.h"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace relayhud::verdict {

class ResolutionMemo {
public:
    // The memo for one run's results: find() only while holding it (one
    // lock per run, not per result; runs judged at once take turns).
    [[nodiscard]] std::unique_lock<std::mutex> hold() { return std::unique_lock(m_mutex); }

    // `r`'s resolution, from the memo when a result of the same test (id,
    // file, class, name and marks alike: the memo outlives a switch of
    // caches) was resolved before; `resolve` computes it otherwise. Valid
    // until the next find().
    template <class Resolve>
    const Result<config::Resolution>& find(const StoredTestResult& r, Resolve&& resolve)
    {
        const auto it = m_byTest.find(r.testId);
        if (it != m_byTest.end() && it->second.sameTest(r))
            return it->second.resolution;
        Result<config::Resolution> computed = resolve();
        if (computed)
            computed->candidates = {}; // coverage never reads them
        if (!r.testId || (it == m_byTest.end() && m_byTest.size() >= kMaxEntries)) {
            m_scratch = std::move(computed);
            return m_scratch;
        }
        Entry entry{r.file, r.className, r.name, r.marks, std::move(computed)};
        if (it != m_byTest.end()) { // another cache's test of that id
            it->second = std::move(entry);
            return it->second.resolution;
        }
        return m_byTest.emplace(r.testId, std::move(entry)).first->second.resolution;
    }

private:
    // Tens of MB at most; a config meets far fewer distinct tests.
    static constexpr std::size_t kMaxEntries = 100'000;

    struct Entry {
        std::string file, className, name, marks;
        Result<config::Resolution> resolution;

        bool sameTest(const StoredTestResult& r) const
        {
            return r.name == name && r.className == className && r.file == file && r.marks == marks;
        }
    };

    std::mutex m_mutex;
    std::unordered_map<TestId, Entry, IdHash> m_byTest;
    Result<config::Resolution> m_scratch{makeError("")};
};

} // namespace relayhud::verdict
