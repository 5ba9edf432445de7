#pragma once
// A team's shared triage server (issue 21): a PostgreSQL database that holds
// the team's decisions, never raw results. This part owns its schema: the
// migrations this RelayHUD knows, applied by `relayhud-cli team init`, and
// the refusal of a server whose schema is newer. Facts and plan:
// docs/team-server-notes.md.
#include "relayhud/util/result.h"

#include <memory>
#include <string>

namespace relayhud::team {

// The server schema this RelayHUD reads and writes.
inline constexpr int kTeamSchemaVersion = 1;

struct TeamInit {
    int before = 0; // the server's schema before (0: none)
    int after = 0;
    std::string user;  // the session user: the author of every change it sends
    std::string where; // socket or host:port and database, never the password
};

class TeamServer {
public:
    ~TeamServer();
    TeamServer(TeamServer&&) noexcept;
    TeamServer& operator=(TeamServer&&) = delete;

    // Connects (libpq conninfo or URI; PGPASSWORD, ~/.pgpass and sslmode as
    // libpq reads them) within `timeoutSeconds`.
    static Result<TeamServer> connect(const std::string& conninfo, int timeoutSeconds = 10);

    // The server's schema version, 0 when it has none. An error when it is
    // newer than kTeamSchemaVersion: this RelayHUD must not write to it.
    Result<int> schemaVersion();

    // Applies the migrations the server lacks, each in one transaction under
    // an advisory lock (two clients initialising at once take turns).
    // Refuses a newer server as schemaVersion() does; a role that may not
    // create tables gets the server's reason and what to ask for.
    Result<TeamInit> init();

    const std::string& user() const;
    std::string where() const;

private:
    struct Impl;
    explicit TeamServer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace relayhud::team
