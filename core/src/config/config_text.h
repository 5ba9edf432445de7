#pragma once
// The block layout of a config's text, line by line, and splicing lines in
// and out of it: what the editor needs that yaml-cpp (no comments, no
// formatting) cannot give.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

// Lines are 1-based, as the model's positions are.
class ConfigText {
public:
    explicit ConfigText(std::string_view text);

    std::size_t lineCount() const { return m_lines.size(); }
    std::string_view body(std::size_t line) const; // without its terminator
    std::string_view terminator(std::size_t line) const;
    std::size_t indent(std::size_t line) const;
    // Blank or comment-only lines carry no YAML content.
    bool isContent(std::size_t line) const;
    // The terminator new lines get: the file's first one, "\n" when none.
    std::string_view eol() const { return m_eol; }
    bool endsWithNewline() const;

    // The last content line of a block that starts at `start` and goes on
    // while content lines are indented at least `minIndent`; comments after
    // it belong to whatever follows.
    std::size_t blockEnd(std::size_t start, std::size_t minIndent) const;
    // The first content line after `after`, up to `last`, indented `maxIndent`
    // or less; `last + 1` when none.
    std::size_t nextLineAtMost(std::size_t after, std::size_t last, std::size_t maxIndent) const;

private:
    std::vector<std::string_view> m_lines; // with terminators
    std::string m_eol = "\n";
};

// Replace `removeCount` lines starting at `line` with `lines` (bodies without
// terminators); removeCount 0 inserts before `line` (lineCount()+1: at the end).
struct Splice {
    std::size_t line = 0;
    std::size_t removeCount = 0;
    std::vector<std::string> lines;
};

// Applies non-overlapping splices. A replaced line keeps its own terminator;
// new lines get the file's; the presence or absence of a final newline stays.
std::string applySplices(const ConfigText& text, std::vector<Splice> splices);

} // namespace relayhud::config
