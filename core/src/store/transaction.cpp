#include "store/transaction.h"

#include "store/statement.h"

#include <utility>

namespace relayhud::store {

Result<Transaction> Transaction::begin(sqlite3* db)
{
    if (auto r = exec(db, "BEGIN IMMEDIATE"); !r)
        return r.error();
    return Transaction(db);
}

Transaction::Transaction(Transaction&& other) noexcept : m_db(std::exchange(other.m_db, nullptr)) {}

Transaction::~Transaction() { rollback(); }

Result<void> Transaction::commit()
{
    if (m_db == nullptr)
        return makeError("internal error: the transaction is already committed or rolled back");
    auto r = exec(m_db, "COMMIT");
    if (!r)
        rollback();
    m_db = nullptr;
    return r;
}

void Transaction::rollback()
{
    if (m_db != nullptr)
        (void)exec(std::exchange(m_db, nullptr), "ROLLBACK");
}

} // namespace relayhud::store
