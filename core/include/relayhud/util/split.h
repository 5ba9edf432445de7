#pragma once
// Text cut at every occurrence of a separator, the pieces as views; and the
// last occurrence of a word, found fast.
#include <algorithm>
#include <string_view>
#include <vector>

namespace relayhud {

// "a::b::c" at "::" -> {"a", "b", "c"}; "" -> {""}; a trailing separator
// gives a last empty piece.
inline std::vector<std::string_view> splitOn(std::string_view text, std::string_view separator)
{
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t at = text.find(separator, start);
        parts.push_back(text.substr(start, at == std::string_view::npos ? text.npos : at - start));
        if (at == std::string_view::npos)
            return parts;
        start = at + separator.size();
    }
}

// The start of the last `needle` in `text` at or before `from`, npos when
// there is none: std::string_view::rfind, but comparing only where the first
// byte matches (libstdc++'s compares the whole needle at every position, a
// call per byte of the text; test names are searched this way per result).
inline std::size_t rfindFast(std::string_view text, std::string_view needle,
                             std::size_t from = std::string_view::npos)
{
    if (needle.empty())
        return from < text.size() ? from : text.size();
    if (needle.size() > text.size())
        return std::string_view::npos;
    std::size_t at = std::min(from, text.size() - needle.size());
    for (;; --at) {
        if (text[at] == needle.front() && text.substr(at, needle.size()) == needle)
            return at;
        if (at == 0)
            return std::string_view::npos;
    }
}

} // namespace relayhud
