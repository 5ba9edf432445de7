#include "team/team_schema.h"

#include "relayhud/store/triage_tag_rules.h"

namespace relayhud::team {
namespace {

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

// A kind or field name ("triage", "class"): short words.
constexpr std::size_t kMaxKindBytes = 64;
// How far past the server's clock a client's time may be: clocks differ by
// seconds, and a change made "later" than it arrived wins conflicts.
constexpr int kServerSkewSeconds = 300;

// Version 3 (issue 35): the server enforces what it can, whatever a
// teammate with SQL access inserts. A BEFORE INSERT trigger takes the append
// lock (so seq follows commit order for every writer, not only RelayHUD's),
// hands out seq from the sequence (an explicit seq is overwritten; the
// column loses its default so each row costs one value), sets author to the
// session user and received to now(), and clamps client_time to at most
// kServerSkew past the server's clock. CHECK constraints bound every field
// (the limits of store/triage_tag_rules.h) and require a finite time from
// 1970 on; they are NOT VALID, so a server that already holds hostile rows
// still upgrades: they bind every new row, and the pull skips the old ones.
// relayhud_last_seq() (SECURITY DEFINER: a role needs no SELECT on the
// sequence) is the last seq the sequence gave: a row beyond it was never
// given one, and a pull leaves it unread rather than jump past the honest
// changes that follow it.
std::string version3()
{
    const auto at = [](const char* column, std::size_t limit) {
        return std::string("octet_length(") + column + ") <= " + std::to_string(limit);
    };
    return R"sql(
ALTER TABLE relayhud_change ALTER COLUMN seq DROP DEFAULT;
CREATE FUNCTION relayhud_change_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_advisory_xact_lock(7365827402);
    NEW.seq := nextval('relayhud_change_seq_seq');
    NEW.author := session_user;
    NEW.received := now();
    NEW.client_time := least(NEW.client_time, now() + interval ')sql"
           + std::to_string(kServerSkewSeconds) + R"sql( seconds');
    RETURN NEW;
END $$;
CREATE TRIGGER relayhud_change_guard BEFORE INSERT ON relayhud_change
    FOR EACH ROW EXECUTE FUNCTION relayhud_change_guard();
ALTER TABLE relayhud_change ADD CONSTRAINT relayhud_change_limits CHECK ()sql"
           + at("kind", kMaxKindBytes) + " AND " + at("field", kMaxKindBytes) + " AND "
           + at("repo", kMaxTagNameBytes) + " AND " + at("workflow", kMaxTagNameBytes) + " AND "
           + at("job", kMaxTagNameBytes) + " AND " + at("sha", kMaxTagShaBytes) + " AND "
           + at("test", kMaxTagTestBytes) + " AND " + at("author", kMaxTagNameBytes) + " AND "
           + at("value #>> '{}'", kMaxTagNoteBytes) + " AND attempt BETWEEN 1 AND "
           + std::to_string(kMaxTagAttempt) + R"sql(
    AND isfinite(client_time) AND client_time >= '1970-01-01 00:00:00+00') NOT VALID;
CREATE FUNCTION relayhud_last_seq() RETURNS bigint LANGUAGE sql SECURITY DEFINER
    SET search_path FROM CURRENT AS $$
    SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM relayhud_change_seq_seq
$$;
)sql";
}

} // namespace

std::string migrationSql(int version)
{
    switch (version) {
    case 1: return kVersion1;
    case 2: return kVersion2;
    case 3: return version3();
    }
    return {};
}

namespace {

// A column of a pull, or NULL when it is over its limit: an oversized
// field is never sent (octet_length reads a TOASTed value's size without
// reading the value).
std::string capped(const char* column, std::size_t limit)
{
    return std::string("CASE WHEN octet_length(") + column + ") <= " + std::to_string(limit)
           + " THEN " + column + " END";
}

// A pull: the log after $1, at most $2 rows and, past its first row, at most
// $3 bytes of text; rows beyond the sequence's last value are left unread
// (relayhud_last_seq). A time that is no instant (infinity) comes as NULL.
} // namespace

const std::string& pullSql()
{
    static const std::string sql =
        "WITH page AS (SELECT seq, change_id::text AS id, " + capped("kind", kMaxKindBytes)
        + " AS k, " + capped("repo", kMaxTagNameBytes) + " AS r, "
        + capped("workflow", kMaxTagNameBytes) + " AS w, " + capped("job", kMaxTagNameBytes)
        + " AS j, " + capped("sha", kMaxTagShaBytes) + " AS s, attempt, "
        + capped("test", kMaxTagTestBytes) + " AS t, " + capped("field", kMaxKindBytes) + " AS f, "
        + capped("v", kMaxTagNoteBytes)
        + " AS v, CASE WHEN isfinite(client_time) THEN round(extract(epoch FROM client_time)"
          " * 1000)::bigint END AS ms, "
        + capped("author", kMaxTagNameBytes)
        + " AS a, base_seq, CASE WHEN isfinite(least(received, now())) THEN"
          " round(extract(epoch FROM least(received, now())) * 1000)::bigint END AS got"
          " FROM relayhud_change, LATERAL (SELECT value #>> '{}' AS v) x"
          " WHERE seq > $1 AND seq <= (SELECT relayhud_last_seq()) ORDER BY seq LIMIT $2),"
          " sized AS (SELECT page.*, octet_length(concat(k, r, w, j, s, t, f, v, a)) AS bytes"
          " FROM page), running AS (SELECT sized.*, sum(bytes) OVER (ORDER BY seq) AS upto"
          " FROM sized) SELECT seq, id, k, r, w, j, s, attempt, t, f, v, ms, a, base_seq, got"
          " FROM running WHERE upto - bytes < $3 ORDER BY seq";
    return sql;
}

} // namespace relayhud::team
