#include "store/multi_row_insert.h"

namespace relayhud::store {

MultiRowInsert::MultiRowInsert(sqlite3* db, std::string head, int columns, std::string tail)
    : m_db(db), m_head(std::move(head)), m_tail(std::move(tail)), m_columns(columns)
{
}

Statement& MultiRowInsert::statementFor(std::size_t index)
{
    Statement& s = m_statements[index];
    if (s.valid())
        return s;
    std::string sql = m_head;
    for (std::size_t row = 0; row < kSizes[index]; ++row) {
        sql += row == 0 ? " (" : ", (";
        for (int column = 0; column < m_columns; ++column)
            sql += column == 0 ? "?" : ", ?";
        sql += ')';
    }
    s = Statement(m_db, sql + " " + m_tail);
    return s;
}

Result<void> MultiRowInsert::run(std::size_t count, const BindRow& bindRow)
{
    std::size_t done = 0;
    for (std::size_t index = 0; index < kSizes.size(); ++index) {
        while (count - done >= kSizes[index]) {
            Statement& s = statementFor(index).reset();
            for (std::size_t row = 0; row < kSizes[index]; ++row)
                bindRow(s, static_cast<int>(row) * m_columns + 1, done + row);
            if (auto r = s.run(); !r)
                return r;
            done += kSizes[index];
        }
    }
    return {};
}

} // namespace relayhud::store
