#pragma once
// Private to the store: the outbox side of a tag write (store/team_changes.h).
// Opened inside the transaction that changes tags, it queues one change per
// field that differs, with the field's history, so the tag and its outbox
// rows commit or roll back together. A cache that joined no team queues
// nothing.
#include "relayhud/store/team_changes.h"
#include "relayhud/util/result.h"

#include "store/statement.h"

#include <cstdint>
#include <optional>
#include <string>

struct sqlite3;

namespace relayhud::store {

class TeamOutbox {
public:
    static Result<TeamOutbox> open(sqlite3* db);

    bool active() const { return m_active; }
    // Queues the fields in which `after` differs from `before` (nullopt: no
    // tag, read as untriaged with no note or link). `author` is the local
    // name, until the server says whose session sent it.
    Result<void> record(const TriageTarget& target, const std::optional<TriageTag>& before,
                        const std::optional<TriageTag>& after, std::int64_t clientMs,
                        const std::string& author);
    // Queues one change as it is (a join's first copy of a tag).
    Result<void> queue(const TeamChange& change);

private:
    TeamOutbox() = default;

    bool m_active = false;
    TeamSeq m_lastSeq;
    Statement m_insert;
    Statement m_field;
};

// A random (version 4) UUID in its 36-character text form.
std::string randomUuid();
// The value a tag holds in one field, as a change carries it.
std::string teamFieldValue(const std::optional<TriageTag>& tag, TeamField field);
// The server state a cache keeps (team_state), "" when not set.
Result<std::string> teamStateValue(sqlite3* db, const std::string& key);
Result<void> setTeamStateValue(sqlite3* db, const std::string& key, const std::string& value);
// Where the count of rows skipped for `why` is kept in team_state, and
// adding a page's skipped rows to those counts (ForgedSeq is the server's
// count, set by the sync, not added).
std::string teamSkipKey(TeamSkip why);
Result<void> addTeamSkips(sqlite3* db, const TeamSkips& skips);

} // namespace relayhud::store
