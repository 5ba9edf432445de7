#include "logs/search_run.h"

#include "logs/log_data.h"
#include "logs/ordered_work.h"
#include "logs/thread_priority.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace relayhud::logs {
namespace {

// How often a scan that has caught up with the indexer looks again.
constexpr auto kIndexPoll = std::chrono::milliseconds(2);

struct Piece {
    ScanSink sink;
    std::optional<Error> error;
};

} // namespace

Result<Checkpoint> scanIndexed(const ScanJob& job, Checkpoint from,
                               const std::atomic<bool>& cancelled)
{
    const LogData& data = job.log->data();
    const unsigned threads = std::max(1U, job.threads);
    std::vector<BlockScanner> scanners;
    for (unsigned t = 0; t < threads; ++t)
        scanners.emplace_back(*job.pattern, data);
    Checkpoint pos = from;
    for (;;) {
        // Asked before the cuts: when indexing was over then, they cover all.
        const bool stillIndexing = data.indexing();
        const auto cuts = data.index().cutPoints(pos, BlockScanner::kWindowBytes);
        const std::uint64_t total = std::max(data.progress().totalBytes, cuts.back().offset);
        std::optional<Error> failure;
        runOrdered<Piece>(
            cuts.size() - 1, threads, cancelled,
            [&](std::size_t i, unsigned t) {
                if (job.background)
                    lowerThreadPriority();
                Piece piece;
                piece.sink.keepText = job.keepText;
                if (auto r = scanners[t].scan(cuts[i], cuts[i + 1], cancelled, piece.sink); !r)
                    piece.error = r.error();
                return piece;
            },
            [&](std::size_t i, Piece&& piece) {
                if (piece.error && !failure)
                    failure = piece.error;
                if (!failure && !cancelled) {
                    job.onPiece(piece.sink, cuts[i + 1].offset, total);
                    pos = cuts[i + 1];
                }
            });
        if (failure)
            return *failure;
        if (cancelled || !stillIndexing)
            return pos;
        std::this_thread::sleep_for(kIndexPoll);
    }
}

SearchRun::SearchRun(Ticket ticket, ScanJob job, LogSearch::UpdateFn onUpdate)
    : m_ticket(ticket), m_job(std::move(job)), m_onUpdate(std::move(onUpdate))
{
    m_job.onPiece = [this](ScanSink& piece, std::uint64_t searched, std::uint64_t total) {
        append(piece, searched, total);
    };
}

SearchRun::~SearchRun()
{
    cancel();
    if (m_thread.joinable())
        m_thread.join();
}

void SearchRun::start(Checkpoint from)
{
    if (m_thread.joinable())
        m_thread.join(); // a finished run being extended
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = false;
        m_running = true;
    }
    m_thread = std::thread([this, from] { run(from); });
}

void SearchRun::cancel() { m_cancelled = true; }

void SearchRun::wait() const
{
    std::unique_lock lock(m_mutex);
    m_doneChanged.wait(lock, [&] { return !m_running; });
}

bool SearchRun::running() const
{
    std::lock_guard lock(m_mutex);
    return m_running;
}

Checkpoint SearchRun::stoppedAt() const
{
    std::lock_guard lock(m_mutex);
    return m_stoppedAt;
}

std::uint64_t SearchRun::searchedBytes() const
{
    std::lock_guard lock(m_mutex);
    return m_searchedBytes;
}

void SearchRun::append(ScanSink& piece, std::uint64_t searched, std::uint64_t total)
{
    std::uint64_t count = 0;
    {
        std::lock_guard lock(m_mutex);
        m_fresh.clear();
        for (std::uint64_t line : piece.lines) {
            // A resumed search sees the old last line again when it grew.
            if (!m_matches.empty() && line <= m_matches.back().value)
                continue;
            m_matches.push_back(LineNumber{line});
            m_fresh.push_back(LineNumber{line});
        }
        count = m_matches.size();
    }
    if (m_onUpdate)
        m_onUpdate({m_ticket, m_fresh, count, searched, total, false, false, {}});
}

void SearchRun::run(Checkpoint from)
{
    const auto stopped = scanIndexed(m_job, from, m_cancelled);
    const IndexExtent e = m_job.log->data().index().extent();
    SearchUpdate last{m_ticket, {}, 0, e.coveredBytes, e.coveredBytes, false, m_cancelled, {}};
    {
        std::lock_guard lock(m_mutex);
        // Resume before the unterminated last line: it may still grow.
        const Checkpoint complete{e.terminators, e.tailStart};
        m_searchedBytes = e.coveredBytes;
        m_stoppedAt = stopped && stopped->offset > complete.offset ? complete
                      : stopped                                    ? *stopped
                                                                   : m_stoppedAt;
        last.matchCount = m_matches.size();
        last.finished = stopped.ok() && !m_cancelled;
        if (!stopped)
            last.error = stopped.message();
    }
    if (m_onUpdate)
        m_onUpdate(last);
    std::lock_guard lock(m_mutex);
    m_running = false;
    m_doneChanged.notify_all();
}

std::uint64_t SearchRun::matchCount() const
{
    std::lock_guard lock(m_mutex);
    return m_matches.size();
}

std::vector<LineNumber> SearchRun::matches() const
{
    std::lock_guard lock(m_mutex);
    return m_matches;
}

std::optional<LineNumber> SearchRun::next(LineNumber from) const
{
    std::lock_guard lock(m_mutex);
    const auto it = std::upper_bound(m_matches.begin(), m_matches.end(), from);
    return it == m_matches.end() ? std::nullopt : std::optional<LineNumber>(*it);
}

std::optional<LineNumber> SearchRun::previous(LineNumber from) const
{
    std::lock_guard lock(m_mutex);
    const auto it = std::lower_bound(m_matches.begin(), m_matches.end(), from);
    return it == m_matches.begin() ? std::nullopt : std::optional<LineNumber>(*(it - 1));
}

} // namespace relayhud::logs
