#pragma once
// One sync of a cache with its team's server (issue 21): the outbox pushed,
// then the log pulled since the last seen change and applied field by field
// (store/team_changes.h says how two edits are weighed). Every step is safe
// to cut: a push is idempotent by change id and an outbox row stays until
// its commit is known, a pull's page is applied in one transaction with the
// seq it reached, so a sync that dies anywhere and runs again delivers each
// change exactly once.
#include "relayhud/store/team_changes.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace relayhud {
class Database;
}

namespace relayhud::team {

class TeamServer;

struct TeamSyncOptions {
    std::size_t pushBatch = 2000; // changes per push transaction
    std::size_t pullPage = 5000;  // changes per pull page (and cache transaction)
};

struct TeamSyncReport {
    std::size_t pushed = 0;
    TeamApplyReport pulled; // summed over the pages; its skips include forgedRows
    TeamSeq lastSeq;
    std::int64_t forgedRows = 0; // rows the server holds with a seq it never gave
    std::size_t unsendable = 0;  // local changes the server would refuse: not sent
    std::string unsendableWhy;   // the first one's reason
    std::string user;            // the server's session user: who the team sees as author
    std::string where;           // never with the password
};

// Joins the server's team on the first sync (the cache's tags are queued
// once), then pushes and pulls. The result (time, or error) is recorded in
// the cache for `team status`.
Result<TeamSyncReport> syncTeam(Database& cache, TeamServer& server,
                                const TeamSyncOptions& options = {});

// When the last sync worked, "2026-12-05T14:02:11Z", or "never".
std::string describeLastSync(std::int64_t lastSyncMs);

} // namespace relayhud::team
