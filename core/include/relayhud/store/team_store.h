#pragma once
// A team's shared triage (store/team_changes.h, team/team_sync.h): the
// outbox of this cache's tag changes, the changes pulled from the team's
// server, their conflicts and the last sync. Tables: team_state,
// team_outbox, team_field, team_conflict.
#include "relayhud/store/team_changes.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace relayhud {

class Database;

class TeamStore {
public:
    explicit TeamStore(const Database& db);

    // --- A team's shared triage (store/team_changes.h, team/team_sync.h) ---
    // Joins the team `teamId`, reached at `where`: from then on every tag
    // change (set, undo, import) also goes to the outbox, in its
    // transaction, and the tags already here are queued once so that the
    // team gets them. Joining another team starts over with it (its last
    // seen change 0, the outbox and field history of the old one dropped).
    // Returns how many changes were queued.
    Result<std::size_t> joinTeam(const std::string& teamId, const std::string& where);

    Result<TeamStatus> teamStatus() const;

    // Changes the server has not acknowledged, oldest first.
    Result<std::vector<TeamChange>> teamOutbox(std::size_t limit) const;

    // The server committed these: no longer unsent. Each is kept until a
    // pull brings it back, which tells this cache's changes from others'.
    Result<void> markTeamSent(const std::vector<std::string>& changeIds);

    // Applies pulled changes, in server order, to the tags, lists the
    // conflicts, and moves the last seen change to `lastSeq`: one
    // transaction, so a pull that dies half-way is read again whole. The
    // page's rows that were skipped (`skipped`) are counted in it too, once.
    Result<TeamApplyReport> applyTeamChanges(const std::vector<TeamChange>& changes,
                                             TeamSeq lastSeq, std::int64_t nowMs,
                                             const TeamSkips& skipped = {});

    // How the last sync went: its time when it worked, its error when not;
    // `forgedRows` (when >= 0) how many rows the server holds with a seq its
    // sequence never gave (a count of the server's, not added up).
    Result<void> setTeamSyncResult(std::int64_t whenMs, const std::string& where,
                                   const std::string& error, std::int64_t forgedRows = -1);

    // The conflicts listed, newest first.
    Result<std::vector<TeamConflict>> teamConflicts(std::size_t limit) const;

    // The last applied change of one field of one tag (who set it, when).
    Result<std::optional<TeamChange>> teamFieldChange(const TriageTarget& target,
                                                      TeamField field) const;

private:
    sqlite3* m_db;
};

} // namespace relayhud
