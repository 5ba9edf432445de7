#pragma once
// The team server's SQL (private to team/): the schema migrations this
// RelayHUD knows, in order, and the pull's query. docs/team-server-notes.md
// says what each version does and why.
#include <cstddef>
#include <string>

namespace relayhud::team {

// The SQL that brings a server from `version - 1` to `version` (1 ..
// kTeamSchemaVersion); "" for a version this build does not know.
std::string migrationSql(int version);

// The pull: $1 the last seq seen, $2 the most rows, $3 the most bytes of
// text past the first row. Columns: seq, change_id, kind, repo, workflow,
// job, sha, attempt, test, field, value, client ms, author, base_seq, and
// received ms (no later than the server's now); a field over its limit, or
// a time that is no instant, is NULL.
const std::string& pullSql();

// How many rows hold a seq the sequence never gave.
inline constexpr const char* kForgedRowsSql =
    "SELECT count(*) FROM relayhud_change WHERE seq > (SELECT relayhud_last_seq())";

} // namespace relayhud::team
