#pragma once
// The local SQLite cache file: everything RelayHUD shows comes from it, so
// the app works offline. A Database is the connection, its schema and
// migrations, its write batches and its key/value metadata; what is kept in
// it is read and written through the stores beside this header, one per
// feature (run_store.h, test_result_store.h, triage_store.h, ...), each
// built on a Database when needed: `TriageStore(db).triageTags(...)`.
//
// One Database per thread (SQLite connections are not shared); WAL mode lets
// a sync writer and GUI readers, or two app instances, coexist. A store
// reads and writes through the connection of the Database it was built on;
// `const Database&` keeps the connection, not the file, unchanged.
#include "relayhud/util/result.h"

#include <memory>
#include <optional>
#include <string>

struct sqlite3;

namespace relayhud {

class WriteBatch;
namespace store {
struct Access; // core/src/store/store_access.h: the stores' way to the connection
}

class Database {
public:
    // Current schema version (PRAGMA user_version after migrations).
    static constexpr int kSchemaVersion = 10;

    // Opens or creates the cache file and migrates it to kSchemaVersion.
    // ":memory:" gives a private in-memory cache (tests).
    static Result<std::unique_ptr<Database>> open(const std::string& path);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    int schemaVersion() const;
    const std::string& path() const { return m_path; }

    // Groups the writes that follow into one transaction until the batch
    // commits (relayhud/store/write_batch.h), with a page cache of `cacheMiB`
    // meanwhile. The batch must not outlive this Database.
    Result<std::unique_ptr<WriteBatch>> beginWriteBatch(int cacheMiB = 256);

    // Key/value metadata (last successful sync time, HUD URL the cache came from).
    Result<std::optional<std::string>> meta(const std::string& key) const;
    Result<void> setMeta(const std::string& key, const std::string& value);

private:
    friend struct store::Access;
    explicit Database(std::string path);
    Result<void> configure();

    std::string m_path;
    sqlite3* m_db = nullptr;
};

} // namespace relayhud
