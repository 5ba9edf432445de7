#include "relayhud/team/team_server.h"

#include "relayhud/store/triage_tag_rules.h"
#include "relayhud/team/team_row.h"
#include "team/pg_connection.h"
#include "team/team_schema.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <charconv>

namespace relayhud::team {
namespace {

// Any constant names the lock: two `team init` at once take turns. It is a
// session lock, taken before the migration's transaction begins: a
// transaction that began before the other client's commit could still see
// the old catalog (its negative cache entry for relayhud_schema), seen here
// with a lock taken inside the transaction.
constexpr std::int64_t kInitLockKey = 7365827401;
constexpr const char* kInitLock = "SELECT pg_advisory_lock(7365827401)";
constexpr const char* kInitUnlock = "SELECT pg_advisory_unlock(7365827401)";

// Held from before a push's insert to its commit: seq values are handed out
// in commit order, so a reader that has seen seq N never later meets a
// smaller one committed behind it.
constexpr std::int64_t kAppendLockKey = 7365827402;
constexpr const char* kAppendLock = "SELECT pg_advisory_xact_lock(7365827402)";

// Who holds an advisory lock (a bigint key is classid = its high 32 bits,
// objid = its low 32 bits, objsubid = 1: PostgreSQL docs, pg_locks).
// Other roles' client_addr is NULL without pg_read_all_stats.
constexpr const char* kLockHolder = R"sql(
SELECT a.usename, coalesce(a.application_name, ''),
       coalesce(host(a.client_addr), CASE WHEN a.client_port = -1 THEN 'a local socket' END, '?'),
       a.pid
FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objid = $2::oid
  AND l.objsubid = 1 AND l.pid <> pg_backend_pid()
LIMIT 1
)sql";

// A lock wait that timed out: who holds the lock, on one line.
std::string lockRefusal(PgConnection& c, std::int64_t key, const std::string& lock)
{
    const std::string waited = "gave up after " + std::to_string(c.timeoutSeconds()) + " s";
    auto holder =
        c.exec(kLockHolder, {std::to_string(key >> 32), std::to_string(key & 0xffffffff)});
    if (!holder || holder->rows() == 0)
        return "the team server's " + lock + " was held by another session; " + waited;
    const std::string app = holder->text(0, 1);
    return "the team server's " + lock + " is held by role '" + holder->text(0, 0) + "' ("
           + (app.empty() ? std::string() : "application '" + app + "', ") + "from "
           + holder->text(0, 2) + ", pid " + holder->text(0, 3) + "); " + waited;
}

bool lockTimedOut(const PgConnection& c)
{
    return c.lastState() == kLockNotAvailable || c.lastState() == kQueryCanceled;
}

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

std::string olderMessage(int server)
{
    return "the team server's schema is " + std::to_string(server) + "; this RelayHUD needs "
           + std::to_string(kTeamSchemaVersion)
           + ": run 'relayhud-cli team init --server ...' (as a role that may create tables)";
}

std::int64_t parseCount(const std::string& text, bool& ok)
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
Result<void> migrate(PgConnection& c, int target)
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
            if (*now >= target)
                return false;
            const int version = *now + 1;
            if (auto r = c.exec(migrationSql(version)); !r)
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

Result<TeamInit> TeamServer::init(int upTo)
{
    PgConnection& c = m_impl->connection;
    TeamInit out;
    out.user = c.sessionUser();
    out.where = c.where();
    auto before = schemaVersion();
    if (!before)
        return before.error();
    out.before = *before;
    upTo = std::clamp(upTo, 1, kTeamSchemaVersion);
    if (*before < upTo) {
        if (auto locked = c.exec(kInitLock); !locked)
            return lockTimedOut(c) ? makeError(lockRefusal(c, kInitLockKey, "schema lock"))
                                   : locked.error();
        auto migrated = migrate(c, upTo);
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
                         {"base", c.baseSeq.value}});
    // Invalid UTF-8 in a note becomes U+FFFD rather than a refused push.
    const std::string json = batch.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    PgConnection& c = m_impl->connection;
    if (auto begun = c.exec("BEGIN"); !begun)
        return begun.error();
    bool lockWait = false;
    auto inserted = [&]() -> Result<void> {
        if (auto locked = c.exec(kAppendLock); !locked) {
            lockWait = lockTimedOut(c);
            return locked.error();
        }
        if (auto r = c.exec(kPush, {json}); !r)
            return r.error();
        return {};
    }();
    if (!inserted) {
        (void)c.exec("ROLLBACK");
        return makeError(
            "could not send the triage changes: "
            + (lockWait ? lockRefusal(c, kAppendLockKey, "append lock") : inserted.message()));
    }
    if (auto committed = c.exec("COMMIT"); !committed)
        return makeError("could not send the triage changes: " + committed.message());
    return {};
}

namespace {

// Limits a page's text: 5,000 rows of notes at their limit would be 320 MB.
constexpr std::size_t kPageBytes = 16u << 20;

TeamRowText rowText(const PgResult& rows, int i)
{
    auto at = [&](int column) -> std::optional<std::string> {
        if (rows.isNull(i, column))
            return std::nullopt;
        return rows.text(i, column);
    };
    return {at(0), at(1), at(2),  at(3),  at(4),  at(5),  at(6), at(7),
            at(8), at(9), at(10), at(11), at(12), at(13), at(14)};
}

} // namespace

Result<TeamPage> TeamServer::pull(TeamSeq afterSeq, std::size_t limit)
{
    auto rows =
        m_impl->connection.exec(pullSql(), {std::to_string(afterSeq.value), std::to_string(limit),
                                            std::to_string(kPageBytes)});
    if (!rows)
        return makeError("could not read the team's changes: " + rows.message());
    TeamPage page;
    page.lastSeq = afterSeq;
    page.rows = static_cast<std::size_t>(rows->rows());
    page.changes.reserve(page.rows);
    for (int i = 0; i < rows->rows(); ++i) {
        DecodedTeamRow row = decodeTeamRow(rowText(*rows, i));
        if (!row.seq)
            return makeError("the team server sent a change without a seq");
        page.lastSeq = *row.seq;
        if (row.change)
            page.changes.push_back(std::move(*row.change));
        else
            page.skips.add(row.skip); // a row another client wrote badly: never stops the pull
    }
    return page;
}

Result<std::int64_t> TeamServer::forgedRows()
{
    auto count = m_impl->connection.exec(kForgedRowsSql);
    if (!count)
        return makeError("could not read the team's changes: " + count.message());
    bool ok = true;
    const std::int64_t n = parseCount(count->text(0, 0), ok);
    if (!ok)
        return makeError("the team server gave no count of its rows");
    return n;
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
