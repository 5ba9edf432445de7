#pragma once
// A log file opened for viewing: the engine under the log view and
// `relayhud-cli grep`. Opens gigabytes at once: lines are indexed on worker
// threads and every line indexed so far can be read while indexing goes on.
//
// How a view uses it:
//   1. LogFile::open(path, options) on a worker (it returns at once for a
//      plain file; a .gz is decompressed into options.cacheDir first, once).
//      Indexing starts right away; options.onProgress reports it from the
//      indexing threads (post it to your own thread; keep it short).
//   2. lineCount() is a thread-safe snapshot: size the scroll bar from it and
//      update it on each progress report.
//   3. lines(first, count) reads the visible lines (any thread; a few preads,
//      bounded by the screen, never by the file or a line's length): each
//      LogLine holds the line's bytes up to a cap, with its full length.
//      decodeLine() (line_decoder.h) turns them into text and colour spans.
//   4. Search, landmarks and groups run on their own workers over the same
//      LogFile (log_search.h, log_structure.h).
//   5. Tail mode: call refresh() from a timer (it costs a stat and a small
//      read); it says what changed and indexes appended bytes. Then
//      LogSearch::extend() and LogStructure::extend() go on over the new
//      lines. A truncated or replaced file is indexed again from the start:
//      drop everything shown, restart searches and the structure scan.
//
// Lines end at "\n", "\r\n" or a lone "\r", as in GitHub's own log viewer. The
// file is read with pread(), never mapped, so a file truncated while open
// gives a clear error instead of a SIGBUS; a file deleted while open stays
// readable (its data lives until closed).
#include "relayhud/logs/line_number.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace relayhud {

namespace logs {
class LogData;
}

struct IndexProgress {
    std::uint64_t indexedBytes = 0;
    std::uint64_t totalBytes = 0;
    std::uint64_t lineCount = 0; // readable now
    bool finished = false;       // everything up to totalBytes is indexed
    // The index was dropped (file truncated or replaced): forget every line
    // number held so far; lineCount starts again from 0.
    bool reset = false;
    std::string error; // indexing stopped: why (the file shrank, a read failed)
};

struct LogOpenOptions {
    // Where a .gz is decompressed (once; keyed by path, size and mtime). Empty:
    // defaultCacheDir() + "/logs".
    std::string cacheDir;
    // The decompressed copies in cacheDir together stay under this: the least
    // recently opened go first (never the one being opened).
    std::uint64_t cacheCapBytes = 8ull << 30;
    // lines() cuts a line after this many bytes (at a UTF-8 boundary) and
    // marks it truncated: a 100 MB line never reaches a paint call whole.
    std::size_t maxLineBytes = 64 * 1024;
    unsigned indexThreads = 2;
    std::function<void(const IndexProgress&)> onProgress;
};

struct LogLine {
    LineNumber number;
    std::uint64_t offset = 0; // of the line's first byte in the (decompressed) file
    std::uint64_t length = 0; // of the whole content, terminator excluded
    std::string bytes;        // the content, cut at the cap
    bool truncated() const { return bytes.size() < length; }
};

enum class RefreshResult {
    Unchanged,
    Grown,         // appended bytes are being indexed
    Truncated,     // shorter than what was indexed: indexed again from the start
    Replaced,      // another file at the path, or rewritten in place: indexed again
    Deleted,       // the path is gone; what was read stays readable
    NotFollowable, // a decompressed .gz: there is nothing to follow
};

class LogFile {
public:
    static Result<std::shared_ptr<LogFile>> open(const std::string& path,
                                                 LogOpenOptions options = {});
    ~LogFile();
    LogFile(const LogFile&) = delete;
    LogFile& operator=(const LogFile&) = delete;

    const std::string& path() const { return m_path; }
    // The plain file read: `path`, or the decompressed copy of a .gz.
    const std::string& dataPath() const;
    bool wasCompressed() const;

    std::uint64_t lineCount() const;
    std::uint64_t sizeBytes() const; // as indexed so far
    IndexProgress progress() const;
    bool indexing() const;
    // Blocks until no indexing is running or pending (CLI, tests).
    void waitForIndex() const;

    // Up to `count` lines from `first`; fewer at the end of what is indexed.
    // maxLineBytes 0: the open options' cap. An error says why (the file was
    // truncated under us: refresh()).
    Result<std::vector<LogLine>> lines(LineNumber first, std::size_t count,
                                       std::size_t maxLineBytes = 0) const;
    Result<LogLine> line(LineNumber number, std::size_t maxLineBytes = 0) const;

    RefreshResult refresh();

    // Bytes the line index takes in memory.
    std::size_t indexMemoryBytes() const;

    // Engine-internal: the search and the landmark scanner read through it.
    const logs::LogData& data() const { return *m_data; }

private:
    LogFile(std::string path, std::unique_ptr<logs::LogData> data);

    std::string m_path;
    std::unique_ptr<logs::LogData> m_data;
};

} // namespace relayhud
