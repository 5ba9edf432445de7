#include "config_text.h"

#include "relayhud/config/text_diff.h"

#include <algorithm>

namespace relayhud::config {

ConfigText::ConfigText(std::string_view text) : m_lines(splitLines(text))
{
    for (const std::string_view line : m_lines) {
        if (!line.empty() && line.back() == '\n') {
            m_eol = line.size() >= 2 && line[line.size() - 2] == '\r' ? "\r\n" : "\n";
            break;
        }
    }
}

std::string_view ConfigText::terminator(std::size_t line) const
{
    const std::string_view whole = m_lines.at(line - 1);
    if (whole.size() >= 2 && whole.substr(whole.size() - 2) == "\r\n")
        return whole.substr(whole.size() - 2);
    if (!whole.empty() && whole.back() == '\n')
        return whole.substr(whole.size() - 1);
    return {};
}

std::string_view ConfigText::body(std::size_t line) const
{
    const std::string_view whole = m_lines.at(line - 1);
    return whole.substr(0, whole.size() - terminator(line).size());
}

std::size_t ConfigText::indent(std::size_t line) const
{
    const std::string_view text = body(line);
    const std::size_t first = text.find_first_not_of(' ');
    return first == std::string_view::npos ? text.size() : first;
}

bool ConfigText::isContent(std::size_t line) const
{
    const std::string_view text = body(line);
    const std::size_t first = text.find_first_not_of(" \t");
    return first != std::string_view::npos && text[first] != '#';
}

bool ConfigText::endsWithNewline() const
{
    return m_lines.empty() || !terminator(m_lines.size()).empty();
}

std::size_t ConfigText::blockEnd(std::size_t start, std::size_t minIndent) const
{
    std::size_t end = start;
    for (std::size_t line = start + 1; line <= lineCount(); ++line) {
        if (!isContent(line))
            continue;
        if (indent(line) < minIndent)
            break;
        end = line;
    }
    return end;
}

std::size_t ConfigText::nextLineAtMost(std::size_t after, std::size_t last,
                                       std::size_t maxIndent) const
{
    for (std::size_t line = after + 1; line <= last; ++line)
        if (isContent(line) && indent(line) <= maxIndent)
            return line;
    return last + 1;
}

std::string applySplices(const ConfigText& text, std::vector<Splice> splices)
{
    std::stable_sort(splices.begin(), splices.end(),
                     [](const Splice& a, const Splice& b) { return a.line < b.line; });
    std::vector<std::pair<std::string, std::string>> out; // body, terminator
    auto keep = [&](std::size_t line) { out.emplace_back(text.body(line), text.terminator(line)); };
    std::size_t next = 1;
    for (const Splice& splice : splices) {
        for (; next < splice.line; ++next)
            keep(next);
        for (std::size_t i = 0; i < splice.lines.size(); ++i) {
            const bool replaces = i < splice.removeCount;
            out.emplace_back(splice.lines[i], replaces ? std::string(text.terminator(next + i))
                                                       : std::string(text.eol()));
        }
        next += splice.removeCount;
    }
    for (; next <= text.lineCount(); ++next)
        keep(next);
    // Only the last line may lack a terminator, and only if the file's did.
    std::string result;
    for (std::size_t i = 0; i < out.size(); ++i) {
        result += out[i].first;
        const bool last = i + 1 == out.size();
        if (last && !text.endsWithNewline())
            break;
        result += out[i].second.empty() ? std::string(text.eol()) : out[i].second;
    }
    return result;
}

} // namespace relayhud::config
