#include "relayhud/store/write_batch.h"

#include "store/transaction.h"

#include <utility>

namespace relayhud {

WriteBatch::WriteBatch(sqlite3* db, std::unique_ptr<store::Transaction> transaction)
    : m_db(db), m_transaction(std::move(transaction))
{
}

WriteBatch::~WriteBatch()
{
    m_transaction.reset(); // rolls back if still open
    (void)store::setCacheSize(m_db, store::kCacheMiB);
}

Result<void> WriteBatch::commit()
{
    if (!m_transaction)
        return makeError("internal error: the write batch is already committed");
    auto r = m_transaction->commit();
    m_transaction.reset();
    return r;
}

} // namespace relayhud
