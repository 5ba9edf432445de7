#include "relayhud/team/team_server.h"

#include "team/pg_connection.h"

#include <nlohmann/json.hpp>

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

// Version 2: the team's id, so a cache knows the team it joined under any
// host name; each change's base_seq (the newest change its author had
// pulled), which tells two edits that had not seen each other (a conflict)
// from one that followed the other (store/team_changes.h); one notification
// per statement, not per row: a push of 10,000 changes wakes a listener
// once, with the last seq; and no index by failure, which no query reads
// (pulls go by seq) and which cost a push a fifth of its time.
constexpr const char* kVersion2 = R"sql(
ALTER TABLE relayhud_schema ADD COLUMN team_id uuid NOT NULL DEFAULT gen_random_uuid();
ALTER TABLE relayhud_change ADD COLUMN base_seq bigint NOT NULL DEFAULT 0;
DROP INDEX relayhud_change_by_failure;
DROP TRIGGER relayhud_change_notify ON relayhud_change;
DROP FUNCTION relayhud_change_notify();
CREATE FUNCTION relayhud_change_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('relayhud_change', (SELECT max(seq) FROM inserted)::text);
    RETURN NULL;
END $$;
CREATE TRIGGER relayhud_change_notify AFTER INSERT ON relayhud_change
    REFERENCING NEW TABLE AS inserted
    FOR EACH STATEMENT EXECUTE FUNCTION relayhud_change_notify();
)sql";

constexpr std::array<const char*, kTeamSchemaVersion> kMigrations{kVersion1, kVersion2};

// Held from before a push's insert to its commit: seq values are handed out
// in commit order, so a reader that has seen seq N never later meets a
// smaller one committed behind it.
constexpr const char* kAppendLock = "SELECT pg_advisory_xact_lock(7365827402)";

// A push: the batch as one JSON parameter, read in one pass into records,
// in its order (`n`: the same field changed twice in one batch keeps its
// order in seq).
constexpr const char* kPush = R"sql(
INSERT INTO relayhud_change (change_id, kind, repo, workflow, job, sha, attempt, test, field,
                             value, client_time, base_seq)
SELECT x.id, 'triage', x.repo, x.workflow, x.job, x.sha, x.attempt, x.test, x.field,
       to_jsonb(x.value), to_timestamp(x.ms / 1000.0), x.base
FROM jsonb_to_recordset($1::jsonb) AS x(n integer, id uuid, repo text, workflow text, job text,
                                         sha text, attempt integer, test text, field text,
                                         value text, ms bigint, base bigint)
ORDER BY x.n
ON CONFLICT (change_id) DO NOTHING
)sql";

// A pull: a value longer than 64 KiB (no client writes one; a note is a
// sentence and a link) is cut rather than read whole into every cache.
constexpr const char* kPull = R"sql(
SELECT seq, change_id, kind, repo, workflow, job, sha, attempt, test, field,
       left(value #>> '{}', 65536), round(extract(epoch FROM client_time) * 1000)::bigint,
       author, base_seq
FROM relayhud_change WHERE seq > $1 ORDER BY seq LIMIT $2
)sql";

std::string olderMessage(int server)
{
    return "the team server's schema is " + std::to_string(server) + "; this RelayHUD needs "
           + std::to_string(kTeamSchemaVersion)
           + ": run 'relayhud-cli team init --server ...' (as a role that may create tables)";
}

std::int64_t parseInt64(const std::string& text, bool& ok)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    ok = ok && ec == std::errc() && end == text.data() + text.size();
    return value;
}

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

std::string serverSettingProblem(const std::string& conninfo) { return conninfoProblem(conninfo); }

Result<TeamServer> TeamServer::connect(const std::string& conninfo, int timeoutSeconds,
                                       const std::string& password)
{
    auto connection = PgConnection::open(conninfo, timeoutSeconds, password);
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

namespace {

Result<void> requireCurrent(TeamServer& server)
{
    auto version = server.schemaVersion();
    if (!version)
        return version.error();
    if (*version < kTeamSchemaVersion)
        return makeError(olderMessage(*version));
    return {};
}

} // namespace

Result<std::string> TeamServer::teamId()
{
    if (auto r = requireCurrent(*this); !r)
        return r.error();
    auto id = m_impl->connection.exec("SELECT team_id::text FROM relayhud_schema LIMIT 1");
    if (!id)
        return id.error();
    if (id->rows() != 1 || id->text(0, 0).empty())
        return makeError("the team server's relayhud_schema holds no team id");
    return id->text(0, 0);
}

Result<void> TeamServer::push(const std::vector<TeamChange>& changes)
{
    if (changes.empty())
        return {};
    nlohmann::json batch = nlohmann::json::array();
    int n = 0;
    for (const TeamChange& c : changes)
        batch.push_back({{"n", n++},
                         {"id", c.changeId},
                         {"repo", c.target.repo},
                         {"workflow", c.target.workflow},
                         {"job", c.target.job},
                         {"sha", c.target.sha.value},
                         {"attempt", c.target.attempt},
                         {"test", c.target.test},
                         {"field", teamFieldName(c.field)},
                         {"value", c.value},
                         {"ms", c.clientMs},
                         {"base", c.baseSeq}});
    // Invalid UTF-8 in a note becomes U+FFFD rather than a refused push.
    const std::string json = batch.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    PgConnection& c = m_impl->connection;
    if (auto begun = c.exec("BEGIN"); !begun)
        return begun.error();
    auto inserted = [&]() -> Result<void> {
        if (auto locked = c.exec(kAppendLock); !locked)
            return locked.error();
        if (auto r = c.exec(kPush, {json}); !r)
            return r.error();
        return {};
    }();
    if (!inserted) {
        (void)c.exec("ROLLBACK");
        return makeError("could not send the triage changes: " + inserted.message());
    }
    if (auto committed = c.exec("COMMIT"); !committed)
        return makeError("could not send the triage changes: " + committed.message());
    return {};
}

Result<TeamPage> TeamServer::pull(std::int64_t afterSeq, std::size_t limit)
{
    auto rows = m_impl->connection.exec(kPull, {std::to_string(afterSeq), std::to_string(limit)});
    if (!rows)
        return makeError("could not read the team's changes: " + rows.message());
    TeamPage page;
    page.lastSeq = afterSeq;
    page.rows = static_cast<std::size_t>(rows->rows());
    page.changes.reserve(page.rows);
    for (int i = 0; i < rows->rows(); ++i) {
        bool ok = true;
        const std::int64_t seq = parseInt64(rows->text(i, 0), ok);
        if (!ok)
            return makeError("the team server sent a change without a seq");
        page.lastSeq = seq;
        const auto field = teamFieldFromName(rows->text(i, 9));
        if (rows->text(i, 2) != "triage" || !field) {
            ++page.skipped;
            continue;
        }
        TeamChange change;
        change.seq = seq;
        change.changeId = rows->text(i, 1);
        change.target = {rows->text(i, 3),
                         rows->text(i, 4),
                         rows->text(i, 5),
                         Sha{rows->text(i, 6)},
                         static_cast<int>(parseInt64(rows->text(i, 7), ok)),
                         rows->text(i, 8)};
        change.field = *field;
        change.value = rows->text(i, 10);
        change.clientMs = parseInt64(rows->text(i, 11), ok);
        change.author = rows->text(i, 12);
        change.baseSeq = parseInt64(rows->text(i, 13), ok);
        if (!ok || change.target.attempt < 1 || change.target.repo.empty()
            || change.target.sha.empty()) {
            ++page.skipped; // a row another client wrote badly: never stops the pull
            continue;
        }
        page.changes.push_back(std::move(change));
    }
    return page;
}

Result<void> TeamServer::listen()
{
    if (auto r = m_impl->connection.exec("LISTEN relayhud_change"); !r)
        return r.error();
    return {};
}

bool TeamServer::connected() const { return m_impl->connection.ok(); }

int TeamServer::socket() const { return m_impl->connection.socket(); }

Result<int> TeamServer::takeNotifications() { return m_impl->connection.takeNotifications(); }

const std::string& TeamServer::user() const { return m_impl->connection.sessionUser(); }

std::string TeamServer::where() const { return m_impl->connection.where(); }

} // namespace relayhud::team
