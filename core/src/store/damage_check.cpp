#include "store/damage_check.h"

#include "relayhud/util/read_file.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string_view>
#include <utility>
#include <vector>

namespace relayhud::store {
namespace {

// quick_check lists at most this many findings; the message names the first.
constexpr int kFindings = 10;

// A file's identity and state, as a clean close leaves it.
std::string stampOf(const struct stat& st)
{
    std::ostringstream out;
    out << "relayhud clean close 1\n"
        << st.st_dev << ' ' << st.st_ino << ' ' << st.st_size << ' ' << st.st_mtim.tv_sec << '.'
        << st.st_mtim.tv_nsec << '\n';
    return out.str();
}

// The stamp's text, or "" (no stamp, or not a small regular file: checked).
std::string readStamp(const std::string& path)
{
    auto text = readRegularFile(path, 256, "a cache's clean-close stamp");
    return text ? *text : std::string();
}

// The cache files this process has open, by (device, inode), and which file
// each connection opened: a file checked (or found as its stamp says) stays
// trusted while any connection to it is open, so the GUI's workers do not
// check it again while a sync writes it; one where a step met damage is never
// stamped at close. Connections are known by their handle, so a file removed
// while open cannot leave its inode trusted for the next file that gets it.
using FileKey = std::pair<dev_t, ino_t>;
struct OpenFile {
    int connections = 0;
    bool damaged = false;
};
struct OpenFiles {
    std::mutex mutex;
    std::map<FileKey, OpenFile> files;
    std::map<const sqlite3*, FileKey> connections;

    void add(const sqlite3* db, FileKey key)
    {
        ++files[key].connections;
        connections[db] = key;
    }
};
OpenFiles& openFiles()
{
    static OpenFiles instance;
    return instance;
}

std::string damagedMessage(const std::string& path, const std::string& finding,
                           std::size_t findings)
{
    return "the cache " + path + " is damaged (SQLite's quick_check: " + finding
           + (findings > 1 ? ", and " + std::to_string(findings - 1) + " more" : std::string())
           + "); nothing was read from it. Move it aside and sync again (tags can be saved "
             "from it with: sqlite3 "
           + path + " .recover)";
}

// quick_check's findings: empty when there are none.
Result<std::vector<std::string>> quickCheck(sqlite3* db)
{
    sqlite3_stmt* stmt = nullptr;
    const std::string sql = "PRAGMA quick_check(" + std::to_string(kFindings) + ")";
    if (sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
        return makeError(sqlite3_errmsg(db));
    std::vector<std::string> findings;
    int rc = SQLITE_ROW;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
        if (text == nullptr || std::string_view(text) == "ok")
            continue;
        // "*** in database main ***\nPage 7: ..." names the schema we opened.
        std::string finding(text);
        if (const auto header = finding.find("***\n");
            finding.starts_with("***") && header != std::string::npos)
            finding.erase(0, header + 4);
        std::replace(finding.begin(), finding.end(), '\n', ' ');
        findings.push_back(std::move(finding));
    }
    sqlite3_finalize(stmt);
    if (rc != SQLITE_DONE)
        return makeError(sqlite3_errmsg(db));
    return findings;
}

} // namespace

std::string closeStampPath(const std::string& path) { return path + "-closed"; }

Result<void> checkForDamage(sqlite3* db, const std::string& path)
{
    struct stat st {};
    if (path.empty() || ::stat(path.c_str(), &st) != 0)
        return {}; // ":memory:"
    const FileKey key(st.st_dev, st.st_ino);
    OpenFiles& open = openFiles();
    const std::lock_guard lock(open.mutex);
    const auto known = open.files.find(key);
    const bool trusted =
        known != open.files.end() && known->second.connections > 0 && !known->second.damaged;
    // A new file has nothing to check; nor one that is as its clean close left it.
    if (!trusted && st.st_size > 0 && readStamp(closeStampPath(path)) != stampOf(st)) {
        auto findings = quickCheck(db);
        if (!findings)
            return makeError(damagedMessage(path, findings.message(), 1));
        if (!findings->empty())
            return makeError(damagedMessage(path, findings->front(), findings->size()));
    }
    open.add(db, key);
    return {};
}

CloseTicket releaseForClose(const sqlite3* db)
{
    OpenFiles& open = openFiles();
    const std::lock_guard lock(open.mutex);
    const auto connection = open.connections.find(db);
    if (connection == open.connections.end())
        return {}; // never passed its check
    CloseTicket ticket{true, connection->second.first, connection->second.second};
    const auto file = open.files.find(connection->second);
    open.connections.erase(connection);
    if (file == open.files.end())
        return ticket;
    ticket.stamp = !file->second.damaged;
    if (--file->second.connections <= 0)
        open.files.erase(file);
    return ticket;
}

void recordCleanClose(const CloseTicket& ticket, const std::string& path)
{
    struct stat st {};
    if (!ticket.stamp || ::stat(path.c_str(), &st) != 0 || st.st_dev != ticket.device
        || st.st_ino != ticket.inode)
        return; // damaged, or not the file that was checked
    struct stat wal {};
    if (::stat((path + "-wal").c_str(), &wal) == 0)
        return; // another connection still has it open
    // Temp and rename: a reader sees the old stamp or the new one. Not
    // synced: a stamp lost to a power cut only costs the next open a check.
    const std::string stamp = closeStampPath(path);
    const std::string temp = stamp + ".tmp";
    {
        std::ofstream out(temp, std::ios::binary | std::ios::trunc);
        out << stampOf(st);
        if (!out.flush())
            return;
    }
    std::rename(temp.c_str(), stamp.c_str());
}

void forgetCleanClose(sqlite3* db)
{
    const char* name = sqlite3_db_filename(db, "main");
    if (name != nullptr && *name != '\0')
        std::remove(closeStampPath(name).c_str());
    OpenFiles& open = openFiles();
    const std::lock_guard lock(open.mutex);
    const auto connection = open.connections.find(db);
    if (connection == open.connections.end())
        return;
    if (const auto file = open.files.find(connection->second); file != open.files.end())
        file->second.damaged = true;
}

std::string cacheErrorText(sqlite3* db, int rc)
{
    const int primary = rc & 0xff;
    std::string text = std::string("cache error: ") + sqlite3_errmsg(db);
    if (primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB) {
        forgetCleanClose(db);
        const char* name = sqlite3_db_filename(db, "main");
        text += " (the cache " + std::string(name ? name : "")
                + " is damaged: move it aside and sync again)";
    }
    return text;
}

} // namespace relayhud::store
