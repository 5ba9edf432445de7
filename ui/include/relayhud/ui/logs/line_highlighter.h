#pragma once
// Which stretches of a painted line to mark: the current search's matches and
// any number of user highlight rules, each with its colour (the engine's
// Highlighter decides who wins where they overlap: the search, then the
// rules in order). Runs on the few lines a frame paints and caches the result
// in the line for the rules' generation, so scrolling back and forth matches
// nothing twice.
#include "relayhud/logs/highlighter.h"
#include "relayhud/ui/logs/display_line.h"

#include <QColor>

#include <optional>
#include <vector>

namespace relayhud::ui {

// A user's highlight: every match of `query` painted in `color`.
struct LogHighlight {
    SearchQuery query;
    QColor color;
};

class LineHighlighter {
public:
    static constexpr int kSearchRule = -1;

    // The first rule that does not compile gives its message; nothing changes.
    Result<void> setRules(std::vector<LogHighlight> rules);
    Result<void> setSearch(std::optional<SearchQuery> query);
    bool hasSearch() const { return m_search.has_value(); }
    std::size_t ruleCount() const { return m_rules.size(); }
    QColor ruleColor(int rule) const;

    // Brings line.highlights up to date.
    void apply(DisplayLine& line) const;

private:
    static Result<Highlighter> compile(const std::optional<SearchQuery>& search,
                                       const std::vector<LogHighlight>& rules);

    std::optional<SearchQuery> m_search;
    std::vector<LogHighlight> m_rules;
    Highlighter m_highlighter;
    std::uint64_t m_generation = 1;
};

} // namespace relayhud::ui
