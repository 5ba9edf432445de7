#pragma once
// Private to the store: reading and writing triage_tag rows, shared by the
// tag writes (cache_triage.cpp) and the team pull (cache_team.cpp).
#include "relayhud/model/triage_tags.h"
#include "relayhud/util/result.h"

#include "store/statement.h"

#include <optional>
#include <string>

struct sqlite3;

namespace relayhud::store {

// SELECT of one target's tag (bind with bindTriageTarget).
Statement selectTriageTag(sqlite3* db);
// Insert or replace by target.
Statement upsertTriageTag(sqlite3* db);
Statement& bindTriageTarget(Statement& s, const TriageTarget& t);
TriageTag readTriageTag(const Statement& s);
Result<std::optional<TriageTag>> findTriageTag(Statement& select, const TriageTarget& target);
Result<void> writeTriageTag(Statement& upsert, const TriageTag& tag);
// "org/repo pull / job @abc1234 attempt 1 test": for messages.
std::string describeTriageTarget(const TriageTarget& t);

} // namespace relayhud::store
