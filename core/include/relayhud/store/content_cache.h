#pragma once
// The on-disk cache of downloaded blobs (artifact zips, logs, reports), keyed
// by the SHA-256 of their content, with a size cap and least-recently-used
// eviction, plus a URL -> blob index holding the validators (ETag,
// Last-Modified) that make the next download conditional.
//
// The file system is the index, so there is nothing to corrupt or to lock and
// several processes (GUI, CLI, sync threads) may share one root:
//   <root>/<2 hex>/<64 hex>      a blob, named by its hash; mtime = last use
//   <root>/urls/<64 hex>.json    a URL record, named by the URL's hash
//   <root>/tmp/                  where a downloader writes before putFile()
// One level of 256 fan-out folders keeps folders small for the tens of
// thousands of blobs a cache holds; they are never removed, so eviction can
// never race a put into the same folder.
// Every write is temp file + fsync + rename: a blob or record is whole or
// absent. Concurrent puts of one blob both succeed (same bytes, last rename
// wins); an eviction may remove a blob another process is about to open, so
// open the path that path() returns right away and treat "gone" as a miss.
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace relayhud {

// Lower-case hex SHA-256 of `bytes`: the key ContentCache files blobs under.
std::string contentHash(std::string_view bytes);

struct UrlRecord {
    std::string hash;         // the blob the URL last gave
    std::string etag;         // for If-None-Match; may be empty
    std::string lastModified; // for If-Modified-Since; may be empty
};

struct EvictionReport {
    std::uint64_t removedBlobs = 0;
    std::uint64_t removedBytes = 0;
    std::uint64_t remainingBytes = 0;
};

class ContentCache {
public:
    static constexpr std::uint64_t kDefaultCapBytes = 4ull << 30;

    // defaultCacheDir() + "/blobs".
    static std::string defaultRoot();
    // Creates the root's folders when missing.
    static Result<ContentCache> open(std::string root, std::uint64_t capBytes = kDefaultCapBytes);

    const std::string& root() const { return m_root; }
    std::uint64_t capBytes() const { return m_capBytes; }
    // On the root's file system, so putFile() can move a download in with a rename.
    std::string tempDir() const { return m_root + "/tmp"; }

    // Stores the bytes (once: a blob already present is only marked used).
    Result<std::string> put(std::string_view bytes);
    // Stores a finished file and takes it: it is moved in (copied when on
    // another file system) and is gone from `file` on success. The caller
    // must not write to it any more.
    Result<std::string> putFile(const std::string& file);

    bool has(const std::string& hash) const;
    // The blob's path, marking it used now (eviction goes by last use).
    std::optional<std::string> path(const std::string& hash) const;
    // Re-hashes the blob. A mismatch (disk damage, an edit by hand) removes
    // it and says so: the caller downloads it again.
    Result<void> verify(const std::string& hash) const;
    // Removes a blob that turned out broken (a download cut in transit); the
    // URL records that point to it go with it (lookupUrl drops them).
    void remove(const std::string& hash) const;

    // Remembers what `url` gave; the blob must be in the cache.
    Result<void> recordUrl(const std::string& url, const UrlRecord& record) const;
    // The record of `url`, only while its blob is still cached: validators
    // without the blob would turn the server's 304 into a dead end.
    std::optional<UrlRecord> lookupUrl(const std::string& url) const;
    // Drops the record of `url` (its blob stays until eviction): what it gave
    // turned out broken, and its validators must not ask for it again.
    void forgetUrl(const std::string& url) const;

    // Removes least recently used blobs until the total is within the cap,
    // then URL records whose blob is gone and temp files left by crashes
    // (older than an hour). Not done by put(): callers evict once per batch.
    Result<EvictionReport> evictToFit() const;
    // Bytes held by blobs (records and temp files not counted).
    Result<std::uint64_t> totalBytes() const;

private:
    ContentCache(std::string root, std::uint64_t capBytes);
    std::string blobDir(const std::string& hash) const;
    std::string blobPath(const std::string& hash) const;
    std::string urlRecordPath(const std::string& url) const;
    Result<std::string> adopt(const std::string& file, const std::string& hash) const;
    void pruneUrlRecords() const;

    std::string m_root;
    std::uint64_t m_capBytes;
};

} // namespace relayhud
