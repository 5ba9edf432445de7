#pragma once
// The stores' way to the SQLite connection of a Database
// (relayhud/store/database.h): private to this component, which alone runs
// SQL on the cache; a store keeps the connection it was built with. Only
// this component's sources see this header (cmake/check_includes.cmake
// refuses a private header reached from another component).
#include "relayhud/store/database.h"

namespace relayhud::store {

struct Access {
    static sqlite3* connection(const Database& db) { return db.m_db; }
};

inline sqlite3* connectionOf(const Database& db) { return Access::connection(db); }

} // namespace relayhud::store
