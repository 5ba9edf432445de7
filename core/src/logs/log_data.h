#pragma once
// What a LogFile holds: the open file, its line index and the indexer. The
// search and the landmark scanner read through it.
#include "logs/line_index.h"
#include "relayhud/logs/log_file.h"
#include "relayhud/util/file_ops.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <stop_token>
#include <string>
#include <thread>

#include <sys/types.h>

namespace relayhud::logs {

using artifacts::UniqueFd;

// The file descriptor, shared so a refresh that reopens a replaced file never
// pulls it from under a reader.
using SharedFd = std::shared_ptr<const UniqueFd>;

class LogData {
public:
    LogData(std::string dataPath, bool compressed, UniqueFd fd, LogOpenOptions options);
    ~LogData();

    const std::string& dataPath() const { return m_dataPath; }
    bool compressed() const { return m_compressed; }
    const LogOpenOptions& options() const { return m_options; }
    LineIndex& index() { return m_index; }
    const LineIndex& index() const { return m_index; }

    SharedFd fd() const;
    // Reads up to n bytes at offset; fewer only at the end of the file.
    Result<std::size_t> readAt(std::uint64_t offset, char* buffer, std::size_t n) const;
    // Reads exactly n bytes or says the file shrank.
    Result<void> readExactly(std::uint64_t offset, char* buffer, std::size_t n) const;

    Result<std::vector<LogLine>> lines(std::uint64_t first, std::size_t count,
                                       std::size_t cap) const;

    // Indexing. startIndexing() (re)starts a pass over what the file holds now;
    // reset drops the index first.
    void startIndexing(bool reset);
    bool indexing() const;
    void waitForIndex() const;
    IndexProgress progress() const;
    RefreshResult refresh(const std::string& path);

private:
    void run(std::stop_token stop);
    void indexPass(std::stop_token stop, bool reset);
    void report(const IndexProgress& progress);
    void rememberTail();
    bool tailStillMatches() const;
    bool reopen(const std::string& path);

    std::string m_dataPath;
    bool m_compressed = false;
    LogOpenOptions m_options;
    LineIndex m_index;

    mutable std::mutex m_fdMutex;
    SharedFd m_fd;

    mutable std::mutex m_stateMutex;
    mutable std::condition_variable_any m_stateChanged;
    bool m_passRequested = false;
    bool m_resetRequested = false;
    bool m_passRunning = false;
    IndexProgress m_progress;
    std::string m_tailSample; // the bytes before the indexed end, to spot a rewrite
    std::uint64_t m_tailSampleOffset = 0;

    std::jthread m_worker; // last member: started once the rest exists
};

} // namespace relayhud::logs
