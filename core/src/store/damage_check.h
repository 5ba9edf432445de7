#pragma once
// Is the cache file damaged? SQLite notices a damaged page only when a query
// walks through it, and not always then: a page whose cells still parse can
// drop rows from an answer without an error (a probe saw `suggest --failed`
// print 1,931 rows of 1,933 and exit 0). PRAGMA quick_check reads every page
// (0.3 s for 15 MB), too slow for every open, so it runs when the file is not
// as the last clean close left it: each close that leaves no WAL behind (the
// last connection's, which checkpointed everything) writes a stamp of the
// file's size, mtime and inode next to it (FILE-closed); an open that finds
// no stamp, or one that does not match, checks. A crash, a kill -9, another
// program's write or a copy over it all change the file without a stamp, so
// the next open checks it. A step that meets a damaged page removes the stamp.
// Private to the store.
#include "relayhud/util/result.h"

#include <sys/types.h>

#include <string>

struct sqlite3;

namespace relayhud::store {

// The stamp's path for the cache file `path`.
std::string closeStampPath(const std::string& path);

// Runs quick_check on `db` unless `path` is as its clean-close stamp says, at
// most once per file and process (the GUI's worker connections each open
// it): ok, or "the cache PATH is damaged (...)" with SQLite's first findings
// and what to do.
Result<void> checkForDamage(sqlite3* db, const std::string& path);

// Before a connection that passed checkForDamage closes: whether its file
// may be stamped (no step met damage), and which file it was.
struct CloseTicket {
    bool stamp = false;
    dev_t device = 0;
    ino_t inode = 0;
};
CloseTicket releaseForClose(const sqlite3* db);

// After that connection closed: stamps the file when it is still the one the
// ticket names and no WAL is left (this was the last connection to it).
void recordCleanClose(const CloseTicket& ticket, const std::string& path);

// A step met SQLITE_CORRUPT or SQLITE_NOTADB on `db`: the next open checks.
void forgetCleanClose(sqlite3* db);

// The words for a cache error `rc` on `db`: SQLite's, with what to do when
// the file is damaged.
std::string cacheErrorText(sqlite3* db, int rc);

} // namespace relayhud::store
