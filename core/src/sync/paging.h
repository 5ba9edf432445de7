#pragma once
// A pass over a queue of runs a page at a time (artifact_sync.h): each page
// leaves out the runs this pass already asked for, and the pass stops at
// its cap (ArtifactSyncOptions::maxRuns, 0: none), at a cancel, or when the
// queue has nothing new.
#include "relayhud/sync/artifact_sync.h"
#include "sync/cancel.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <set>

namespace relayhud::sync {

// The runs a pass will ask for out of `queued`.
inline std::int64_t runsToAsk(std::int64_t queued, std::int64_t maxRuns)
{
    return maxRuns > 0 ? std::min(queued, maxRuns) : queued;
}

class AskedRuns {
public:
    explicit AskedRuns(const ArtifactSyncOptions& options)
        : m_maxRuns(options.maxRuns), m_pageRuns(std::max<std::int64_t>(options.pageRuns, 1))
    {
    }

    // The next page's size; 0 when the pass is done (capped or cancelled).
    std::int64_t nextLimit(const std::atomic<bool>* cancel) const
    {
        if (cancelled(cancel))
            return 0;
        if (m_maxRuns <= 0)
            return m_pageRuns;
        const auto asked = static_cast<std::int64_t>(m_asked.size());
        return std::min(m_pageRuns, std::max<std::int64_t>(m_maxRuns - asked, 0));
    }

    // False when this pass asked for the run already.
    bool add(CheckRunRow checkRunRow) { return m_asked.insert(checkRunRow).second; }

private:
    std::int64_t m_maxRuns;
    std::int64_t m_pageRuns;
    std::set<CheckRunRow> m_asked;
};

} // namespace relayhud::sync
