#include "relayhud/logs/log_file.h"

#include "logs/gz_cache.h"
#include "logs/log_data.h"
#include "relayhud/util/paths.h"
#include "relayhud/util/read_file.h"

#include <cerrno>

#include <fcntl.h>
#include <sys/stat.h>

namespace relayhud {

using namespace logs;

Result<std::shared_ptr<LogFile>> LogFile::open(const std::string& path, LogOpenOptions options)
{
    auto opened = openRegularFile(path, "a job log");
    if (!opened)
        return opened.error();
    UniqueFd fd = std::move(opened->fd);
    if (options.maxLineBytes == 0)
        options.maxLineBytes = LogOpenOptions{}.maxLineBytes;
    std::string dataPath = path;
    const bool compressed = looksGzipped(fd.get());
    if (compressed) {
        if (options.cacheDir.empty())
            options.cacheDir = defaultCacheDir() + "/logs";
        auto copy = decompressedCopy(path, fd.get(), options.cacheDir, options.cacheCapBytes);
        if (!copy)
            return copy.error();
        dataPath = *copy;
        fd = UniqueFd(::open(dataPath.c_str(), O_RDONLY | O_CLOEXEC));
        if (!fd.valid())
            return makeError("cannot open " + dataPath + ": " + artifacts::errnoText(errno));
    }
    auto data = std::make_unique<LogData>(dataPath, compressed, std::move(fd), std::move(options));
    data->startIndexing(false);
    return std::shared_ptr<LogFile>(new LogFile(path, std::move(data)));
}

LogFile::LogFile(std::string path, std::unique_ptr<LogData> data)
    : m_path(std::move(path)), m_data(std::move(data))
{
}

LogFile::~LogFile() = default;

const std::string& LogFile::dataPath() const { return m_data->dataPath(); }
bool LogFile::wasCompressed() const { return m_data->compressed(); }

std::uint64_t LogFile::lineCount() const { return m_data->index().extent().lineCount(); }
std::uint64_t LogFile::sizeBytes() const { return m_data->index().extent().coveredBytes; }
IndexProgress LogFile::progress() const { return m_data->progress(); }
bool LogFile::indexing() const { return m_data->indexing(); }
void LogFile::waitForIndex() const { m_data->waitForIndex(); }
std::size_t LogFile::indexMemoryBytes() const { return m_data->index().memoryBytes(); }
RefreshResult LogFile::refresh() { return m_data->refresh(m_path); }

Result<std::vector<LogLine>> LogFile::lines(LineNumber first, std::size_t count,
                                            std::size_t maxLineBytes) const
{
    const std::size_t cap = maxLineBytes ? maxLineBytes : m_data->options().maxLineBytes;
    return m_data->lines(first.value, count, cap);
}

Result<LogLine> LogFile::line(LineNumber number, std::size_t maxLineBytes) const
{
    auto one = lines(number, 1, maxLineBytes);
    if (!one)
        return one.error();
    if (one->empty())
        return makeError("line " + std::to_string(number.shown()) + " is not indexed (the log has "
                         + std::to_string(lineCount()) + " lines so far)");
    return std::move(one->front());
}

} // namespace relayhud
