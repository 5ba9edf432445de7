#pragma once
// Several highlight rules at once over a decoded line's text (the current
// search plus rules a user keeps, each with its colour).
#include "relayhud/logs/log_search.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <string_view>
#include <vector>

namespace relayhud {

struct HighlightRule {
    SearchQuery query; // query.text is ignored: rules see the text they are given
    int colorId = 0;   // the view's palette entry
};

struct HighlightRange {
    std::size_t start = 0; // UTF-8 bytes of the text
    std::size_t length = 0;
    int colorId = 0;
    bool operator==(const HighlightRange&) const = default;
};

class Highlighter {
public:
    // Fails on the first rule whose pattern does not compile, naming it.
    static Result<Highlighter> compile(const std::vector<HighlightRule>& rules);

    // Non-overlapping ranges in text order; where rules overlap, the earlier
    // rule in the list wins, byte by byte.
    std::vector<HighlightRange> ranges(std::string_view text) const;
    bool empty() const { return m_rules.empty(); }

private:
    struct Compiled {
        TextMatcher matcher;
        int colorId;
    };
    std::vector<Compiled> m_rules;
};

} // namespace relayhud
