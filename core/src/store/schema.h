#pragma once
#include "relayhud/util/result.h"

struct sqlite3;

namespace relayhud::store {

// Brings the schema to the newest version, one migration step per
// transaction, recording progress in PRAGMA user_version. Refuses a cache
// written by a newer RelayHUD instead of guessing at its layout.
Result<void> migrate(sqlite3* db, int targetVersion);

int userVersion(sqlite3* db);

} // namespace relayhud::store
