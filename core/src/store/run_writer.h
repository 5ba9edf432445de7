#pragma once
// Upserts inside one open transaction, with prepared statements reused across
// rows and the ids of backends, jobs and commits remembered for the batch.
#include "relayhud/model/types.h"
#include "relayhud/store/run_store.h"
#include "store/statement.h"

#include <string>
#include <unordered_map>

namespace relayhud::store {

class RunWriter {
public:
    explicit RunWriter(sqlite3* db);

    Result<void> upsertBackend(const Backend& backend);
    Result<void> upsertCommit(const UpstreamCommit& commit);
    // A completed row is never overwritten by an in_progress one, and relay
    // timings are never cleared by a later row that lacks them.
    Result<void> upsertRun(const CheckRun& run);
    Result<void> setValidator(const std::string& url, const HttpValidator& validator);

private:
    Result<std::int64_t> backendId(const std::string& repo, Level level);
    Result<std::int64_t> jobId(std::int64_t backend, const std::string& workflow,
                               const std::string& name);
    Result<std::int64_t> commitId(const CheckRun& run);
    Result<std::int64_t> idOf(Statement& select);

    Statement m_upsertBackend, m_insertBackend, m_selectBackend, m_insertJob, m_selectJob;
    Statement m_upsertCommit, m_selectCommit, m_upsertRun, m_setValidator;
    std::unordered_map<std::string, std::int64_t> m_backendIds, m_jobIds, m_commitIds;
};

} // namespace relayhud::store
