#pragma once
// Python source as logical lines of tokens (the language reference's 2.1):
// physical lines joined inside brackets and after a backslash, comments and
// blank lines dropped, strings whole. What python_scan.cpp builds blocks on.
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::pysource {

enum class TokenKind : char { Name = 'n', String = 's', Number = 'd', Op = 'o' };

struct Token {
    TokenKind kind = TokenKind::Op;
    std::string_view text; // into the source
    int line = 0;          // 1-based, where it ends (a string may span lines)
};

struct LogicalLine {
    int indent = 0; // columns, a tab to the next multiple of 8
    int first = 0;  // 1-based physical lines
    int last = 0;
    std::vector<Token> tokens;

    bool startsWith(std::string_view name) const
    {
        return !tokens.empty() && tokens.front().text == name;
    }
};

struct LogicalLines {
    std::vector<LogicalLine> lines;
    std::string problem; // "" when the whole source was read
};

LogicalLines logicalLines(std::string_view source);

} // namespace relayhud::pysource
