#include "relayhud/logs/highlighter.h"

#include <cstdint>

namespace relayhud {

Result<Highlighter> Highlighter::compile(const std::vector<HighlightRule>& rules)
{
    Highlighter h;
    // Byte owners are 16-bit rule numbers.
    if (rules.size() > 0xFFFE)
        return makeError("too many highlight rules (" + std::to_string(rules.size()) + ")");
    for (std::size_t i = 0; i < rules.size(); ++i) {
        auto m = TextMatcher::compile(rules[i].query);
        if (!m)
            return makeError("highlight rule " + std::to_string(i + 1) + ": " + m.message());
        h.m_rules.push_back({std::move(*m), rules[i].colorId});
    }
    return h;
}

std::vector<HighlightRange> Highlighter::ranges(std::string_view text) const
{
    // Owner of each byte: the first rule that covers it (0 = none). Painting
    // later rules only into free bytes makes earlier rules win.
    std::vector<std::uint16_t> owner;
    std::vector<TextRange> found;
    for (std::size_t r = 0; r < m_rules.size(); ++r) {
        found.clear();
        m_rules[r].matcher.findAll(text, found);
        if (found.empty())
            continue;
        owner.resize(text.size(), 0);
        for (const auto& f : found)
            for (std::size_t i = f.start; i < f.start + f.length; ++i)
                if (owner[i] == 0)
                    owner[i] = static_cast<std::uint16_t>(r + 1);
    }
    std::vector<HighlightRange> out;
    for (std::size_t i = 0; i < owner.size();) {
        std::size_t j = i + 1;
        while (j < owner.size() && owner[j] == owner[i])
            ++j;
        if (owner[i] != 0)
            out.push_back({i, j - i, m_rules[owner[i] - 1U].colorId});
        i = j;
    }
    return out;
}

} // namespace relayhud
