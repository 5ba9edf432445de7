// relayhud-cli team init --server CONNINFO: a team's shared triage server
// (issue 21; core/include/relayhud/team/team_server.h). `init` creates or
// brings up to date the server's schema; a server newer than this RelayHUD
// is refused. The password comes from PGPASSWORD or ~/.pgpass, as libpq
// reads them, never from the command line's own flags.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/team/team_server.h"

#include <ostream>

namespace relayhud::cli {

int runTeam(const GlobalOptions&, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err)
{
    if (args.empty() || args[0] != "init")
        return fail(err, "team: say what: team init --server CONNINFO", 2);
    const Flags flags = parseFlags({args.begin() + 1, args.end()}, {"--server", "--timeout"});
    if (!flags.error.empty())
        return fail(err, "team: " + flags.error, 2);
    if (!flags.has("server"))
        return fail(err, "team init: --server CONNINFO is required (a libpq conninfo or URI)", 2);
    int timeout = 10;
    if (!parseInt(flags.get("timeout", "10"), timeout) || timeout < 1)
        return fail(err, "team: --timeout must be a positive number of seconds", 2);
    auto server = team::TeamServer::connect(flags.get("server"), timeout);
    if (!server)
        return fail(err, "team init: " + server.message());
    auto init = server->init();
    if (!init)
        return fail(err, "team init: " + init.message());
    out << "team server at " << init->where << ": schema " << init->after
        << (init->before == init->after ? " (up to date)"
            : init->before == 0         ? " (created)"
                                        : " (upgraded from " + std::to_string(init->before) + ")")
        << "; your changes are signed " << init->user << '\n';
    return 0;
}

} // namespace relayhud::cli
