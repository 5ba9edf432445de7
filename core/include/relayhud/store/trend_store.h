#pragma once
// The runs behind the trend charts (verdict/trends.h).
#include "relayhud/store/trend_runs.h"
#include "relayhud/util/result.h"

#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

class TrendStore {
public:
    explicit TrendStore(const Database& db);

    // --- Trend charts (store/trend_runs.h, verdict/trends.h) ---
    // The newest attempt of every job on every upstream SHA in the window,
    // oldest commit first, then by repository, workflow and job.
    Result<std::vector<TrendRun>> trendRuns(const TrendRunQuery& query) const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
