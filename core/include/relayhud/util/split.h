#pragma once
// Text cut at every occurrence of a separator, the pieces as views.
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

} // namespace relayhud
