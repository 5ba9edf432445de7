#include "relayhud/pysource/python_scan.h"

#include "logical_lines.h"

#include "relayhud/util/hash.h"

#include <optional>

namespace relayhud::pysource {
namespace {

enum class BlockKind { Class, Def, Other };

struct Block {
    int indent = 0;
    BlockKind kind = BlockKind::Other;
    std::string name;
    std::optional<std::size_t> function; // a reported def's index
};

// Folds tokens into a hash, each kind and text apart, so "ab" + "c" and
// "a" + "bc" differ.
std::uint64_t fold(std::uint64_t hash, const Token& token)
{
    const char kind = static_cast<char>(token.kind);
    hash = fnv1a(std::string_view(&kind, 1), hash);
    hash = fnv1a(token.text, hash);
    return fnv1a("\x1f", hash);
}

std::uint64_t foldLine(std::uint64_t hash, const LogicalLine& line, std::size_t from, int level)
{
    hash = fnv1a("\n" + std::to_string(level) + ":", hash);
    for (std::size_t i = from; i < line.tokens.size(); ++i)
        hash = fold(hash, line.tokens[i]);
    return hash;
}

// A decorator's text on one line: its tokens after the `@`, spaced where
// two words would otherwise run together.
std::string decoratorText(const LogicalLine& line)
{
    std::string out;
    for (std::size_t i = 1; i < line.tokens.size(); ++i) {
        const Token& t = line.tokens[i];
        const bool word = t.kind != TokenKind::Op;
        if (!out.empty() && word && line.tokens[i - 1].kind != TokenKind::Op)
            out += ' ';
        out += t.text == "," ? std::string_view(", ") : t.text;
    }
    // ", " then a closing bracket reads "(a, )": keep Python's own look.
    std::string tidy;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (out[i] == ' ' && i + 1 < out.size() && (out[i + 1] == ')' || out[i + 1] == ']'))
            continue;
        tidy += out[i];
    }
    return tidy;
}

class Scanner {
public:
    PyScan scan(std::string_view source)
    {
        LogicalLines lines = logicalLines(source);
        m_out.problem = std::move(lines.problem);
        for (const LogicalLine& line : lines.lines)
            take(line);
        return std::move(m_out);
    }

private:
    void take(const LogicalLine& line)
    {
        while (!m_stack.empty() && m_stack.back().indent >= line.indent)
            m_stack.pop_back();
        for (std::size_t k = 0; k < m_stack.size(); ++k) // a line of each open def
            if (const auto f = m_stack[k].function) {
                PyFunction& fn = m_out.functions[*f];
                fn.bodyHash = foldLine(fn.bodyHash, line, 0, static_cast<int>(m_stack.size() - k));
                fn.endLine = line.last;
            }
        if (line.startsWith("@")) {
            if (m_pending.empty() || m_pendingIndent != line.indent)
                m_pending.clear();
            m_pendingIndent = line.indent;
            m_pending.push_back(&line);
            return;
        }
        const bool isAsync =
            line.startsWith("async") && line.tokens.size() > 1 && line.tokens[1].text == "def";
        const std::size_t at = isAsync ? 1 : 0;
        const bool named =
            line.tokens.size() > at + 1 && line.tokens[at + 1].kind == TokenKind::Name;
        if (named && line.tokens[at].text == "def")
            openDef(line, isAsync);
        else if (named && line.tokens[at].text == "class")
            openClass(line);
        else if (line.tokens.back().text == ":")
            m_stack.push_back({line.indent, BlockKind::Other, {}, std::nullopt});
        m_pending.clear();
    }

    // Whether every open block is a class: a def here is the file's own.
    bool inClassesOnly() const
    {
        for (const Block& b : m_stack)
            if (b.kind != BlockKind::Class)
                return false;
        return true;
    }

    std::string className() const
    {
        std::string out;
        for (const Block& b : m_stack)
            out += (out.empty() ? "" : ".") + b.name;
        return out;
    }

    void openDef(const LogicalLine& line, bool isAsync)
    {
        const std::size_t at = isAsync ? 1 : 0;
        Block block{line.indent, BlockKind::Def, std::string(line.tokens[at + 1].text),
                    std::nullopt};
        if (inClassesOnly()) {
            PyFunction fn;
            fn.className = className();
            fn.name = block.name;
            fn.isAsync = isAsync;
            fn.line = line.first;
            fn.endLine = line.last;
            fn.bodyHash = foldLine(fnv1a(isAsync ? "async" : "def"), line, at + 2, 0);
            fn.decoratorHash = kFnv1aOffset;
            for (const LogicalLine* d : m_pending) {
                fn.decorators.push_back(decoratorText(*d));
                fn.decoratorHash = foldLine(fn.decoratorHash, *d, 0, 0);
            }
            block.function = m_out.functions.size();
            m_out.functions.push_back(std::move(fn));
        }
        m_stack.push_back(std::move(block));
    }

    void openClass(const LogicalLine& line)
    {
        const bool listed = inClassesOnly();
        m_stack.push_back(
            {line.indent, BlockKind::Class, std::string(line.tokens[1].text), std::nullopt});
        if (listed)
            m_out.classes.push_back(className());
    }

    PyScan m_out;
    std::vector<Block> m_stack;
    std::vector<const LogicalLine*> m_pending; // decorators waiting for their def
    int m_pendingIndent = 0;
};

} // namespace

PyScan scanPython(std::string_view source) { return Scanner().scan(source); }

} // namespace relayhud::pysource
