// The fixtures' writes through the run store (test_results_fixtures.h).
#include "test_results_fixtures.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"

namespace relayhud::testing {

std::unique_ptr<Database> openCacheOk(const std::string& path)
{
    auto cache = Database::open(path);
    EXPECT_TRUE(cache) << (cache ? "" : cache.message());
    return cache ? std::move(cache.value()) : nullptr;
}

CheckRunRow addRun(Database& cache, const CheckRun& run, EpochSeconds commitTime)
{
    UpstreamCommit commit{run.upstreamSha, 0, "main", EventType::Push, commitTime, "", ""};
    EXPECT_TRUE(RunStore(cache).apply(SyncBatch{{}, {commit}, {run}, {}}));
    auto row = RunStore(cache).checkRunRowFor(run.checkRunId);
    EXPECT_TRUE(row && *row);
    return row && *row ? **row : CheckRunRow{};
}

} // namespace relayhud::testing
