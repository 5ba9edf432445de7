#include "relayhud/team/team_server.h"

#include "team/pg_connection.h"

#include <array>
#include <charconv>

namespace relayhud::team {
namespace {

// Any constant names the lock: two `team init` at once take turns. It is a
// session lock, taken before the migration's transaction begins: a
// transaction that began before the other client's commit could still see
// the old catalog (its negative cache entry for relayhud_schema), seen here
// with a lock taken inside the transaction.
constexpr const char* kInitLock = "SELECT pg_advisory_lock(7365827401)";
constexpr const char* kInitUnlock = "SELECT pg_advisory_unlock(7365827401)";

// Version 1: the schema's own version, and the change log every client
// appends to and pulls from (seq orders it; change_id makes a resend a
// no-op; the author is the session user, never what a client claims). A new
// change wakes listeners on channel relayhud_change with its seq.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE relayhud_schema (version integer NOT NULL);
INSERT INTO relayhud_schema VALUES (0);
CREATE TABLE relayhud_change (
    seq         bigserial PRIMARY KEY,
    change_id   uuid NOT NULL UNIQUE,
    kind        text NOT NULL,
    repo        text NOT NULL,
    workflow    text NOT NULL,
    job         text NOT NULL,
    sha         text NOT NULL,
    attempt     integer NOT NULL,
    test        text NOT NULL DEFAULT '',
    field       text NOT NULL,
    value       jsonb NOT NULL,
    client_time timestamptz NOT NULL,
    author      text NOT NULL DEFAULT session_user,
    received    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX relayhud_change_by_failure
    ON relayhud_change (repo, workflow, job, sha, attempt, test);
CREATE FUNCTION relayhud_change_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('relayhud_change', NEW.seq::text);
    RETURN NEW;
END $$;
CREATE TRIGGER relayhud_change_notify AFTER INSERT ON relayhud_change
    FOR EACH ROW EXECUTE FUNCTION relayhud_change_notify();
)sql";

constexpr std::array<const char*, kTeamSchemaVersion> kMigrations{kVersion1};

std::string newerMessage(int server)
{
    return "the team server's schema " + std::to_string(server)
           + " is newer than this RelayHUD knows (" + std::to_string(kTeamSchemaVersion)
           + "): update RelayHUD before it reads or writes there";
}

Result<int> readVersion(PgConnection& c)
{
    auto exists = c.exec("SELECT to_regclass('relayhud_schema') IS NOT NULL");
    if (!exists)
        return exists.error();
    if (exists->text(0, 0) != "t")
        return 0;
    auto version = c.exec("SELECT max(version) FROM relayhud_schema");
    if (!version)
        return version.error();
    int value = 0;
    const std::string text = version->text(0, 0);
    if (version->isNull(0, 0))
        return 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        return makeError("the team server's relayhud_schema holds '" + text
                         + "', not a schema version");
    return value;
}

// Under the init lock: each missing step in a transaction of its own, read
// again first (another client may have taken it while we waited).
Result<void> migrate(PgConnection& c)
{
    for (;;) {
        if (auto begun = c.exec("BEGIN"); !begun)
            return begun.error();
        auto step = [&]() -> Result<bool> {
            auto now = readVersion(c);
            if (!now)
                return now.error();
            if (*now > kTeamSchemaVersion)
                return makeError(newerMessage(*now));
            if (*now == kTeamSchemaVersion)
                return false;
            const int version = *now + 1;
            if (auto r = c.exec(kMigrations[static_cast<std::size_t>(version - 1)]); !r)
                return makeError("could not bring the team server to schema "
                                 + std::to_string(version) + ": " + r.message());
            if (auto r =
                    c.exec("UPDATE relayhud_schema SET version = $1", {std::to_string(version)});
                !r)
                return r.error();
            return true;
        }();
        if (!step) {
            (void)c.exec("ROLLBACK");
            return step.error();
        }
        if (auto committed = c.exec("COMMIT"); !committed)
            return committed.error();
        if (!*step)
            return {};
    }
}

} // namespace

struct TeamServer::Impl {
    PgConnection connection;
};

TeamServer::TeamServer(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
TeamServer::~TeamServer() = default;
TeamServer::TeamServer(TeamServer&&) noexcept = default;

Result<TeamServer> TeamServer::connect(const std::string& conninfo, int timeoutSeconds)
{
    auto connection = PgConnection::open(conninfo, timeoutSeconds);
    if (!connection)
        return connection.error();
    return TeamServer(std::make_unique<Impl>(Impl{std::move(*connection)}));
}

Result<int> TeamServer::schemaVersion()
{
    auto version = readVersion(m_impl->connection);
    if (!version)
        return version.error();
    if (*version > kTeamSchemaVersion)
        return makeError(newerMessage(*version));
    return *version;
}

Result<TeamInit> TeamServer::init()
{
    PgConnection& c = m_impl->connection;
    TeamInit out;
    out.user = c.sessionUser();
    out.where = c.where();
    auto before = schemaVersion();
    if (!before)
        return before.error();
    out.before = *before;
    if (*before < kTeamSchemaVersion) {
        if (auto locked = c.exec(kInitLock); !locked)
            return locked.error();
        auto migrated = migrate(c);
        (void)c.exec(kInitUnlock); // the session's end releases it too
        if (!migrated)
            return migrated.error();
    }
    auto after = schemaVersion();
    if (!after)
        return after.error();
    out.after = *after;
    return out;
}

const std::string& TeamServer::user() const { return m_impl->connection.sessionUser(); }

std::string TeamServer::where() const { return m_impl->connection.where(); }

} // namespace relayhud::team
