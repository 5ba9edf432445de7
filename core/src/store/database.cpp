#include "relayhud/store/database.h"

#include "relayhud/store/write_batch.h"

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

Database::Database(std::string path) : m_path(std::move(path)) {}

Database::~Database()
{
    const store::CloseTicket ticket = store::releaseForClose(m_db);
    sqlite3_close_v2(m_db);
    store::recordCleanClose(ticket, m_path);
}

Result<std::unique_ptr<Database>> Database::open(const std::string& path)
{
    std::unique_ptr<Database> cache(new Database(path));
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

Result<void> Database::configure()
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

Result<std::unique_ptr<WriteBatch>> Database::beginWriteBatch(int cacheMiB)
{
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    if (auto r = store::setCacheSize(m_db, std::max(cacheMiB, store::kCacheMiB)); !r)
        return r.error(); // the transaction rolls back as it goes
    return std::unique_ptr<WriteBatch>(
        new WriteBatch(m_db, std::make_unique<store::Transaction>(std::move(*transaction))));
}

int Database::schemaVersion() const { return store::userVersion(m_db); }

Result<std::optional<std::string>> Database::meta(const std::string& key) const
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

Result<void> Database::setMeta(const std::string& key, const std::string& value)
{
    Statement s(m_db, "INSERT INTO meta(key, value) VALUES (?, ?)"
                      " ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    s.bind(1, key).bind(2, value);
    return s.run();
}

} // namespace relayhud
