#include "logs/escape_scan.h"

#include <cstring>

namespace relayhud::logs {
namespace {

bool inRange(unsigned char c, unsigned char low, unsigned char high)
{
    return c >= low && c <= high;
}

unsigned char at(std::string_view s, std::size_t i) { return static_cast<unsigned char>(s[i]); }

// CSI: ESC [ parameters (0x30-0x3F)* intermediates (0x20-0x2F)* final (0x40-0x7E).
// A byte outside those ranges aborts the sequence before it (xterm does the
// same), so the byte is shown as text or handled as a control.
EscapeSequence controlSequence(std::string_view s, std::size_t start)
{
    std::size_t i = start + 2;
    const std::size_t paramsBegin = i;
    while (i < s.size() && inRange(at(s, i), 0x30, 0x3F))
        ++i;
    const std::size_t paramsEnd = i;
    while (i < s.size() && inRange(at(s, i), 0x20, 0x2F))
        ++i;
    if (i >= s.size() || !inRange(at(s, i), 0x40, 0x7E))
        return {i - start, false, {}};
    const std::string_view params = s.substr(paramsBegin, paramsEnd - paramsBegin);
    // Private parameter strings (ESC[>4;2m, ESC[?25h) are not colours.
    const bool privateParams = !params.empty() && inRange(at(params, 0), 0x3C, 0x3F);
    const bool sgr = s[i] == 'm' && paramsEnd == i && !privateParams;
    return {i + 1 - start, sgr, sgr ? params : std::string_view{}};
}

// OSC, DCS, SOS, PM, APC: a string ended by BEL or ST (ESC \). An ESC that is
// not ST ends the string too (it starts the next sequence); so does the end
// of the line (a line break, for callers that scan several lines at once).
EscapeSequence controlString(std::string_view s, std::size_t start)
{
    std::size_t i = start + 2;
    while (i < s.size() && s[i] != '\a' && s[i] != kEsc && s[i] != '\n' && s[i] != '\r')
        ++i;
    if (i < s.size() && s[i] == '\a')
        return {i + 1 - start, false, {}};
    if (i + 1 < s.size() && s[i] == kEsc && s[i + 1] == '\\')
        return {i + 2 - start, false, {}};
    return {i - start, false, {}};
}

} // namespace

EscapeSequence parseEscape(std::string_view s, std::size_t start)
{
    if (start + 1 >= s.size())
        return {1, false, {}};
    const unsigned char c = at(s, start + 1);
    if (c == '[')
        return controlSequence(s, start);
    if (c == ']' || c == 'P' || c == 'X' || c == '^' || c == '_')
        return controlString(s, start);
    if (inRange(c, 0x20, 0x2F)) {
        // nF: ESC intermediates final, e.g. ESC ( B (charset selection).
        std::size_t i = start + 1;
        while (i < s.size() && inRange(at(s, i), 0x20, 0x2F))
            ++i;
        if (i < s.size() && inRange(at(s, i), 0x30, 0x7E))
            ++i;
        return {i - start, false, {}};
    }
    if (inRange(c, 0x30, 0x7E))
        return {2, false, {}}; // ESC 7, ESC =, ESC c, ...
    return {1, false, {}};     // a lone ESC before a control or non-ASCII byte
}

std::size_t stripEscapesInPlace(char* data, std::size_t size)
{
    const std::string_view all(data, size);
    const void* first = std::memchr(data, kEsc, size);
    if (!first)
        return size;
    std::size_t in = static_cast<std::size_t>(static_cast<const char*>(first) - data);
    char* out = data + in;
    while (in < size) {
        if (data[in] == kEsc) {
            in += parseEscape(all, in).length;
            continue;
        }
        const void* esc = std::memchr(data + in, kEsc, size - in);
        const std::size_t next =
            esc ? static_cast<std::size_t>(static_cast<const char*>(esc) - data) : size;
        std::memmove(out, data + in, next - in);
        out += next - in;
        in = next;
    }
    return static_cast<std::size_t>(out - data);
}

} // namespace relayhud::logs
