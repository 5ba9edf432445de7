// The indexing passes of LogData: chunks of the file are scanned on up to
// options.indexThreads threads and published to the index in file order.
#include "logs/line_scan.h"
#include "logs/log_data.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <vector>

#include <sys/stat.h>

namespace relayhud::logs {
namespace {

// A multiple of kCellBytes; small enough to stay in L2 between the read and
// the scan, large enough that publishing (a lock) is rare.
constexpr std::uint64_t kChunkBytes = 512 * 1024;
constexpr auto kReportEvery = std::chrono::milliseconds(40);

struct Pass {
    std::uint64_t from = 0;
    std::uint64_t size = 0;
    std::atomic<std::uint64_t> nextChunk{0};
    std::atomic<bool> failed{false};
    std::mutex publishMutex;
    std::map<std::uint64_t, ChunkIndex> pending;
    std::uint64_t nextToPublish = 0;
    std::string error;
    std::chrono::steady_clock::time_point lastReport{};
};

std::uint64_t fileSize(const UniqueFd& fd)
{
    struct stat info {};
    return ::fstat(fd.get(), &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
}

} // namespace

void LogData::startIndexing(bool reset)
{
    std::lock_guard lock(m_stateMutex);
    m_passRequested = true;
    m_resetRequested = m_resetRequested || reset;
    m_stateChanged.notify_all();
}

bool LogData::indexing() const
{
    std::lock_guard lock(m_stateMutex);
    return m_passRequested || m_passRunning;
}

void LogData::waitForIndex() const
{
    std::unique_lock lock(m_stateMutex);
    m_stateChanged.wait(lock, [&] { return !m_passRequested && !m_passRunning; });
}

IndexProgress LogData::progress() const
{
    std::lock_guard lock(m_stateMutex);
    return m_progress;
}

void LogData::report(const IndexProgress& progress)
{
    {
        std::lock_guard lock(m_stateMutex);
        m_progress = progress;
    }
    if (m_options.onProgress)
        m_options.onProgress(progress);
}

void LogData::run(std::stop_token stop)
{
    std::unique_lock lock(m_stateMutex);
    for (;;) {
        m_stateChanged.wait(lock, stop, [&] { return m_passRequested; });
        if (stop.stop_requested())
            return;
        const bool reset = m_resetRequested;
        m_passRequested = m_resetRequested = false;
        m_passRunning = true;
        lock.unlock();
        indexPass(stop, reset);
        lock.lock();
        m_passRunning = false;
        m_stateChanged.notify_all();
    }
}

namespace {

// Publishes the chunks that are next in file order.
void deliver(Pass& pass, LineIndex& index, std::uint64_t k, ChunkIndex chunk,
             const std::function<void(const IndexProgress&)>& report)
{
    std::lock_guard lock(pass.publishMutex);
    pass.pending.emplace(k, std::move(chunk));
    bool published = false;
    bool final = false;
    for (auto it = pass.pending.begin();
         it != pass.pending.end() && it->first == pass.nextToPublish;
         it = pass.pending.erase(it), ++pass.nextToPublish) {
        index.publish(it->second);
        published = true;
        final = it->second.final;
    }
    const auto now = std::chrono::steady_clock::now();
    if (!published || final || now - pass.lastReport < kReportEvery)
        return;
    pass.lastReport = now;
    const IndexExtent e = index.extent();
    report({e.coveredBytes, pass.size, e.lineCount(), false, false, {}});
}

// One thread's share of a pass: claims chunks until none is left.
void scanChunks(Pass& pass, const LogData& data, LineIndex& index, std::stop_token stop,
                const std::function<void(const IndexProgress&)>& report)
{
    std::vector<char> buffer(kChunkBytes + 2);
    ChunkIndex chunk;
    while (!stop.stop_requested() && !pass.failed) {
        const std::uint64_t k = pass.nextChunk.fetch_add(1);
        const std::uint64_t offset = pass.from + k * kChunkBytes;
        if (offset >= pass.size)
            return;
        const std::uint64_t length = std::min(kChunkBytes, pass.size - offset);
        const std::uint64_t before = offset > 0 ? 1 : 0;
        const std::uint64_t after = offset + length < pass.size ? 1 : 0;
        auto read = data.readExactly(offset - before, buffer.data(),
                                     static_cast<std::size_t>(before + length + after));
        if (!read) {
            std::lock_guard lock(pass.publishMutex);
            pass.error = read.message();
            pass.failed = true;
            return;
        }
        const char* bytes = buffer.data() + before;
        const bool startsLine =
            before == 0 || bytes[-1] == '\n' || (bytes[-1] == '\r' && bytes[0] != '\n');
        const int next = after ? static_cast<unsigned char>(bytes[length]) : kNoByte;
        indexChunk(bytes, offset, length, startsLine, next, chunk);
        chunk.final = offset + length >= pass.size;
        deliver(pass, index, k, std::move(chunk), report);
        chunk = ChunkIndex{};
    }
}

} // namespace

void LogData::indexPass(std::stop_token stop, bool reset)
{
    const auto reporter = [this](const IndexProgress& p) { report(p); };
    SharedFd file = fd();
    Pass pass;
    pass.size = fileSize(*file);
    IndexExtent extent = m_index.extent();
    if (reset || pass.size < extent.coveredBytes) {
        m_index.clear();
        extent = {};
        report({0, pass.size, 0, false, true, {}});
    }
    if (extent.atEnd && pass.size == extent.coveredBytes) {
        report({extent.coveredBytes, pass.size, extent.lineCount(), true, false, {}});
        return;
    }
    pass.from = extent.coveredBytes == 0 ? 0 : m_index.lastChunkOffset();
    m_index.reserveFor(pass.size);
    if (pass.size == 0) {
        m_index.publish(ChunkIndex{0, 0, 0, {}, std::nullopt, true});
    } else {
        const std::uint64_t chunks = (pass.size - pass.from + kChunkBytes - 1) / kChunkBytes;
        const std::uint64_t threadCount =
            std::max<std::uint64_t>(1, std::min<std::uint64_t>(m_options.indexThreads, chunks));
        std::vector<std::jthread> threads;
        for (std::uint64_t i = 1; i < threadCount; ++i)
            threads.emplace_back([&] { scanChunks(pass, *this, m_index, stop, reporter); });
        scanChunks(pass, *this, m_index, stop, reporter);
    }
    const IndexExtent done = m_index.extent();
    if (pass.failed) {
        report({done.coveredBytes, pass.size, done.lineCount(), false, false, pass.error});
        return;
    }
    if (stop.stop_requested())
        return;
    rememberTail();
    report({done.coveredBytes, pass.size, done.lineCount(), true, false, {}});
}

} // namespace relayhud::logs
