// relayhud-cli team init|sync|status --server CONNINFO: a team's shared
// triage server (issue 21; core/include/relayhud/team/). `init` creates or
// brings up to date the server's schema; a server newer than this RelayHUD
// is refused. `sync` pushes the cache's unsent tag changes and pulls the
// team's; `status` says whether the server answers, how many changes wait
// and when the last sync worked. Rows on the server this RelayHUD cannot use
// (team/team_row.h) are skipped and counted, said in one line. `--timeout`
// bounds connecting, each statement and each lock wait. The password comes from PGPASSWORD or
// ~/.pgpass, as libpq reads them, never from the command line's own flags.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/model/failure_class.h"
#include "relayhud/store/database.h"
#include "relayhud/store/team_store.h"
#include "relayhud/team/team_server.h"
#include "relayhud/team/team_sync.h"
#include "relayhud/triage/triage_exchange.h"
#include "relayhud/util/terminal_text.h"

#include <ostream>

namespace relayhud::cli {
namespace {

constexpr const char* kUsage = "team: say what: team init|sync|status --server CONNINFO";
constexpr std::size_t kConflictsShown = 20;

std::string describe(const TeamChange& c)
{
    return (c.author.empty() ? std::string("?") : c.author) + " set "
           + std::string(teamFieldName(c.field)) + " '" + c.value + "' at "
           + triage::formatTimeMs(c.clientMs);
}

void printConflict(std::ostream& out, const TeamConflict& c)
{
    const TriageTarget& t = c.local.target;
    out << "conflict: " << oneLine(t.repo + ' ' + t.workflow + " / " + t.job) << " @"
        << t.sha.shortSha() << " attempt " << t.attempt
        << (t.test.empty() ? "" : " " + oneLine(t.test)) << ": " << describe(c.local) << " here, "
        << describe(c.remote) << " on the server; " << (c.remoteWon ? "the server's" : "this one")
        << " is newer and kept\n";
}

int sync(Database& cache, team::TeamServer& server, std::ostream& out, std::ostream& err)
{
    auto report = team::syncTeam(cache, server);
    if (!report) {
        auto status = TeamStore(cache).teamStatus();
        return fail(
            err, "team sync: " + report.message()
                     + (status ? "; " + std::to_string(status->unsent) + " change(s) still waiting"
                               : std::string()));
    }
    out << "team at " << report->where << ": pushed " << report->pushed << ", pulled "
        << report->pulled.pulled - report->pulled.own << " from the team ("
        << report->pulled.applied << " applied), " << report->pulled.conflicts.size()
        << " conflict(s); signed " << report->user << '\n';
    if (report->unsendable > 0)
        out << "not sent: " << report->unsendable
            << " change(s) of this cache that the team server would refuse (the first: "
            << visibleControls(report->unsendableWhy) << ")\n";
    // Once, whatever the number: what the server holds that was not used.
    if (const std::string skipped = describeTeamSkips(report->pulled.skips); !skipped.empty())
        out << skipped << '\n';
    for (const TeamConflict& c : report->pulled.conflicts)
        printConflict(out, c);
    return 0;
}

int status(Database& cache, const Result<team::TeamServer>& server, std::ostream& out)
{
    auto status = TeamStore(cache).teamStatus();
    if (!status) {
        out << "team: cannot read the cache: " << status.message() << '\n';
        return 1;
    }
    if (server)
        out << "connected to " << server->where() << " as " << server->user() << '\n';
    else
        out << "offline: " << server.message() << '\n';
    out << "unsent " << status->unsent << '\n';
    out << "last sync " << team::describeLastSync(status->lastSyncMs) << '\n';
    if (!status->joined)
        out << "not joined to a team yet: 'team sync' joins and sends this cache's tags\n";
    if (!status->lastError.empty())
        out << "last error " << status->lastError << '\n';
    out << "conflicts " << status->conflicts << '\n';
    if (const std::string skipped = describeTeamSkips(status->skipped); !skipped.empty())
        out << skipped << " (since joining)\n";
    if (auto conflicts = TeamStore(cache).teamConflicts(kConflictsShown); conflicts)
        for (const TeamConflict& c : *conflicts)
            printConflict(out, c);
    return server ? 0 : 1;
}

} // namespace

int runTeam(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err)
{
    if (args.empty() || (args[0] != "init" && args[0] != "sync" && args[0] != "status"))
        return fail(err, kUsage, 2);
    const std::string what = args[0];
    const Flags flags = parseFlags({args.begin() + 1, args.end()}, {"--server", "--timeout"});
    if (!flags.error.empty())
        return fail(err, "team: " + flags.error, 2);
    if (!flags.has("server"))
        return fail(
            err, "team " + what + ": --server CONNINFO is required (a libpq conninfo or URI)", 2);
    int timeout = 10;
    if (!parseInt(flags.get("timeout", "10"), timeout) || timeout < 1)
        return fail(err, "team: --timeout must be a positive number of seconds", 2);
    auto server = team::TeamServer::connect(flags.get("server"), timeout);
    if (what == "status") {
        auto cache = openCache(global);
        if (!cache)
            return fail(err, cache.message());
        return status(**cache, server, out);
    }
    if (!server)
        return fail(err, "team " + what + ": " + server.message());
    if (what == "sync") {
        auto cache = openCache(global);
        if (!cache)
            return fail(err, cache.message());
        return sync(**cache, *server, out, err);
    }
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
