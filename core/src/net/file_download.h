#pragma once
// The file side of HttpClient::download: where a 2xx body is written, and the
// bookkeeping that lets a later attempt resume a partial file. A partial file
// is only continued when the answer that started it had a strong ETag (kept
// in `<file>.etag`) and the continuation carries the same one: anything else
// could splice two different versions of a resource into one file.
#include "relayhud/util/result.h"

#include <cstdint>
#include <cstdio>
#include <map>
#include <string>

namespace relayhud::net {

class FileDownload {
public:
    FileDownload(std::string path, std::int64_t maxBytes);
    ~FileDownload();
    FileDownload(const FileDownload&) = delete;
    FileDownload& operator=(const FileDownload&) = delete;

    // Before each attempt: how many bytes to ask to skip (0: the whole body)
    // and the validator for If-Range. A partial file without one is dropped.
    void prepareAttempt();
    std::int64_t offset() const { return m_offset; }
    const std::string& validator() const { return m_validator; }

    // The body of a 2xx answer. False stops the transfer: a write failed, the
    // size limit was hit, or the answer does not continue our bytes (see
    // restartWanted()).
    bool write(long status, const std::map<std::string, std::string>& headers, const char* data,
               std::size_t size);
    // After a 2xx answer: flushes and closes (an empty 200 leaves an empty file).
    Result<void> finish(long status, const std::map<std::string, std::string>& headers);

    bool restartWanted() const { return m_restartWanted; }
    bool tooLarge() const { return m_tooLarge; }
    const std::string& writeError() const { return m_writeError; }
    // Removes the partial file and its validator: the next attempt starts over.
    void discard();

private:
    bool begin(long status, const std::map<std::string, std::string>& headers);
    bool continuesOurBytes(const std::map<std::string, std::string>& headers) const;
    void keepValidator(const std::map<std::string, std::string>& headers);
    void close();

    std::string m_path;
    std::int64_t m_maxBytes;
    std::FILE* m_file = nullptr;
    bool m_begun = false;
    std::int64_t m_offset = 0;
    std::int64_t m_size = 0;
    std::string m_validator;
    bool m_restartWanted = false;
    bool m_tooLarge = false;
    std::string m_writeError;
};

} // namespace relayhud::net
