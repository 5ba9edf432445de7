#include "relayhud/util/message_text.h"

namespace relayhud {
namespace {

constexpr bool isWordChar(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
constexpr bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f'; }

} // namespace

std::string_view firstMeaningfulLine(std::string_view message)
{
    std::size_t start = 0;
    while (start < message.size()) {
        std::size_t end = message.find('\n', start);
        if (end == std::string_view::npos)
            end = message.size();
        std::string_view line = message.substr(start, end - start);
        while (!line.empty() && (isBlank(line.front())))
            line.remove_prefix(1);
        while (!line.empty() && (isBlank(line.back())))
            line.remove_suffix(1);
        bool says = false;
        for (const char c : line)
            says = says || isWordChar(c);
        if (says && line != "Traceback (most recent call last):")
            return line;
        start = end + 1;
    }
    return {};
}

} // namespace relayhud
