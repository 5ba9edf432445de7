#include "store/transaction.h"

#include "store/statement.h"

#include <sqlite3.h>

#include <cstdint>
#include <string>
#include <utility>

namespace relayhud::store {
namespace {

// SQLite's autocheckpoint copies the WAL back into the database once it
// holds 1,000 frames, from inside the commit, and the next writer starts the
// WAL again from its beginning when everything was copied back. A statement
// left active at COMMIT keeps the committing connection reading its old
// snapshot, so that checkpoint stops short and the WAL is only ever appended
// to: the test-run writer's statements did that, and its WAL reached 3.3 GB
// for 4.8 million results (71 GB for the 30-day attribution bench). Commits
// now come with no statement active (TestRunWriter::commit); and as a bound
// on whatever else might, the hook notes the WAL's size and
// Transaction::commit truncates it, once the commit is over, past 64 MiB.
constexpr int kCheckpointFrames = 1000; // SQLite's default autocheckpoint
constexpr int kTruncateFrames = 16384;  // 64 MiB of 4 KiB pages

thread_local int t_walFrames = 0; // after this thread's last commit

int afterWalCommit(void*, sqlite3* db, const char* schema, int frames)
{
    t_walFrames = frames;
    if (frames >= kCheckpointFrames)
        (void)sqlite3_wal_checkpoint_v2(db, schema, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
    return SQLITE_OK;
}

} // namespace

Result<void> setCacheSize(sqlite3* db, int mib)
{
    return exec(db, ("PRAGMA cache_size = -" + std::to_string(std::int64_t{mib} * 1024)).c_str());
}

void watchWal(sqlite3* db) { sqlite3_wal_hook(db, afterWalCommit, nullptr); }

// One name serves every level: RELEASE and ROLLBACK TO act on the innermost
// savepoint of that name, which is always this transaction's own.
constexpr const char* kSavepoint = "relayhud_nested";

Result<Transaction> Transaction::begin(sqlite3* db)
{
    const bool nested = sqlite3_get_autocommit(db) == 0;
    const std::string start = nested ? std::string("SAVEPOINT ") + kSavepoint : "BEGIN IMMEDIATE";
    if (auto r = exec(db, start.c_str()); !r)
        return r.error();
    return Transaction(db, nested);
}

Transaction::Transaction(Transaction&& other) noexcept
    : m_db(std::exchange(other.m_db, nullptr)), m_nested(other.m_nested)
{
}

Transaction::~Transaction() { rollback(); }

Result<void> Transaction::commit()
{
    if (m_db == nullptr)
        return makeError("internal error: the transaction is already committed or rolled back");
    if (m_nested) {
        auto r = exec(m_db, (std::string("RELEASE ") + kSavepoint).c_str());
        if (!r)
            rollback();
        m_db = nullptr;
        return r;
    }
    t_walFrames = 0;
    auto r = exec(m_db, "COMMIT");
    if (!r)
        rollback();
    else if (std::exchange(t_walFrames, 0) >= kTruncateFrames)
        // Waits for other connections' readers up to the busy timeout; if
        // they stay, the next large commit tries again.
        (void)sqlite3_wal_checkpoint_v2(m_db, nullptr, SQLITE_CHECKPOINT_TRUNCATE, nullptr,
                                        nullptr);
    m_db = nullptr;
    return r;
}

void Transaction::rollback()
{
    if (m_db == nullptr)
        return;
    sqlite3* db = std::exchange(m_db, nullptr);
    if (!m_nested) {
        (void)exec(db, "ROLLBACK");
        return;
    }
    // Undone, then dropped: the outer transaction goes on without it.
    (void)exec(db, (std::string("ROLLBACK TO ") + kSavepoint).c_str());
    (void)exec(db, (std::string("RELEASE ") + kSavepoint).c_str());
}

} // namespace relayhud::store
