#pragma once
// A compiled search pattern: a literal with a vector pre-filter, or RE2.
#include "relayhud/logs/log_search.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace relayhud::logs {

// Finds a literal in a block: a 16-byte vector compare of its first and last
// bytes at every position, then an exact compare of the candidates. With
// `fold`, ASCII letters match either case (the needle is stored lower-case).
class LiteralFinder {
public:
    LiteralFinder(std::string needle, bool fold);
    // The first occurrence in [begin, end), or end.
    const char* find(const char* begin, const char* end) const;
    std::size_t size() const { return m_needle.size(); }
    // Whether the needle starts at p (p + size() must be readable).
    bool matchesAt(const char* p) const;

private:
    std::string m_needle;
    bool m_fold;
};

// The most literals a regex's prefilter looks for at once.
inline constexpr std::size_t kMaxFinders = 3;

class CompiledPattern {
public:
    static Result<std::shared_ptr<const CompiledPattern>> compile(const SearchQuery& query);
    ~CompiledPattern();

    const SearchQuery& query() const { return m_query; }
    bool isLiteral() const { return m_literal != nullptr; }
    bool matchesEverything() const { return m_everything; }
    // A literal with a line break in it: no line can hold it.
    bool matchesNothing() const { return m_nothing; }
    bool display() const { return m_query.text == SearchText::Display; }
    const LiteralFinder* literal() const { return m_literal.get(); }
    // Multi-line mode, never matching '\n': usable on a block of lines.
    const re2::RE2* regex() const { return m_regex.get(); }
    // The same without multi-line mode, for one line's text: there ^ and $
    // anchor the text itself, which lets RE2 run an anchored search (and an
    // end-anchored pattern backwards from the end) instead of a scan.
    const re2::RE2* lineRegex() const { return m_lineRegex.get(); }
    // For a regex: literals (ASCII, any case) one of which every matching line
    // holds, when RE2's prefilter can name such a set; empty otherwise.
    std::span<const LiteralFinder* const> prefilter() const { return m_prefilter; }

    // The first match in text[from, to) (to = npos: the end); the bytes
    // outside are context for ^, $ and \b. False when none. `regex`: a
    // thread's own copy of regex() (RE2 shares one DFA cache, behind a lock,
    // between the threads that use the same object).
    bool find(std::string_view text, std::size_t from, TextRange& found,
              std::size_t to = std::string_view::npos, const re2::RE2* regex = nullptr) const;
    // Whether one line's text matches; `lineRegex`: a copy of lineRegex().
    bool contains(std::string_view text, const re2::RE2* lineRegex = nullptr) const;
    // A thread's own copies of regex() and lineRegex() (null for a literal).
    struct RegexCopies {
        std::unique_ptr<re2::RE2> block;
        std::unique_ptr<re2::RE2> line;
    };
    RegexCopies copyRegexes() const;

private:
    CompiledPattern() = default;

    SearchQuery m_query;
    bool m_everything = false; // the empty pattern
    bool m_nothing = false;
    std::unique_ptr<LiteralFinder> m_literal;
    std::unique_ptr<re2::RE2> m_regex;
    std::unique_ptr<re2::RE2> m_lineRegex;
    std::vector<std::unique_ptr<LiteralFinder>> m_prefilterFinders;
    std::vector<const LiteralFinder*> m_prefilter;
};

} // namespace relayhud::logs
