#include "store/schema.h"

#include "store/statement.h"
#include "store/transaction.h"

#include <array>
#include <string>

namespace relayhud::store {
namespace {

// Enumerations are stored as their numeric values (see model/types.h); the
// numbers are part of the file format and must never be reordered.
constexpr const char* kVersion1 = R"sql(
CREATE TABLE backend (
    id       INTEGER PRIMARY KEY,
    repo     TEXT NOT NULL UNIQUE,
    level    INTEGER NOT NULL DEFAULT 0,
    oncalls  TEXT NOT NULL DEFAULT ''
);
CREATE TABLE upstream_commit (
    id         INTEGER PRIMARY KEY,
    sha        TEXT NOT NULL UNIQUE,
    pr_number  INTEGER NOT NULL DEFAULT 0,
    branch     TEXT NOT NULL DEFAULT '',
    event_type INTEGER NOT NULL DEFAULT 0,
    time       INTEGER NOT NULL DEFAULT 0,
    title      TEXT NOT NULL DEFAULT '',
    author     TEXT NOT NULL DEFAULT ''
);
CREATE INDEX upstream_commit_by_time ON upstream_commit(time DESC);
CREATE INDEX upstream_commit_by_pr ON upstream_commit(pr_number);
CREATE TABLE job (
    id         INTEGER PRIMARY KEY,
    backend_id INTEGER NOT NULL REFERENCES backend(id) ON DELETE CASCADE,
    workflow   TEXT NOT NULL,
    name       TEXT NOT NULL,
    UNIQUE (backend_id, workflow, name)
);
CREATE TABLE check_run (
    id             INTEGER PRIMARY KEY,
    commit_id      INTEGER NOT NULL REFERENCES upstream_commit(id) ON DELETE CASCADE,
    job_id         INTEGER NOT NULL REFERENCES job(id) ON DELETE CASCADE,
    run_id         TEXT NOT NULL,
    run_attempt    INTEGER NOT NULL,
    check_run_id   TEXT NOT NULL DEFAULT '',
    pr_number      INTEGER NOT NULL DEFAULT 0,
    event_type     INTEGER NOT NULL DEFAULT 0,
    upstream_repo  TEXT NOT NULL DEFAULT 'pytorch/pytorch',
    -- self-reported by the downstream repository
    status         INTEGER NOT NULL,
    conclusion     INTEGER NOT NULL,
    started_at     INTEGER,
    completed_at   INTEGER,
    tests_total    INTEGER,
    tests_passed   INTEGER,
    tests_failed   INTEGER,
    tests_skipped  INTEGER,
    run_url        TEXT NOT NULL DEFAULT '',
    artifact_url   TEXT NOT NULL DEFAULT '',
    -- measured or verified by the relay
    level          INTEGER NOT NULL DEFAULT 0,
    queue_time     REAL,
    execution_time REAL,
    UNIQUE (commit_id, job_id, run_id, run_attempt)
);
CREATE INDEX check_run_by_job ON check_run(job_id, commit_id);
CREATE TABLE http_validator (
    url       TEXT PRIMARY KEY,
    etag      TEXT NOT NULL,
    items     INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
)sql";

// Test results (model/test_results.h). The two hot reads are "every result
// of one test run" (test_result's primary key) and "these tests in the runs
// of one job" (test_result_by_test, then test_run_id within one test). A
// WITHOUT ROWID table keeps each result in its key's b-tree: one row of ~12
// bytes instead of a row plus a rowid index, which matters at 30 million.
// Durations are whole microseconds (a REAL always takes 8 bytes). test_id and
// the message ids are not declared foreign keys: the writer is their only
// source, test_case and test_message are never pruned, and checking them
// would cost two more b-tree lookups per stored result.
// test_case and test_message rows are shared by every run that has them.
// A test is found by `key`, a 64-bit hash of its identity (an index of
// integers is a fraction of the size and cost of one over 100-byte names;
// the writer compares the identity itself, so a collision is harmless), and
// `identity` is NULL when it is testIdentity(file, class_name, name), as the
// JUnit reader makes it: a third of each row that would only repeat the rest.
constexpr const char* kVersion2 = R"sql(
CREATE TABLE test_case (
    id         INTEGER PRIMARY KEY,
    key        INTEGER NOT NULL,
    file       TEXT NOT NULL DEFAULT '',
    class_name TEXT NOT NULL DEFAULT '',
    name       TEXT NOT NULL DEFAULT '',
    identity   TEXT,
    base_name  TEXT NOT NULL DEFAULT '',
    marks      TEXT NOT NULL DEFAULT ''
);
CREATE INDEX test_case_by_key ON test_case(key);
CREATE TABLE test_message (
    id         INTEGER PRIMARY KEY,
    hash       INTEGER NOT NULL,
    text       TEXT NOT NULL,
    full_bytes INTEGER NOT NULL,
    full_hash  TEXT NOT NULL DEFAULT ''
);
CREATE INDEX test_message_by_hash ON test_message(hash);
CREATE TABLE test_run (
    id                INTEGER PRIMARY KEY,
    check_run_row     INTEGER UNIQUE REFERENCES check_run(id) ON DELETE CASCADE,
    source            INTEGER NOT NULL,
    state             INTEGER NOT NULL,
    label             TEXT NOT NULL DEFAULT '',
    location          TEXT NOT NULL DEFAULT '',
    message           TEXT NOT NULL DEFAULT '',
    fetched_at        INTEGER NOT NULL,
    reports           INTEGER NOT NULL DEFAULT 0,
    declared_tests    INTEGER NOT NULL DEFAULT 0,
    declared_failures INTEGER NOT NULL DEFAULT 0,
    declared_errors   INTEGER NOT NULL DEFAULT 0,
    declared_skipped  INTEGER NOT NULL DEFAULT 0,
    counted_tests     INTEGER NOT NULL DEFAULT 0,
    counted_failures  INTEGER NOT NULL DEFAULT 0,
    counted_errors    INTEGER NOT NULL DEFAULT 0,
    counted_skipped   INTEGER NOT NULL DEFAULT 0,
    passed            INTEGER NOT NULL DEFAULT 0,
    failed            INTEGER NOT NULL DEFAULT 0,
    errors            INTEGER NOT NULL DEFAULT 0,
    skipped           INTEGER NOT NULL DEFAULT 0,
    xfailed           INTEGER NOT NULL DEFAULT 0,
    xpass_strict      INTEGER NOT NULL DEFAULT 0,
    -- rows in test_result (a test reported twice is stored once)
    stored_results    INTEGER NOT NULL DEFAULT 0,
    warnings          TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX test_run_by_source ON test_run(source, fetched_at);
CREATE TABLE test_result (
    test_run_id  INTEGER NOT NULL,
    test_id      INTEGER NOT NULL,
    outcome      INTEGER NOT NULL,
    duration_us  INTEGER NOT NULL DEFAULT 0,
    retried      TEXT,
    message_id   INTEGER,
    traceback_id INTEGER,
    PRIMARY KEY (test_run_id, test_id)
) WITHOUT ROWID;
CREATE INDEX test_result_by_test ON test_result(test_id, test_run_id, outcome);
CREATE TRIGGER test_run_results_go_with_it AFTER DELETE ON test_run BEGIN
    DELETE FROM test_result WHERE test_run_id = old.id;
END;
CREATE INDEX check_run_by_check_run_id ON check_run(check_run_id);
)sql";

// Triage (issue 5). A human tag names its failure portably, so that a team's
// exported tags apply to another cache: the downstream repository, workflow
// and job, the upstream SHA, the run attempt, and the test's identity
// (file::Class::name; '' for the job itself). `class` is
// triage::FailureClass; clearing a tag stores Untriaged with its time, so
// that an import's "newest wins" carries the clearing too. Times are epoch
// milliseconds (two tags set in the same second still order).
// job_failure_line keeps the line that explains a failed job, picked from its
// log by triage::Classifier with the rule set whose hash it records (a new
// rule set picks again). state: 0 a rule matched, 1 no rule matched, 2 no log
// (`message` says why).
constexpr const char* kVersion3 = R"sql(
CREATE TABLE triage_tag (
    id       INTEGER PRIMARY KEY,
    repo     TEXT NOT NULL,
    workflow TEXT NOT NULL,
    job      TEXT NOT NULL,
    sha      TEXT NOT NULL,
    attempt  INTEGER NOT NULL,
    test     TEXT NOT NULL DEFAULT '',
    class    INTEGER NOT NULL,
    note     TEXT NOT NULL DEFAULT '',
    bug_url  TEXT NOT NULL DEFAULT '',
    author   TEXT NOT NULL DEFAULT '',
    time_ms  INTEGER NOT NULL,
    UNIQUE (repo, workflow, job, sha, attempt, test)
);
CREATE INDEX triage_tag_by_sha ON triage_tag(sha);
CREATE TABLE job_failure_line (
    check_run_row INTEGER PRIMARY KEY REFERENCES check_run(id) ON DELETE CASCADE,
    rules_hash    INTEGER NOT NULL,
    state         INTEGER NOT NULL,
    rule          TEXT NOT NULL DEFAULT '',
    class         INTEGER NOT NULL DEFAULT 0,
    line          INTEGER NOT NULL DEFAULT 0,
    text          TEXT NOT NULL DEFAULT '',
    captures      TEXT NOT NULL DEFAULT '[]',
    log_hash      TEXT NOT NULL DEFAULT '',
    message       TEXT NOT NULL DEFAULT '',
    picked_at     INTEGER NOT NULL
);
)sql";

// Triage reads the results that are not passes (and not skips) of one run,
// and attribution those of every run of a job at once. A partial index over
// failed (1), error (2), xfailed (4) and xpass-strict (5) results only
// (TestOutcome, junit/test_result.h) finds them without scanning the passing
// ones: a few thousand rows instead of tens of millions. SQLite uses it only
// for a query that repeats its WHERE term word for word
// (model/test_results.h kTriageOutcomes).
constexpr const char* kVersion4 = R"sql(
CREATE INDEX test_result_triage ON test_result(test_run_id, test_id)
    WHERE outcome IN (1, 2, 4, 5);
)sql";

// Schema 5 (hud-read-api.md R3, R7, R8, R17):
// - check_run is keyed by check_run_id too: a PR's closed/reopened
//   re-dispatch (same SHA, new run) and matrix legs sharing a job name are
//   distinct rows at attempt 1 (relay webhook/event_handler.py:22,419-440).
//   SQLite cannot change a UNIQUE constraint in place: the table is rebuilt
//   with foreign keys off (applyStep), keeping every row id.
// - conclusion_text keeps a conclusion RelayHUD has no member for, verbatim.
// - backend.listed = 0 for a repo that reports rows but is not (or no longer)
//   at L2+ in the allowlist (the HUD finds those through crcr_summary).
// - hud_answer keeps the HUD's aggregate answers (summaries, relay health)
//   verbatim, for offline use.
constexpr const char* kVersion5 = R"sql(
CREATE TABLE check_run_v5 (
    id              INTEGER PRIMARY KEY,
    commit_id       INTEGER NOT NULL REFERENCES upstream_commit(id) ON DELETE CASCADE,
    job_id          INTEGER NOT NULL REFERENCES job(id) ON DELETE CASCADE,
    run_id          TEXT NOT NULL,
    run_attempt     INTEGER NOT NULL,
    check_run_id    TEXT NOT NULL DEFAULT '',
    pr_number       INTEGER NOT NULL DEFAULT 0,
    event_type      INTEGER NOT NULL DEFAULT 0,
    upstream_repo   TEXT NOT NULL DEFAULT 'pytorch/pytorch',
    status          INTEGER NOT NULL,
    conclusion      INTEGER NOT NULL,
    started_at      INTEGER,
    completed_at    INTEGER,
    tests_total     INTEGER,
    tests_passed    INTEGER,
    tests_failed    INTEGER,
    tests_skipped   INTEGER,
    run_url         TEXT NOT NULL DEFAULT '',
    artifact_url    TEXT NOT NULL DEFAULT '',
    level           INTEGER NOT NULL DEFAULT 0,
    queue_time      REAL,
    execution_time  REAL,
    conclusion_text TEXT NOT NULL DEFAULT '',
    UNIQUE (commit_id, job_id, run_id, run_attempt, check_run_id)
);
INSERT INTO check_run_v5(id, commit_id, job_id, run_id, run_attempt, check_run_id, pr_number,
    event_type, upstream_repo, status, conclusion, started_at, completed_at, tests_total,
    tests_passed, tests_failed, tests_skipped, run_url, artifact_url, level, queue_time,
    execution_time)
SELECT id, commit_id, job_id, run_id, run_attempt, check_run_id, pr_number, event_type,
    upstream_repo, status, conclusion, started_at, completed_at, tests_total, tests_passed,
    tests_failed, tests_skipped, run_url, artifact_url, level, queue_time, execution_time
FROM check_run;
DROP TABLE check_run;
ALTER TABLE check_run_v5 RENAME TO check_run;
CREATE INDEX check_run_by_job ON check_run(job_id, commit_id);
CREATE INDEX check_run_by_check_run_id ON check_run(check_run_id);
ALTER TABLE backend ADD COLUMN listed INTEGER NOT NULL DEFAULT 1;
CREATE TABLE hud_answer (
    query      TEXT NOT NULL,
    params     TEXT NOT NULL,
    body       TEXT NOT NULL,
    fetched_at INTEGER NOT NULL,
    PRIMARY KEY (query, params)
);
)sql";

// Schema 6 (issue 20): what a check run's job log says its checkouts
// checked out (logs/checkout_scan.h), the integration doctor's tested-SHA
// evidence. A scan row with `read` 1 says the log was read (with no checkout
// in it, "cannot judge"), and its checkouts follow in log order; `read` 0
// says it could not be (refused, cut, a server error), asked again later;
// `read` 2 that it is gone (expired or empty), for good. A log read again
// replaces both.
constexpr const char* kVersion6 = R"sql(
CREATE TABLE log_checkout_scan (
    check_run_row INTEGER PRIMARY KEY REFERENCES check_run(id) ON DELETE CASCADE,
    scanned_at    INTEGER NOT NULL,
    read          INTEGER NOT NULL
);
CREATE TABLE log_checkout (
    check_run_row INTEGER NOT NULL
                  REFERENCES log_checkout_scan(check_run_row) ON DELETE CASCADE,
    ordinal       INTEGER NOT NULL,
    repository    TEXT NOT NULL,
    sha           TEXT NOT NULL,
    line          INTEGER NOT NULL,
    PRIMARY KEY (check_run_row, ordinal)
);
)sql";

// Schema 7 (issue 21): the cache's side of a team's shared triage server
// (store/team_changes.h). team_state holds where the cache stands with its
// team (key/value: team_id, where, last_seq, last_sync_ms, last_error).
// team_outbox holds local tag changes in the order they were made, written
// in the transaction that changed the tag; `sent` 1 once the server
// committed one, the row itself deleted when a pull brings it back (which
// tells this cache's changes from a colleague's). team_field is the last
// change applied to each field of each tag: what a pulled change is weighed
// against. team_conflict lists two changes to one field that neither
// author had seen, and which one won.
constexpr const char* kVersion7 = R"sql(
CREATE TABLE team_state (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE team_outbox (
    id        INTEGER PRIMARY KEY,
    change_id TEXT NOT NULL UNIQUE,
    base_seq  INTEGER NOT NULL,
    repo      TEXT NOT NULL,
    workflow  TEXT NOT NULL,
    job       TEXT NOT NULL,
    sha       TEXT NOT NULL,
    attempt   INTEGER NOT NULL,
    test      TEXT NOT NULL,
    field     TEXT NOT NULL,
    value     TEXT NOT NULL,
    client_ms INTEGER NOT NULL,
    author    TEXT NOT NULL,
    sent      INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE team_field (
    repo      TEXT NOT NULL,
    workflow  TEXT NOT NULL,
    job       TEXT NOT NULL,
    sha       TEXT NOT NULL,
    attempt   INTEGER NOT NULL,
    test      TEXT NOT NULL,
    field     TEXT NOT NULL,
    change_id TEXT NOT NULL,
    seq       INTEGER NOT NULL,
    base_seq  INTEGER NOT NULL,
    client_ms INTEGER NOT NULL,
    author    TEXT NOT NULL,
    value     TEXT NOT NULL,
    PRIMARY KEY (repo, workflow, job, sha, attempt, test, field)
) WITHOUT ROWID;
CREATE TABLE team_conflict (
    id            INTEGER PRIMARY KEY,
    repo          TEXT NOT NULL,
    workflow      TEXT NOT NULL,
    job           TEXT NOT NULL,
    sha           TEXT NOT NULL,
    attempt       INTEGER NOT NULL,
    test          TEXT NOT NULL,
    field         TEXT NOT NULL,
    local_id      TEXT NOT NULL,
    local_seq     INTEGER NOT NULL,
    local_base    INTEGER NOT NULL,
    local_value   TEXT NOT NULL,
    local_author  TEXT NOT NULL,
    local_ms      INTEGER NOT NULL,
    remote_id     TEXT NOT NULL,
    remote_seq    INTEGER NOT NULL,
    remote_base   INTEGER NOT NULL,
    remote_value  TEXT NOT NULL,
    remote_author TEXT NOT NULL,
    remote_ms     INTEGER NOT NULL,
    remote_won    INTEGER NOT NULL,
    found_ms      INTEGER NOT NULL
);
)sql";

// Schema 8 (issue 34): how many times a check run's artifacts were asked
// for. A run with no reports yet, or one kept partial, is asked again on a
// bounded schedule (TestResultStore::artifactQueue), never every pass forever.
constexpr const char* kVersion8 = R"sql(
ALTER TABLE test_run ADD COLUMN asks INTEGER NOT NULL DEFAULT 1;
)sql";

// Schema 9 (issue 34): the upstream commit a run really tested, where its
// HUD row names another (a merged PR's build at its base branch's HEAD;
// ../shared/specs/real-backends.md 3.1, 3.5), one per check run: its SHA
// (full, or the abbreviation git printed), the branch fetched when the job
// named one, where it was read (model/tested_commit.h, TestedCommitSource)
// and that name or line. log_checkout gains torch-spyre's FETCH_REF.
constexpr const char* kVersion9 = R"sql(
ALTER TABLE log_checkout ADD COLUMN fetch_ref TEXT NOT NULL DEFAULT '';
CREATE TABLE tested_commit (
    check_run_row INTEGER PRIMARY KEY REFERENCES check_run(id) ON DELETE CASCADE,
    sha           TEXT NOT NULL,
    ref           TEXT NOT NULL,
    source        INTEGER NOT NULL,
    evidence      TEXT NOT NULL,
    line          INTEGER NOT NULL
);
)sql";

// Schema 10 (issue 37): every test a job's failure line rule names, not
// only the picked line's (triage::FailureLine::named), as a JSON array like
// captures. Lines picked before keep '[]' and are read as naming their own.
constexpr const char* kVersion10 = R"sql(
ALTER TABLE job_failure_line ADD COLUMN named TEXT NOT NULL DEFAULT '[]';
)sql";

constexpr std::array<const char*, 10> kMigrations{kVersion1, kVersion2, kVersion3, kVersion4,
                                                  kVersion5, kVersion6, kVersion7, kVersion8,
                                                  kVersion9, kVersion10};
// Steps that rebuild a table others reference: run with foreign keys off, or
// dropping the old table would cascade into its dependants' rows.
constexpr int kRebuildingStep = 5;

Result<void> expectNoForeignKeyViolation(sqlite3* db)
{
    Statement check(db, "PRAGMA foreign_key_check");
    auto row = check.step();
    if (!row)
        return row.error();
    if (*row)
        return makeError("a row of " + check.text(0) + " lost its parent in the rebuild");
    return {};
}

Result<void> applyStepInTransaction(sqlite3* db, int version)
{
    auto transaction = Transaction::begin(db);
    if (!transaction)
        return transaction.error();
    // Another connection may have taken this step while we waited for the
    // write lock (two threads opening a new cache at once): read again.
    if (userVersion(db) >= version)
        return transaction->commit();
    auto r = exec(db, kMigrations[static_cast<std::size_t>(version - 1)]);
    if (r && version == kRebuildingStep)
        r = expectNoForeignKeyViolation(db);
    if (r)
        r = exec(db, ("PRAGMA user_version = " + std::to_string(version)).c_str());
    if (r)
        r = transaction->commit();
    if (!r) {
        return makeError("could not upgrade the cache to schema " + std::to_string(version) + ": "
                         + r.message());
    }
    return {};
}

Result<void> applyStep(sqlite3* db, int version)
{
    // PRAGMA foreign_keys is a no-op inside a transaction: set it around one.
    if (version != kRebuildingStep)
        return applyStepInTransaction(db, version);
    if (auto r = exec(db, "PRAGMA foreign_keys = OFF"); !r)
        return r;
    auto r = applyStepInTransaction(db, version);
    auto on = exec(db, "PRAGMA foreign_keys = ON");
    return r ? on : r;
}

} // namespace

int userVersion(sqlite3* db)
{
    Statement s(db, "PRAGMA user_version");
    auto row = s.step();
    return row && *row ? s.integer(0) : -1;
}

Result<void> migrate(sqlite3* db, int targetVersion)
{
    const int current = userVersion(db);
    if (current < 0)
        return makeError("the cache file is not a readable SQLite database");
    if (current > targetVersion)
        return makeError("the cache was written by a newer RelayHUD (schema "
                         + std::to_string(current) + ", this build knows "
                         + std::to_string(targetVersion)
                         + "); use a different cache file or upgrade RelayHUD");
    if (static_cast<std::size_t>(targetVersion) > kMigrations.size())
        return makeError("internal error: no migration to schema " + std::to_string(targetVersion));
    for (int v = current + 1; v <= targetVersion; ++v)
        if (auto r = applyStep(db, v); !r)
            return r;
    return {};
}

} // namespace relayhud::store
