#include "logical_lines.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace relayhud::pysource {
namespace {

bool nameStart(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return std::isalpha(u) != 0 || c == '_' || u >= 0x80; // UTF-8 identifiers
}

bool nameChar(char c) { return nameStart(c) || std::isdigit(static_cast<unsigned char>(c)) != 0; }

// The prefixes a string literal may have (case aside).
bool stringPrefix(std::string_view word)
{
    if (word.empty() || word.size() > 2)
        return false;
    std::string lower(word);
    std::transform(lower.begin(), lower.end(), lower.begin(), [](char c) {
        return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    });
    static constexpr std::array<std::string_view, 8> kPrefixes = {"r",  "u",  "b",  "f",
                                                                  "br", "rb", "fr", "rf"};
    return std::find(kPrefixes.begin(), kPrefixes.end(), lower) != kPrefixes.end();
}

class Reader {
public:
    explicit Reader(std::string_view source) : m_s(source) {}

    LogicalLines read()
    {
        while (m_i < m_s.size() && m_out.problem.empty()) {
            if (!atLineStart())
                continue;
            readLine();
        }
        return std::move(m_out);
    }

private:
    // Measures the indentation of the physical line at m_i; false (and the
    // line skipped) for a blank or comment-only line.
    bool atLineStart()
    {
        int indent = 0;
        while (m_i < m_s.size() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\f')) {
            indent = m_s[m_i] == ' ' ? indent + 1 : m_s[m_i] == '\t' ? (indent / 8 + 1) * 8 : 0;
            ++m_i;
        }
        if (m_i < m_s.size() && m_s[m_i] == '#')
            skipComment();
        if (m_i >= m_s.size())
            return false;
        if (m_s[m_i] == '\r' || m_s[m_i] == '\n') {
            newline();
            return false;
        }
        m_line = LogicalLine{indent, m_lineNo, m_lineNo, {}};
        return true;
    }

    void readLine()
    {
        int depth = 0;
        while (m_i < m_s.size() && m_out.problem.empty()) {
            const char c = m_s[m_i];
            if (c == '\r' || c == '\n') {
                newline();
                if (depth == 0)
                    break;
            } else if (c == ' ' || c == '\t' || c == '\f') {
                ++m_i;
            } else if (c == '#') {
                skipComment();
            } else if (c == '\\') {
                ++m_i; // a continuation: the newline after it joins the lines
                if (m_i < m_s.size() && (m_s[m_i] == '\r' || m_s[m_i] == '\n'))
                    newline();
            } else if (c == '"' || c == '\'') {
                readString(m_i);
            } else if (nameStart(c)) {
                readName();
            } else if (std::isdigit(static_cast<unsigned char>(c)) != 0
                       || (c == '.' && m_i + 1 < m_s.size()
                           && std::isdigit(static_cast<unsigned char>(m_s[m_i + 1])) != 0)) {
                readNumber();
            } else {
                if (c == '(' || c == '[' || c == '{')
                    ++depth;
                else if ((c == ')' || c == ']' || c == '}') && depth > 0)
                    --depth;
                add(TokenKind::Op, m_i, m_i + 1);
                ++m_i;
            }
        }
        if (m_out.problem.empty() && depth > 0 && m_i >= m_s.size())
            m_out.problem = "line " + std::to_string(m_line.first) + ": a bracket is never closed";
        if (!m_line.tokens.empty())
            m_out.lines.push_back(std::move(m_line));
    }

    void newline()
    {
        if (m_s[m_i] == '\r' && m_i + 1 < m_s.size() && m_s[m_i + 1] == '\n')
            ++m_i;
        ++m_i;
        ++m_lineNo;
    }

    void skipComment()
    {
        while (m_i < m_s.size() && m_s[m_i] != '\n' && m_s[m_i] != '\r')
            ++m_i;
    }

    void readName()
    {
        const std::size_t start = m_i;
        while (m_i < m_s.size() && nameChar(m_s[m_i]))
            ++m_i;
        if (m_i < m_s.size() && (m_s[m_i] == '"' || m_s[m_i] == '\'')
            && stringPrefix(m_s.substr(start, m_i - start))) {
            readString(start);
            return;
        }
        add(TokenKind::Name, start, m_i);
    }

    void readNumber()
    {
        const std::size_t start = m_i;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            const bool sign =
                (c == '+' || c == '-') && m_i > start
                && (m_s[m_i - 1] == 'e' || m_s[m_i - 1] == 'E')
                && !(m_s.size() > start + 1 && (m_s[start + 1] == 'x' || m_s[start + 1] == 'X'));
            if (!nameChar(c) && c != '.' && !sign)
                break;
            ++m_i;
        }
        add(TokenKind::Number, start, m_i);
    }

    // A string from `start` (its prefix) with its quote at m_i.
    void readString(std::size_t start)
    {
        const char quote = m_s[m_i];
        const bool triple = m_i + 2 < m_s.size() && m_s[m_i + 1] == quote && m_s[m_i + 2] == quote;
        m_i += triple ? 3 : 1;
        const int opened = m_lineNo;
        while (m_i < m_s.size()) {
            const char c = m_s[m_i];
            if (c == '\\') { // escapes the next character, raw strings too
                ++m_i;
                if (m_i < m_s.size() && (m_s[m_i] == '\r' || m_s[m_i] == '\n'))
                    newline();
                else
                    ++m_i;
                continue;
            }
            if (c == quote
                && (!triple
                    || (m_i + 2 < m_s.size() && m_s[m_i + 1] == quote && m_s[m_i + 2] == quote))) {
                m_i += triple ? 3 : 1;
                add(TokenKind::String, start, m_i);
                return;
            }
            if (c == '\r' || c == '\n') {
                if (!triple)
                    break;
                newline();
                continue;
            }
            ++m_i;
        }
        m_out.problem = "line " + std::to_string(opened) + ": a string is never closed";
    }

    void add(TokenKind kind, std::size_t from, std::size_t to)
    {
        m_line.tokens.push_back({kind, m_s.substr(from, to - from), m_lineNo});
        m_line.last = m_lineNo;
    }

    std::string_view m_s;
    std::size_t m_i = 0;
    int m_lineNo = 1;
    LogicalLine m_line;
    LogicalLines m_out;
};

} // namespace

LogicalLines logicalLines(std::string_view source) { return Reader(source).read(); }

} // namespace relayhud::pysource
