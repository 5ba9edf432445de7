#pragma once
// The one way the store writes: a transaction that is rolled back unless it is
// committed. BEGIN IMMEDIATE takes the write lock up front, so two writers
// queue on the busy timeout instead of failing on a lock upgrade halfway.
//
//   auto transaction = Transaction::begin(db);
//   if (!transaction) return transaction.error();
//   ... writes; an early return rolls them back ...
//   return transaction->commit();
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
    explicit Transaction(sqlite3* db) : m_db(db) {}

    sqlite3* m_db = nullptr; // null once committed or rolled back
};

// Keeps the WAL of `db` bounded (see transaction.cpp): SQLite's
// autocheckpoint after each commit, and once the WAL passes 64 MiB, a
// checkpoint that truncates it after the transaction that grew it.
void watchWal(sqlite3* db);

} // namespace relayhud::store
