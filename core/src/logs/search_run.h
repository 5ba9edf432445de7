#pragma once
// One search over one log: a coordinator thread that splits the indexed part
// of the file at index checkpoints, scans the pieces on worker threads and
// appends their matches in file order; it follows the index while the log
// is still being indexed.
#include "logs/line_index.h"
#include "logs/search_pattern.h"
#include "logs/search_scan.h"
#include "relayhud/logs/log_file.h"
#include "relayhud/logs/log_search.h"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace relayhud::logs {

// What a scan over the indexed log is for: matches of a pattern for the
// search, or candidate lines (with their text) for the landmark scanner.
struct ScanJob {
    std::shared_ptr<const LogFile> log;
    std::shared_ptr<const CompiledPattern> pattern;
    unsigned threads = 2;
    bool keepText = false;
    // Called in file order from a scan thread.
    std::function<void(ScanSink& piece, std::uint64_t searchedBytes, std::uint64_t totalBytes)>
        onPiece;
    // Nobody waits for it (the landmark scan): its threads run at a lower
    // priority (thread_priority.h).
    bool background = false;
};

// Scans [from, end of the index) and keeps following the index until it is
// complete; returns where it stopped (a line start) and an error if a read
// failed. Stops early when `cancelled` is set.
Result<Checkpoint> scanIndexed(const ScanJob& job, Checkpoint from,
                               const std::atomic<bool>& cancelled);

class SearchRun {
public:
    SearchRun(Ticket ticket, ScanJob job, LogSearch::UpdateFn onUpdate);
    ~SearchRun();

    void start(Checkpoint from);
    void cancel();
    void wait() const;

    Ticket ticket() const { return m_ticket; }
    bool running() const;
    Checkpoint stoppedAt() const;
    // The indexed size when the run stopped: extend() only when it grew.
    std::uint64_t searchedBytes() const;
    const ScanJob& job() const { return m_job; }

    std::uint64_t matchCount() const;
    std::vector<LineNumber> matches() const;
    std::optional<LineNumber> next(LineNumber from) const;
    std::optional<LineNumber> previous(LineNumber from) const;

private:
    void run(Checkpoint from);
    void append(ScanSink& piece, std::uint64_t searchedBytes, std::uint64_t totalBytes);

    Ticket m_ticket;
    ScanJob m_job;
    LogSearch::UpdateFn m_onUpdate;
    std::atomic<bool> m_cancelled{false};

    mutable std::mutex m_mutex;
    mutable std::condition_variable m_doneChanged;
    bool m_running = false;
    Checkpoint m_stoppedAt;
    std::uint64_t m_searchedBytes = 0;
    std::vector<LineNumber> m_matches;
    std::vector<LineNumber> m_fresh; // scratch for one update

    std::thread m_thread;
};

} // namespace relayhud::logs
