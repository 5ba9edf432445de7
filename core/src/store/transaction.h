#pragma once
// The one way the store writes: a transaction that is rolled back unless it is
// committed. BEGIN IMMEDIATE takes the write lock up front, so two writers
// queue on the busy timeout instead of failing on a lock upgrade halfway.
//
//   auto transaction = Transaction::begin(db);
//   if (!transaction) return transaction.error();
//   ... writes; an early return rolls them back ...
//   return transaction->commit();
//
// Begun inside another transaction (a WriteBatch, relayhud/store/write_batch.h)
// it is a savepoint: commit() releases it into the outer one, rollback()
// undoes only its own writes, and nothing is durable until the outer commits.
#include "relayhud/util/result.h"

struct sqlite3;

namespace relayhud::store {

class Transaction {
public:
    static Result<Transaction> begin(sqlite3* db);

    Transaction(Transaction&& other) noexcept;
    Transaction& operator=(Transaction&&) = delete;
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    ~Transaction(); // rolls back if still open

    // COMMIT; when it fails, the transaction is rolled back.
    Result<void> commit();
    void rollback();
    bool open() const { return m_db != nullptr; }

private:
    Transaction(sqlite3* db, bool nested) : m_db(db), m_nested(nested) {}

    sqlite3* m_db = nullptr; // null once committed or rolled back
    bool m_nested = false;   // a savepoint in an outer transaction
};

// A connection's page cache (PRAGMA cache_size), in MiB; pages are
// allocated only as used. kCacheMiB is the Database's own: a test run of 100,000
// results writes ~50 MB, and with SQLite's default 2 MiB the transaction
// spills pages to the WAL and reads them back (3x slower), as does a history
// read across a large cache.
inline constexpr int kCacheMiB = 64;
Result<void> setCacheSize(sqlite3* db, int mib);

// Keeps the WAL of `db` bounded (see transaction.cpp): SQLite's
// autocheckpoint after each commit, and once the WAL passes 64 MiB, a
// checkpoint that truncates it after the transaction that grew it.
void watchWal(sqlite3* db);

} // namespace relayhud::store
