// RunStore: a sync's batches, the counts, the validators, PR titles and the
// levels the relay verified at dispatch (the reads are in run_reads.cpp).
#include "relayhud/store/run_store.h"

#include "store/run_writer.h"
#include "store/statement.h"
#include "store/store_access.h"
#include "store/transaction.h"

#include <sqlite3.h>

namespace relayhud {

using store::Statement;

RunStore::RunStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<void> RunStore::apply(const SyncBatch& batch)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    if (auto r = applyInTransaction(batch); !r)
        return r;
    return transaction->commit();
}

Result<void> RunStore::applyInTransaction(const SyncBatch& batch)
{
    store::RunWriter writer(m_db);
    for (const auto& backend : batch.backends)
        if (auto r = writer.upsertBackend(backend); !r)
            return r;
    for (const auto& commit : batch.commits)
        if (auto r = writer.upsertCommit(commit); !r)
            return r;
    for (const auto& run : batch.runs)
        if (auto r = writer.upsertRun(run); !r)
            return r;
    for (const auto& [url, v] : batch.validators)
        if (auto r = writer.setValidator(url, v); !r)
            return r;
    return {};
}

Result<CacheStats> RunStore::stats() const
{
    // test_run keeps its own result count: count(*) over 30 million results
    // would read the whole index.
    Statement s(m_db,
                "SELECT (SELECT count(*) FROM backend), (SELECT count(*) FROM upstream_commit),"
                " (SELECT count(*) FROM check_run), (SELECT count(*) FROM job),"
                " (SELECT count(*) FROM test_run),"
                " (SELECT coalesce(sum(stored_results), 0) FROM test_run)");
    auto row = s.step();
    if (!row)
        return row.error();
    return CacheStats{s.int64(0), s.int64(1), s.int64(2), s.int64(3), s.int64(4), s.int64(5)};
}

Result<std::optional<HttpValidator>> RunStore::validator(const std::string& url) const
{
    Statement s(m_db, "SELECT etag, items FROM http_validator WHERE url = ?");
    s.bind(1, url);
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<HttpValidator>{};
    return std::optional<HttpValidator>{HttpValidator{s.text(0), s.int64(1)}};
}

Result<std::vector<std::pair<std::string, HttpValidator>>> RunStore::validators() const
{
    Statement s(m_db, "SELECT url, etag, items FROM http_validator");
    return store::collectRows<std::pair<std::string, HttpValidator>>(s, [](const Statement& row) {
        return std::pair{row.text(0), HttpValidator{row.text(1), row.int64(2)}};
    });
}

Result<void> RunStore::setValidator(const std::string& url, const HttpValidator& v)
{
    return store::RunWriter(m_db).setValidator(url, v);
}

Result<std::vector<PrNumber>> RunStore::prNumbersWithoutTitle(std::size_t limit) const
{
    Statement s(m_db,
                "SELECT DISTINCT pr_number FROM upstream_commit WHERE pr_number > 0 AND title = ''"
                " ORDER BY pr_number DESC LIMIT ?");
    s.bind(1, static_cast<std::int64_t>(limit));
    return store::collectRows<PrNumber>(s,
                                        [](const Statement& row) { return row.id<PrNumber>(0); });
}

Result<void> RunStore::applyPrInfo(const std::vector<PrInfo>& infos)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    Statement s(
        m_db,
        "UPDATE upstream_commit SET title = ?2, author = ?3 WHERE pr_number = ?1 AND ?2 != ''");
    for (const auto& info : infos) {
        auto r = s.reset().bind(1, info.prNumber).bind(2, info.title).bind(3, info.author).run();
        if (!r)
            return r;
    }
    return transaction->commit();
}
Result<std::vector<std::string>> RunStore::nightlyShasWithoutTitle(std::size_t limit) const
{
    static_assert(static_cast<int>(EventType::Nightly) == 2);
    Statement s(m_db, "SELECT sha FROM upstream_commit WHERE event_type = 2 AND title = ''"
                      " ORDER BY time DESC LIMIT ?");
    s.bind(1, static_cast<std::int64_t>(limit));
    return store::collectRows<std::string>(s, [](const Statement& row) { return row.text(0); });
}

Result<void> RunStore::applyDispatchLevels(const std::vector<DispatchLevel>& levels)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    Statement s(m_db, "UPDATE check_run SET level = ?3"
                      " WHERE check_run_id = ?1 AND run_attempt = ?2 AND ?3 != 0");
    for (const auto& l : levels) {
        if (l.checkRunId.value.empty())
            continue;
        auto r = s.reset()
                     .bind(1, l.checkRunId.value)
                     .bind(2, l.runAttempt)
                     .bind(3, static_cast<std::int64_t>(l.level))
                     .run();
        if (!r)
            return r;
    }
    return transaction->commit();
}

} // namespace relayhud
