// Reading lines for display: a binary search in the index, one read of at
// most a cell to find line starts, and one read per line, capped.
#include "logs/line_scan.h"
#include "logs/log_data.h"
#include "relayhud/util/utf8.h"

#include <algorithm>
#include <cerrno>

#include <unistd.h>

namespace relayhud::logs {
namespace {

Error changedUnderUs()
{
    return makeError("the log file changed while it was being read (truncated or rewritten); "
                     "refresh to index it again");
}

// Line starts inside a block, from the bytes at its start.
std::vector<std::uint64_t> blockStarts(const Block& b, const std::string& head)
{
    std::vector<std::uint64_t> starts{b.start};
    const char* begin = head.data();
    const char* end = begin + head.size();
    const std::uint64_t limit = std::min(b.end, b.start + kCellBytes);
    for (const char* p = begin;;) {
        const char* t = terminatorFrom(p, end, kNoByte);
        const std::uint64_t next = b.start + static_cast<std::uint64_t>(t - begin) + 1;
        if (t >= end || next >= limit)
            return starts;
        starts.push_back(next);
        p = t + 1;
    }
}

} // namespace

Result<std::size_t> LogData::readAt(std::uint64_t offset, char* buffer, std::size_t n) const
{
    SharedFd file = fd();
    std::size_t done = 0;
    while (done < n) {
        const ssize_t got =
            ::pread(file->get(), buffer + done, n - done, static_cast<off_t>(offset + done));
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            return makeError("cannot read " + m_dataPath + ": " + artifacts::errnoText(errno));
        if (got == 0)
            break;
        done += static_cast<std::size_t>(got);
    }
    return done;
}

Result<void> LogData::readExactly(std::uint64_t offset, char* buffer, std::size_t n) const
{
    auto got = readAt(offset, buffer, n);
    if (!got)
        return got.error();
    if (*got < n)
        return changedUnderUs();
    return {};
}

namespace {

// One line of a block, given where it starts and where the next one does.
Result<LogLine> readLine(const LogData& data, const std::string& head, std::uint64_t headStart,
                         std::uint64_t start, std::uint64_t next, bool terminated, std::size_t cap)
{
    // Up to two bytes past the content tell the terminator's length.
    const std::uint64_t span = next - start;
    const std::uint64_t want = std::min<std::uint64_t>(span, cap + 2);
    std::string bytes(static_cast<std::size_t>(want), '\0');
    const std::uint64_t headEnd = headStart + head.size();
    if (start + want <= headEnd) {
        bytes.assign(head, static_cast<std::size_t>(start - headStart), bytes.size());
    } else if (auto r = data.readExactly(start, bytes.data(), bytes.size()); !r) {
        return r.error();
    }
    std::uint64_t length = span;
    if (terminated) {
        char tail[2] = {0, 0};
        if (span <= want) {
            tail[0] = span >= 2 ? bytes[bytes.size() - 2] : '\0';
            tail[1] = bytes.back();
        } else if (auto r = data.readExactly(next - 2, tail, 2); !r) {
            return r.error();
        }
        length -= (tail[1] == '\n' && tail[0] == '\r' && span >= 2) ? 2 : 1;
    }
    bytes.resize(static_cast<std::size_t>(std::min<std::uint64_t>(length, bytes.size())));
    if (bytes.size() > cap)
        bytes.resize(utf8Prefix(bytes, cap).size());
    return LogLine{{}, start, length, std::move(bytes)};
}

} // namespace

Result<std::vector<LogLine>> LogData::lines(std::uint64_t first, std::size_t count,
                                            std::size_t cap) const
{
    std::vector<LogLine> out;
    out.reserve(std::min<std::size_t>(count, 4096));
    std::uint64_t line = first;
    const std::uint64_t end = first + count;
    while (line < end) {
        const auto b = m_index.block(line);
        if (!b)
            break;
        std::string head(static_cast<std::size_t>(std::min(b->end - b->start, kCellBytes)), '\0');
        if (auto r = readExactly(b->start, head.data(), head.size()); !r)
            return r.error();
        const auto starts = blockStarts(*b, head);
        if (starts.size() != b->endLine - b->firstLine)
            return changedUnderUs();
        for (; line < end && line < b->endLine; ++line) {
            const std::size_t k = static_cast<std::size_t>(line - b->firstLine);
            const bool last = k + 1 == starts.size();
            const std::uint64_t next = last ? b->end : starts[k + 1];
            auto l =
                readLine(*this, head, b->start, starts[k], next, !last || b->lastTerminated, cap);
            if (!l)
                return l.error();
            l->number = LineNumber{line};
            out.push_back(std::move(*l));
        }
    }
    return out;
}

} // namespace relayhud::logs
