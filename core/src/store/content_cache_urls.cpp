// ContentCache's URL index: one small JSON file per URL, named by the URL's
// hash so any URL (query strings, signatures) maps to a safe file name.
#include "relayhud/store/content_cache.h"

#include "relayhud/util/file_ops.h"
#include "relayhud/util/json_guard.h"
#include "relayhud/util/sha256.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace relayhud {

namespace fs = std::filesystem;

namespace {

std::string stringField(const nlohmann::json& j, const char* key)
{
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The record in `path` if it is one for `url`; nullopt for a missing,
// unreadable or foreign file.
std::optional<UrlRecord> readRecord(const std::string& path, const std::string* url)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return std::nullopt;
    std::stringstream text;
    text << in.rdbuf();
    const auto j = parseJsonOrDiscarded(text.str());
    if (!j.is_object() || (url && stringField(j, "url") != *url))
        return std::nullopt;
    UrlRecord record{stringField(j, "hash"), stringField(j, "etag"),
                     stringField(j, "lastModified")};
    if (!artifacts::isHexHash(record.hash))
        return std::nullopt;
    return record;
}

} // namespace

std::string ContentCache::urlRecordPath(const std::string& url) const
{
    return m_root + "/urls/" + contentHash(url) + ".json";
}

Result<void> ContentCache::recordUrl(const std::string& url, const UrlRecord& record) const
{
    if (!has(record.hash))
        return makeError("cannot record " + url + ": blob '" + record.hash
                         + "' is not in the cache");
    const nlohmann::json j = {{"url", url},
                              {"hash", record.hash},
                              {"etag", record.etag},
                              {"lastModified", record.lastModified}};
    // dump() with replace: validators are server text and need not be UTF-8.
    const std::string text = j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
    const fs::path file(urlRecordPath(url));
    return artifacts::writeFileAtomic(file.parent_path().string(), file.filename().string(), text);
}

std::optional<UrlRecord> ContentCache::lookupUrl(const std::string& url) const
{
    const std::string file = urlRecordPath(url);
    auto record = readRecord(file, &url);
    if (!record || has(record->hash))
        return record;
    std::error_code ec;
    fs::remove(file, ec); // its blob was evicted: the validators are useless now
    return std::nullopt;
}

void ContentCache::forgetUrl(const std::string& url) const
{
    std::error_code ec;
    fs::remove(urlRecordPath(url), ec); // none, or already gone: forgotten either way
}

void ContentCache::pruneUrlRecords() const
{
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(m_root + "/urls", ec)) {
        const std::string name = entry.path().filename().string();
        if (artifacts::isTempName(name))
            continue; // a write in progress, or a stale one that evictToFit sweeps
        const auto record = readRecord(entry.path().string(), nullptr);
        std::error_code removeError;
        if (!record || !has(record->hash))
            fs::remove(entry.path(), removeError);
    }
}

} // namespace relayhud
