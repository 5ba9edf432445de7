#include "relayhud/store/cache.h"

#include "store/damage_check.h"
#include "store/run_writer.h"
#include "store/schema.h"
#include "store/statement.h"
#include "store/transaction.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <thread>

namespace relayhud {

using store::Statement;

Cache::Cache(std::string path) : m_path(std::move(path)) {}

Cache::~Cache()
{
    const store::CloseTicket ticket = store::releaseForClose(m_db);
    sqlite3_close_v2(m_db);
    store::recordCleanClose(ticket, m_path);
}

Result<std::unique_ptr<Cache>> Cache::open(const std::string& path)
{
    std::unique_ptr<Cache> cache(new Cache(path));
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path.c_str(), &cache->m_db, flags, nullptr) != SQLITE_OK) {
        std::string why = cache->m_db ? sqlite3_errmsg(cache->m_db) : "out of memory";
        return makeError("cannot open the cache " + path + ": " + why);
    }
    if (auto r = cache->configure(); !r)
        return makeError("cannot use the cache " + path + ": " + r.message());
    if (auto r = store::checkForDamage(cache->m_db, path); !r)
        return r.error();
    if (auto r = store::migrate(cache->m_db, kSchemaVersion); !r)
        return makeError(path + ": " + r.message());
    return cache;
}

Result<void> Cache::configure()
{
    // Another instance (or the sync thread) may hold the write lock briefly.
    sqlite3_busy_timeout(m_db, 10000);
    if (auto r = store::exec(m_db, "PRAGMA foreign_keys = ON"); !r)
        return r;
    // A file that is not a database fails here, with SQLite's own words.
    // Turning a new file to WAL needs a lock the busy handler does not wait
    // for, so connections opening a new cache at once (the GUI and its
    // workers) wait here; once one has turned it, the rest find it WAL.
    for (int attempt = 0;; ++attempt) {
        const int rc = sqlite3_exec(m_db, "PRAGMA journal_mode = WAL", nullptr, nullptr, nullptr);
        if (rc == SQLITE_OK)
            break;
        if (rc != SQLITE_BUSY || attempt >= 500)
            return store::exec(m_db, "PRAGMA journal_mode = WAL"); // its words
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (auto r = store::exec(m_db, "PRAGMA synchronous = NORMAL"); !r)
        return r;
    store::watchWal(m_db);
    return store::setCacheSize(m_db, store::kCacheMiB);
}

Result<std::unique_ptr<WriteBatch>> Cache::beginWriteBatch(int cacheMiB)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    if (auto r = store::setCacheSize(m_db, std::max(cacheMiB, store::kCacheMiB)); !r)
        return r.error(); // the transaction rolls back as it goes
    return std::unique_ptr<WriteBatch>(
        new WriteBatch(m_db, std::make_unique<store::Transaction>(std::move(*transaction))));
}

int Cache::schemaVersion() const { return store::userVersion(m_db); }

Result<void> Cache::apply(const SyncBatch& batch)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    if (auto r = applyInTransaction(batch); !r)
        return r;
    return transaction->commit();
}

Result<void> Cache::applyInTransaction(const SyncBatch& batch)
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

Result<CacheStats> Cache::stats() const
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

Result<std::optional<HttpValidator>> Cache::validator(const std::string& url) const
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

Result<std::vector<std::pair<std::string, HttpValidator>>> Cache::validators() const
{
    Statement s(m_db, "SELECT url, etag, items FROM http_validator");
    return store::collectRows<std::pair<std::string, HttpValidator>>(s, [](const Statement& row) {
        return std::pair{row.text(0), HttpValidator{row.text(1), row.int64(2)}};
    });
}

Result<void> Cache::setValidator(const std::string& url, const HttpValidator& v)
{
    return store::RunWriter(m_db).setValidator(url, v);
}

Result<std::vector<std::int64_t>> Cache::prNumbersWithoutTitle(std::size_t limit) const
{
    Statement s(m_db,
                "SELECT DISTINCT pr_number FROM upstream_commit WHERE pr_number > 0 AND title = ''"
                " ORDER BY pr_number DESC LIMIT ?");
    s.bind(1, static_cast<std::int64_t>(limit));
    return store::collectRows<std::int64_t>(s, [](const Statement& row) { return row.int64(0); });
}

Result<void> Cache::applyPrInfo(const std::vector<PrInfo>& infos)
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

Result<std::optional<std::string>> Cache::meta(const std::string& key) const
{
    Statement s(m_db, "SELECT value FROM meta WHERE key = ?");
    s.bind(1, key);
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<std::string>{};
    return std::optional<std::string>{s.text(0)};
}

Result<void> Cache::setMeta(const std::string& key, const std::string& value)
{
    Statement s(m_db, "INSERT INTO meta(key, value) VALUES (?, ?)"
                      " ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    s.bind(1, key).bind(2, value);
    return s.run();
}

} // namespace relayhud
