// Filling a cache the way a HUD sync does (sim_session.h).
#include "sim_session.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"

namespace relayhud::ui::test {

void fillCache(const std::string& path, const sim::SimDataset& data)
{
    auto cache = Database::open(path);
    ASSERT_TRUE(cache) << cache.message();
    SyncBatch batch;
    batch.backends = data.backends;
    batch.commits = data.commits;
    for (const auto& row : data.rows)
        batch.runs.push_back(row.run);
    auto applied = RunStore(**cache).apply(batch);
    ASSERT_TRUE(applied) << applied.message();
}

} // namespace relayhud::ui::test
