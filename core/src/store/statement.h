#pragma once
// A thin RAII layer over sqlite3 prepared statements. Private to the store.
#include "relayhud/model/ids.h"
#include "relayhud/util/result.h"

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::store {

class Statement {
public:
    Statement() = default;
    Statement(sqlite3* db, std::string_view sql);
    ~Statement();
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    Statement(Statement&& other) noexcept;
    Statement& operator=(Statement&& other) noexcept;

    bool valid() const { return m_stmt != nullptr; }
    const std::string& prepareError() const { return m_error; }

    Statement& reset();
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    // Binds without copying: `value` must stay alive and unchanged until the
    // statement is next reset (hot loops that bind and run at once).
    Statement& bindView(int index, std::string_view value);
    Statement& bind(int index, const std::optional<std::int64_t>& value);
    Statement& bind(int index, const std::optional<double>& value);
    Statement& bindNull(int index);
    // A row id (model/ids.h) goes in as its number; none, for the optional, as NULL.
    template <typename Tag>
    Statement& bind(int index, RowId<Tag> id)
    {
        return bind(index, id.value);
    }
    template <typename Tag>
    Statement& bind(int index, const std::optional<RowId<Tag>>& id)
    {
        return id ? bind(index, id->value) : bindNull(index);
    }

    // SQLITE_ROW -> true, SQLITE_DONE -> false; anything else is an Error.
    Result<bool> step();
    // step() until done, for statements that return no rows.
    Result<void> run();
    // Calls onRow(*this) for every row; stops at the first error.
    template <class OnRow>
    Result<void> forEachRow(OnRow&& onRow)
    {
        for (;;) {
            auto more = step();
            if (!more)
                return more.error();
            if (!*more)
                return {};
            onRow(*this);
        }
    }

    std::int64_t int64(int column) const;
    int integer(int column) const { return static_cast<int>(int64(column)); }
    double real(int column) const;
    std::string text(int column) const;
    bool isNull(int column) const;
    std::optional<std::int64_t> optInt64(int column) const;
    // A row id (model/ids.h) read back from its number: s.id<CheckRunRow>(0).
    template <typename Id>
    Id id(int column) const
    {
        return Id{int64(column)};
    }
    template <typename Id>
    std::optional<Id> optId(int column) const
    {
        const auto value = optInt64(column);
        return value ? std::optional<Id>{Id{*value}} : std::nullopt;
    }
    std::optional<double> optReal(int column) const;

private:
    sqlite3_stmt* m_stmt = nullptr;
    sqlite3* m_db = nullptr;
    std::string m_error;
};

// Every row, read into a T by read(statement).
template <class T, class Read>
Result<std::vector<T>> collectRows(Statement& s, Read read)
{
    std::vector<T> out;
    if (auto r = s.forEachRow([&](const Statement& row) { out.push_back(read(row)); }); !r)
        return r.error();
    return out;
}

// The first row, read into a T by read(statement), or nullopt when there is none.
template <class T, class Read>
Result<std::optional<T>> firstRow(Statement& s, Read read)
{
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<T>{};
    return std::optional<T>{read(s)};
}

// "[1,2,3]": ids bound as one parameter, read back with json_each(?).
std::string jsonIdList(const std::vector<std::int64_t>& ids);
template <typename Tag>
std::string jsonIdList(const std::vector<RowId<Tag>>& ids)
{
    std::vector<std::int64_t> values;
    values.reserve(ids.size());
    for (const RowId<Tag> id : ids)
        values.push_back(id.value);
    return jsonIdList(values);
}

// Runs one or more statements that return no rows (DDL, pragmas).
Result<void> exec(sqlite3* db, const char* sql);

} // namespace relayhud::store
