#include "relayhud/ui/logs/log_copy.h"

#include "relayhud/logs/line_decoder.h"

namespace relayhud::ui {

namespace {

constexpr std::size_t kBatchLines = 4096;

QString decodedText(const LogLine& line)
{
    const DecodedLine decoded = decodeLine(line.bytes);
    return QString::fromUtf8(decoded.text.data(), static_cast<qsizetype>(decoded.text.size()));
}

void appendLine(QString& out, const LogLine& line, const LogSelection& selection)
{
    const auto part = selection.partOf(line.number);
    if (!part)
        return;
    const QString text = decodedText(line);
    if (part->whole || selection.mode() == LogSelection::Mode::Lines) {
        out += text;
        if (selection.mode() == LogSelection::Mode::Lines || line.number < selection.lastLine())
            out += u'\n';
        return;
    }
    const int end = part->end < 0 ? static_cast<int>(text.size()) : part->end;
    out += text.mid(part->start, std::max(0, end - part->start));
    if (part->end < 0)
        out += u'\n'; // the selection goes on past this line's end
}

} // namespace

Result<std::uint64_t> selectionBytes(const LogFile& log, const LogSelection& selection)
{
    if (selection.isEmpty())
        return std::uint64_t{0};
    auto first = log.line(selection.firstLine(), 1);
    if (!first)
        return first.error();
    auto last = log.line(selection.lastLine(), 1);
    if (!last)
        return last.error();
    return last->offset + last->length - first->offset;
}

Result<QString> selectionText(const LogFile& log, const LogSelection& selection,
                              std::uint64_t capBytes)
{
    QString out;
    if (selection.isEmpty())
        return out;
    const std::uint64_t lastLine = selection.lastLine().value;
    std::uint64_t read = 0;
    for (std::uint64_t at = selection.firstLine().value; at <= lastLine;) {
        const auto count =
            static_cast<std::size_t>(std::min<std::uint64_t>(kBatchLines, lastLine - at + 1));
        auto lines = log.lines(LineNumber{at}, count, static_cast<std::size_t>(capBytes + 1));
        if (!lines)
            return lines.error();
        if (lines->empty())
            break;
        for (const LogLine& line : *lines) {
            read += line.length + 1;
            if (read > capBytes + 1 || line.truncated())
                return makeError("the selection is larger than the copy limit");
            appendLine(out, line, selection);
        }
        at += lines->size();
    }
    return out;
}

} // namespace relayhud::ui
