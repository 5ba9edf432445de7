#pragma once
// A team's shared triage server (issue 21): a PostgreSQL database that holds
// the team's decisions, never raw results. This part owns its schema: the
// migrations this RelayHUD knows, applied by `relayhud-cli team init`, and
// the refusal of a server whose schema is newer. Facts and plan:
// docs/team-server-notes.md.
#include "relayhud/store/team_changes.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace relayhud::team {

// The server schema this RelayHUD reads and writes.
inline constexpr int kTeamSchemaVersion = 3;

// One page of the server's change log.
struct TeamPage {
    std::vector<TeamChange> changes; // triage changes this build reads, in seq order
    TeamSeq lastSeq;                 // the last seq read (also of changes skipped)
    std::size_t rows = 0;            // rows read, skipped ones included
    TeamSkips skips;                 // rows read that this build cannot use, by why
};

struct TeamInit {
    int before = 0; // the server's schema before (0: none)
    int after = 0;
    std::string user;  // the session user: the author of every change it sends
    std::string where; // socket or host:port and database, never the password
};

// Why a server setting cannot be used, "" when it can: not a conninfo or URI,
// or one that holds a password (which belongs in the keychain, PGPASSWORD or
// ~/.pgpass, never in a settings file).
std::string serverSettingProblem(const std::string& conninfo);

class TeamServer {
public:
    ~TeamServer();
    TeamServer(TeamServer&&) noexcept;
    TeamServer& operator=(TeamServer&&) = delete;

    // Connects (libpq conninfo or URI, sslmode honoured) within
    // `timeoutSeconds`. The password: `password` (the keychain's) when
    // given, else PGPASSWORD, else ~/.pgpass, as libpq reads them.
    static Result<TeamServer> connect(const std::string& conninfo, int timeoutSeconds = 10,
                                      const std::string& password = {});

    // The server's schema version, 0 when it has none. An error when it is
    // newer than kTeamSchemaVersion: this RelayHUD must not write to it.
    Result<int> schemaVersion();

    // Applies the migrations the server lacks, each in one transaction under
    // an advisory lock (two clients initialising at once take turns).
    // Refuses a newer server as schemaVersion() does; a role that may not
    // create tables gets the server's reason and what to ask for. `upTo`
    // stops at an older version (the tests build a server as an older
    // RelayHUD left it, then upgrade it).
    Result<TeamInit> init(int upTo = kTeamSchemaVersion);

    // The team's id, made by the server when its schema was created: the
    // same team reached under another name is still the same team.
    // Requires the schema this RelayHUD knows (an older one: run `team init`).
    Result<std::string> teamId();

    // Appends changes to the log, idempotent by change id (a resend is a
    // no-op): one transaction, under the append lock, so that seq is handed
    // out in commit order and a pull never skips a change that commits
    // late. The author is the server's session user. A lock another session
    // holds past the connection's timeout is an error that names it.
    Result<void> push(const std::vector<TeamChange>& changes);
    // The log after `afterSeq`, at most `limit` rows (and 16 MiB of text).
    // A row this RelayHUD cannot use (team/team_row.h) is counted in the
    // page's skips and never returned; a field over its limit is not even
    // sent. Rows whose seq the sequence never gave are left unread.
    Result<TeamPage> pull(TeamSeq afterSeq, std::size_t limit);
    // How many rows hold a seq beyond the sequence's last value (written
    // with an explicit seq before schema 3): never read, so never a jump.
    Result<std::int64_t> forgedRows();

    // LISTEN on the change channel; then socket() is readable when a change
    // arrives and takeNotifications() reads them (how many, or an error
    // when the connection broke).
    Result<void> listen();
    int socket() const;
    Result<int> takeNotifications();

    // The connection still stands (a refusal leaves it up; a server that
    // went away does not).
    bool connected() const;

    const std::string& user() const;
    std::string where() const;

private:
    struct Impl;
    explicit TeamServer(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> m_impl;
};

} // namespace relayhud::team
