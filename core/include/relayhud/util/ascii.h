#pragma once
// ASCII case for protocol text (header names, URL schemes and hosts, file
// name endings, HTML tags, hex digits): never the locale's, and bytes past
// ASCII (UTF-8) stay as they are.
#include <string>
#include <string_view>

namespace relayhud {

constexpr char lowerAscii(char c)
{
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string lowerAscii(std::string_view text)
{
    std::string out(text);
    for (char& c : out)
        c = lowerAscii(c);
    return out;
}

} // namespace relayhud
