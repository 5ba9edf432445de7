#include "logs/log_data.h"

#include "relayhud/util/read_file.h"

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>

namespace relayhud::logs {
namespace {

// Enough to tell a rewrite from an append in practice, cheap to re-read.
constexpr std::uint64_t kTailSampleBytes = 256;

bool sameFile(const struct stat& a, const struct stat& b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

} // namespace

LogData::LogData(std::string dataPath, bool compressed, UniqueFd fd, LogOpenOptions options)
    : m_dataPath(std::move(dataPath)), m_compressed(compressed), m_options(std::move(options)),
      m_fd(std::make_shared<const UniqueFd>(std::move(fd))),
      m_worker([this](std::stop_token stop) { run(stop); })
{
}

LogData::~LogData()
{
    m_worker.request_stop();
    m_worker.join();
}

SharedFd LogData::fd() const
{
    std::lock_guard lock(m_fdMutex);
    return m_fd;
}

void LogData::rememberTail()
{
    const std::uint64_t end = m_index.extent().coveredBytes;
    const std::uint64_t from = end > kTailSampleBytes ? end - kTailSampleBytes : 0;
    std::string sample(static_cast<std::size_t>(end - from), '\0');
    if (!readExactly(from, sample.data(), sample.size()))
        sample.clear();
    std::lock_guard lock(m_stateMutex);
    m_tailSample = std::move(sample);
    m_tailSampleOffset = from;
}

bool LogData::tailStillMatches() const
{
    std::string expected;
    std::uint64_t from = 0;
    {
        std::lock_guard lock(m_stateMutex);
        expected = m_tailSample;
        from = m_tailSampleOffset;
    }
    std::string now(expected.size(), '\0');
    return readExactly(from, now.data(), now.size()).ok() && now == expected;
}

bool LogData::reopen(const std::string& path)
{
    // The path may now name a FIFO: refused, never waited on.
    auto file = openRegularFile(path, "a job log");
    if (!file)
        return false;
    std::lock_guard lock(m_fdMutex);
    m_fd = std::make_shared<const UniqueFd>(std::move(file->fd));
    return true;
}

RefreshResult LogData::refresh(const std::string& path)
{
    if (m_compressed)
        return RefreshResult::NotFollowable;
    struct stat byPath {};
    struct stat byFd {};
    if (::stat(path.c_str(), &byPath) != 0)
        return RefreshResult::Deleted;
    if (::fstat(fd()->get(), &byFd) != 0)
        return RefreshResult::Unchanged;
    if (!sameFile(byPath, byFd)) {
        if (!reopen(path))
            return RefreshResult::Deleted;
        startIndexing(true);
        return RefreshResult::Replaced;
    }
    const IndexExtent e = m_index.extent();
    const auto size = static_cast<std::uint64_t>(byFd.st_size);
    if (size < e.coveredBytes) {
        startIndexing(true);
        return RefreshResult::Truncated;
    }
    // A pass that stopped on a read error (the file shrank under it) left an
    // index that cannot be trusted to continue from.
    if (!indexing() && (!progress().error.empty() || !tailStillMatches())) {
        startIndexing(true);
        return RefreshResult::Replaced;
    }
    if (size == e.coveredBytes)
        return RefreshResult::Unchanged;
    startIndexing(false);
    return RefreshResult::Grown;
}

} // namespace relayhud::logs
