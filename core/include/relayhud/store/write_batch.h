#pragma once
// Several of a Database's writes as one transaction (Database::beginWriteBatch).
// Each writer inside it (a TestRunWriter, RunStore::apply, ...) is a savepoint:
// its commit keeps its writes in the batch, its rollback undoes only its own;
// the batch's commit() makes them all durable at once, and a batch destroyed
// without it rolls every one of them back.
//
// What it is for: a backfill of many test runs. Each run adds one entry to
// every one of its tests' ranges in the by-test index (store/schema.cpp), so
// a run of 30,000 tests dirties ~30,000 index pages wherever the cache is
// large; committed one by one, every run writes all of them to the WAL and
// back (120 MB a run). In a batch they are written once per batch, and the
// connection's page cache is raised for its length so that they stay in
// memory between the runs.
//
// Hold the write lock for as short as the caller can: other connections'
// writers wait for it (up to the busy timeout), and readers see nothing of
// the batch until it commits.
#include "relayhud/util/result.h"

#include <memory>

struct sqlite3;

namespace relayhud {

namespace store {
class Transaction;
}

class WriteBatch {
public:
    ~WriteBatch(); // rolls back unless committed; the page cache goes back
    WriteBatch(const WriteBatch&) = delete;
    WriteBatch& operator=(const WriteBatch&) = delete;

    Result<void> commit();

private:
    friend class Database;
    WriteBatch(sqlite3* db, std::unique_ptr<store::Transaction> transaction);

    sqlite3* m_db = nullptr;
    std::unique_ptr<store::Transaction> m_transaction;
};

} // namespace relayhud
