// The fixtures' writes through the run store (test_results_fixtures.h).
#include "test_results_fixtures.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"

namespace relayhud::testing {

TestCache::TestCache() = default;
TestCache::TestCache(std::unique_ptr<Database> db) : m_db(std::move(db)) {}
TestCache::TestCache(TestCache&& other) noexcept = default;
TestCache& TestCache::operator=(TestCache&& other) noexcept = default;
TestCache::~TestCache() = default;

void TestCache::reset() { m_db.reset(); }
Database* TestCache::release() { return m_db.release(); }

Result<TestCache> openTestCache(const std::string& path)
{
    auto cache = Database::open(path);
    if (!cache)
        return cache.error();
    return TestCache(std::move(*cache));
}

TestCache openCacheOk(const std::string& path)
{
    auto cache = Database::open(path);
    EXPECT_TRUE(cache) << (cache ? "" : cache.message());
    return cache ? TestCache(std::move(*cache)) : TestCache();
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
