#include "store/statement.h"

#include "store/damage_check.h"

#include <utility>

namespace relayhud::store {

Statement::Statement(sqlite3* db, std::string_view sql) : m_db(db)
{
    if (sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                           &m_stmt, nullptr)
        != SQLITE_OK) {
        m_error = sqlite3_errmsg(db);
        m_stmt = nullptr;
    }
}

Statement::~Statement() { sqlite3_finalize(m_stmt); }

Statement::Statement(Statement&& other) noexcept
    : m_stmt(std::exchange(other.m_stmt, nullptr)), m_db(other.m_db),
      m_error(std::move(other.m_error))
{
}

Statement& Statement::operator=(Statement&& other) noexcept
{
    if (this != &other) {
        sqlite3_finalize(m_stmt);
        m_stmt = std::exchange(other.m_stmt, nullptr);
        m_db = other.m_db;
        m_error = std::move(other.m_error);
    }
    return *this;
}

Statement& Statement::reset()
{
    sqlite3_reset(m_stmt);
    sqlite3_clear_bindings(m_stmt);
    return *this;
}

Statement& Statement::bind(int index, std::int64_t value)
{
    sqlite3_bind_int64(m_stmt, index, value);
    return *this;
}

Statement& Statement::bind(int index, double value)
{
    sqlite3_bind_double(m_stmt, index, value);
    return *this;
}

Statement& Statement::bind(int index, std::string_view value)
{
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()),
                      SQLITE_TRANSIENT);
    return *this;
}

Statement& Statement::bindView(int index, std::string_view value)
{
    sqlite3_bind_text(m_stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_STATIC);
    return *this;
}

Statement& Statement::bind(int index, const std::optional<std::int64_t>& value)
{
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bind(int index, const std::optional<double>& value)
{
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bindNull(int index)
{
    sqlite3_bind_null(m_stmt, index);
    return *this;
}

Result<bool> Statement::step()
{
    if (!m_stmt)
        return makeError("cache query could not be prepared: " + m_error);
    const int rc = sqlite3_step(m_stmt);
    if (rc == SQLITE_ROW)
        return true;
    if (rc == SQLITE_DONE)
        return false;
    return makeError(cacheErrorText(m_db, rc));
}

Result<void> Statement::run()
{
    for (;;) {
        auto more = step();
        if (!more)
            return more.error();
        if (!*more)
            return {};
    }
}

std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(m_stmt, column); }
double Statement::real(int column) const { return sqlite3_column_double(m_stmt, column); }

std::string Statement::text(int column) const
{
    const auto* p = sqlite3_column_text(m_stmt, column);
    if (!p)
        return {};
    return std::string(reinterpret_cast<const char*>(p),
                       static_cast<std::size_t>(sqlite3_column_bytes(m_stmt, column)));
}

bool Statement::isNull(int column) const
{
    return sqlite3_column_type(m_stmt, column) == SQLITE_NULL;
}

std::optional<std::int64_t> Statement::optInt64(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return int64(column);
}

std::optional<double> Statement::optReal(int column) const
{
    if (isNull(column))
        return std::nullopt;
    return real(column);
}

Result<void> exec(sqlite3* db, const char* sql)
{
    char* message = nullptr;
    const int rc = sqlite3_exec(db, sql, nullptr, nullptr, &message);
    if (rc != SQLITE_OK) {
        sqlite3_free(message);
        return makeError(cacheErrorText(db, rc));
    }
    return {};
}

std::string jsonIdList(const std::vector<std::int64_t>& ids)
{
    std::string list = "[";
    for (const std::int64_t id : ids)
        list += (list.size() > 1 ? "," : "") + std::to_string(id);
    return list + "]";
}

} // namespace relayhud::store
