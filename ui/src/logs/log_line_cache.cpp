#include "relayhud/ui/logs/log_line_cache.h"

namespace relayhud::ui {

LogLineCache::LogLineCache(std::size_t maxLines, std::size_t maxChars)
    : m_maxLines(maxLines), m_maxChars(maxChars)
{
}

void LogLineCache::setFile(std::shared_ptr<const LogFile> file)
{
    m_file = std::move(file);
    clear();
}

void LogLineCache::clear()
{
    m_lines.clear();
    m_byNumber.clear();
    m_chars = 0;
    m_widest = 0;
}

DisplayLine* LogLineCache::find(LineNumber line)
{
    const auto it = m_byNumber.find(line.value);
    return it == m_byNumber.end() ? nullptr : &*it->second;
}

const DisplayLine* LogLineCache::find(LineNumber line) const
{
    const auto it = m_byNumber.find(line.value);
    return it == m_byNumber.end() ? nullptr : &*it->second;
}

std::string LogLineCache::load(std::span<const LineNumber> lines)
{
    std::string error;
    std::size_t i = 0;
    while (i < lines.size()) {
        const auto hit = m_byNumber.find(lines[i].value);
        if (hit != m_byNumber.end()) {
            m_lines.splice(m_lines.begin(), m_lines, hit->second);
            ++i;
            continue;
        }
        // A run of adjacent missing lines: one read.
        std::size_t n = 1;
        while (i + n < lines.size() && lines[i + n].value == lines[i].value + n
               && !m_byNumber.count(lines[i + n].value))
            ++n;
        const std::string failed = readRun(lines[i], n);
        if (error.empty())
            error = failed;
        i += n;
    }
    // Lines of this load are at the front: eviction takes older ones first,
    // and never one of them.
    evict();
    return error;
}

std::string LogLineCache::readRun(LineNumber first, std::size_t count)
{
    if (!m_file)
        return "no log is open";
    ++m_reads;
    auto read = m_file->lines(first, count);
    if (!read)
        return read.message();
    for (const LogLine& line : *read)
        insert(DisplayLine::fromLogLine(line));
    return {};
}

void LogLineCache::insert(DisplayLine line)
{
    m_widest = std::max(m_widest, line.paintedColumns());
    m_chars += line.memoryChars();
    const std::uint64_t number = line.number.value;
    m_lines.push_front(std::move(line));
    m_byNumber[number] = m_lines.begin();
}

void LogLineCache::evict()
{
    // Keep at least a screenful (what was just loaded) whatever its size.
    constexpr std::size_t kKeep = 512;
    while (m_lines.size() > kKeep && (m_lines.size() > m_maxLines || m_chars > m_maxChars)) {
        const DisplayLine& last = m_lines.back();
        m_chars -= last.memoryChars();
        m_byNumber.erase(last.number.value);
        m_lines.pop_back();
    }
}

} // namespace relayhud::ui
