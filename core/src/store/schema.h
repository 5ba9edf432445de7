#pragma once
#include "relayhud/util/result.h"

struct sqlite3;

namespace relayhud::store {

// Brings the schema to the newest version, one migration step per
// transaction, recording progress in PRAGMA user_version. Refuses a cache
// written by a newer RelayHUD instead of guessing at its layout.
Result<void> migrate(sqlite3* db, int targetVersion);

int userVersion(sqlite3* db);

// The partial index test_result_triage holds the results whose outcome is
// failed, error, xfailed or xpass-strict. A query reads through it by naming
// the table so (SQLite's planner, without statistics, would rather walk the
// primary key over every passing result of the run) and ANDing the index's
// own term word for word (or SQLite refuses the index).
inline constexpr const char* kTriageResults = "test_result r INDEXED BY test_result_triage";
inline constexpr const char* kTriageOutcomesTerm = "r.outcome IN (1, 2, 4, 5)";

} // namespace relayhud::store
