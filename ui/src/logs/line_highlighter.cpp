#include "relayhud/ui/logs/line_highlighter.h"

namespace relayhud::ui {

Result<Highlighter> LineHighlighter::compile(const std::optional<SearchQuery>& search,
                                             const std::vector<LogHighlight>& rules)
{
    std::vector<HighlightRule> all;
    if (search)
        all.push_back({*search, kSearchRule});
    for (std::size_t i = 0; i < rules.size(); ++i)
        all.push_back({rules[i].query, static_cast<int>(i)});
    return Highlighter::compile(all);
}

Result<void> LineHighlighter::setRules(std::vector<LogHighlight> rules)
{
    auto compiled = compile(m_search, rules);
    if (!compiled)
        return compiled.error();
    m_rules = std::move(rules);
    m_highlighter = std::move(*compiled);
    ++m_generation;
    return {};
}

Result<void> LineHighlighter::setSearch(std::optional<SearchQuery> query)
{
    auto compiled = compile(query, m_rules);
    if (!compiled)
        return compiled.error();
    m_search = std::move(query);
    m_highlighter = std::move(*compiled);
    ++m_generation;
    return {};
}

QColor LineHighlighter::ruleColor(int rule) const
{
    return rule >= 0 && static_cast<std::size_t>(rule) < m_rules.size()
               ? m_rules[static_cast<std::size_t>(rule)].color
               : QColor();
}

void LineHighlighter::apply(DisplayLine& line) const
{
    if (line.highlightGeneration == m_generation)
        return;
    line.highlightGeneration = m_generation;
    line.highlights.clear();
    if (m_highlighter.empty())
        return;
    line.mapByteRanges(m_highlighter.ranges(line.utf8),
                       [&line](const HighlightRange& r, int start, int end) {
                           line.highlights.push_back({start, end, r.colorId});
                       });
}

} // namespace relayhud::ui
