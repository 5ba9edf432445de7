#pragma once
// The classifier's inner loop: one pass over the lines, remembering only the
// best rule seen so far, its last line and the first lines it matched (at
// most FailureLine::kMaxNamed). Rules are ordered by priority, so
// the winner is the lowest-numbered rule that matches anywhere, and its match
// is the last line where it does.
//
// Cleaned lines are gathered into blocks of about 64 KiB and the rule set
// runs once per block in multi-line mode, which tells which rules match
// somewhere in it; only when one of them is at or above the current best is
// that rule's own pattern run on the block's lines.
// A block match that no single line confirms (a pattern spanning lines) is
// skipped, so the verdict is the same as matching line by line.
#include "line_filter.h"
#include "relayhud/triage/classifier.h"

#include <limits>
#include <re2/re2.h>
#include <re2/set.h>

namespace relayhud::triage {

struct Classifier::Compiled {
    explicit Compiled(const RE2::Options& options);
    RE2::Set set;                               // each rule in (?m) mode
    std::vector<std::unique_ptr<RE2>> patterns; // in priority order
};

class Classifier::Scan {
public:
    static constexpr std::size_t kNone = std::numeric_limits<std::size_t>::max();

    explicit Scan(const Compiled& compiled) : m_compiled(compiled) {}

    // Feeds every "\n"-terminated line of `data`; returns the bytes used
    // (the unterminated tail is left for the caller to carry over).
    std::size_t feedLines(std::string_view data);
    // Ends the log: its last line when it has no terminator (may be empty).
    void feedLast(std::string_view tail);
    // The start of a line too long to hold; the caller drops the rest of it.
    void feedCutLine(std::string_view start) { feedLine(start); }

    bool matched() const { return m_bestRule != kNone; }
    std::size_t bestRule() const { return m_bestRule; }
    std::uint64_t bestLine() const { return m_bestLine; }
    const std::string& bestText() const { return m_bestText; }
    // Every line the best rule matched, in log order (the first kMaxNamed).
    const std::vector<std::string>& bestRuleLines() const { return m_bestRuleLines; }

private:
    void feedLine(std::string_view raw);
    void flushBlock();
    bool takeMatches(std::size_t rule);
    void matchOneByOne();
    std::size_t firstRuleOf(std::string_view line) const;
    std::string_view blockLine(std::size_t i) const;
    void setBest(std::size_t rule, std::size_t blockIndex);
    void keepLine(std::size_t blockIndex);

    const Compiled& m_compiled;
    LineFilter m_filter;
    std::vector<int> m_hits;
    std::string m_block;                  // cleaned lines, each ending in '\n'
    std::vector<std::size_t> m_starts;    // of each line in m_block
    std::vector<std::uint64_t> m_numbers; // each line's number in the raw log
    std::uint64_t m_lineNumber = 0;
    std::size_t m_bestRule = kNone;
    std::uint64_t m_bestLine = 0;
    std::string m_bestText;
    std::vector<std::string> m_bestRuleLines;
};

} // namespace relayhud::triage
