#pragma once
// One INSERT of many rows instead of many INSERTs of one: SQLite's cost per
// statement (opening cursors on the table and each index, halting) is about
// half of a small row's insert, and a statement of 64 rows pays it once.
// Write the head as INSERT OR FAIL: a statement that may abort half-way
// (plain INSERT, OR ABORT) makes SQLite keep a statement journal of every
// page it touches, which for rows landing all over an index (a hash key)
// costs more than the inserts themselves (measured 3.7x). The writer's whole
// transaction rolls back on any error, so nothing relies on the abort.
// Private to the store.
#include "store/statement.h"

#include <array>
#include <functional>
#include <string>

namespace relayhud::store {

class MultiRowInsert {
public:
    // "INSERT INTO t(a, b) VALUES", the number of columns, and what follows
    // the rows (an ON CONFLICT clause, or "").
    MultiRowInsert(sqlite3* db, std::string head, int columns, std::string tail);

    // Binds row i's values starting at parameter `first` (1-based).
    using BindRow = std::function<void(Statement& s, int first, std::size_t row)>;
    // Inserts rows [0, count) in order, as few statements as the sizes allow.
    Result<void> run(std::size_t count, const BindRow& bindRow);

private:
    Statement& statementFor(std::size_t index);

    static constexpr std::array<std::size_t, 4> kSizes{64, 16, 4, 1};
    sqlite3* m_db;
    std::string m_head, m_tail;
    int m_columns;
    std::array<Statement, kSizes.size()> m_statements; // prepared when first needed
};

} // namespace relayhud::store
