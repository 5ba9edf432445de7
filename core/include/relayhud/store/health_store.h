#pragma once
// The runs behind the integration doctor's runtime health (doctor/).
#include "relayhud/store/health_runs.h"
#include "relayhud/util/result.h"

#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

class HealthStore {
public:
    explicit HealthStore(const Database& db);

    // --- The integration doctor's runtime health (store/health_runs.h) ---
    // Every attempt of every check run of one backend in the window, oldest
    // start first.
    Result<std::vector<HealthRun>> healthRuns(const HealthRunQuery& query) const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
