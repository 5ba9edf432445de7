#include "store/schema.h"

#include "store/statement.h"

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

constexpr std::array<const char*, 1> kMigrations{kVersion1};

Result<void> applyStep(sqlite3* db, int version)
{
    if (auto r = exec(db, "BEGIN IMMEDIATE"); !r)
        return r;
    auto r = exec(db, kMigrations[static_cast<std::size_t>(version - 1)]);
    if (r)
        r = exec(db, ("PRAGMA user_version = " + std::to_string(version)).c_str());
    if (r)
        r = exec(db, "COMMIT");
    if (!r) {
        (void)exec(db, "ROLLBACK");
        return makeError("could not upgrade the cache to schema " + std::to_string(version) + ": "
                         + r.message());
    }
    return {};
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
