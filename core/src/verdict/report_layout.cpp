// Fitting the report into a GitHub comment: a common row limit found by
// bisection (sizes come from prefix sums, so each probe costs one pass over
// the tables, not a render), then leftover room given back row by row.
#include "report_layout.h"

#include <algorithm>

namespace relayhud::verdict::layout {
namespace {

// "<details>" opened and not closed in `markdown`.
std::size_t openFolds(std::string_view markdown)
{
    std::size_t open = 0;
    for (std::size_t at = markdown.find("<details"); at != std::string_view::npos;
         at = markdown.find("<details", at + 1)) {
        if (markdown.compare(at, 9, "<details>") == 0)
            ++open;
    }
    for (std::size_t at = markdown.find("</details>"); at != std::string_view::npos && open > 0;
         at = markdown.find("</details>", at + 1))
        --open;
    return open;
}

} // namespace

void Document::text(std::string markdown)
{
    Table t;
    t.intro = std::move(markdown);
    table(std::move(t));
}

void Document::table(Table table)
{
    table.total = std::max(table.total, table.rows.size());
    std::vector<std::size_t> prefix(table.rows.size() + 1, 0);
    for (std::size_t i = 0; i < table.rows.size(); ++i)
        prefix[i + 1] = prefix[i] + table.rows[i].size();
    m_prefix.push_back(std::move(prefix));
    m_parts.push_back(std::move(table));
}

// What part `index` writes before and after its first `shown` rows: the
// intro, the fold, the header, and what it leaves out.
std::pair<std::string, std::string> Document::frame(std::size_t index, std::size_t shown,
                                                    const ReportOptions& options) const
{
    const Table& t = m_parts[index];
    if (t.total == 0)
        return {t.intro, {}};
    const bool folded = !t.summary.empty() && (t.alwaysFolded || t.total > options.openListLimit);
    std::string before = t.intro;
    if (folded)
        before += "<details><summary>" + t.summary + "</summary>\n\n";
    before += t.head;
    std::string after;
    if (shown < t.total)
        after += "\n… " + std::to_string(t.total - shown) + " more not shown"
                 + (t.fullList.empty() ? "" : "; full list: " + t.fullList) + "\n";
    after += folded ? "\n</details>\n\n" : "\n";
    return {std::move(before), std::move(after)};
}

std::string Document::part(std::size_t index, std::size_t shown, const ReportOptions& options) const
{
    auto [out, after] = frame(index, shown, options);
    for (std::size_t i = 0; i < shown; ++i)
        out += m_parts[index].rows[i];
    return out + after;
}

std::size_t Document::size(std::size_t index, std::size_t shown, const ReportOptions& options) const
{
    const auto [before, after] = frame(index, shown, options);
    return before.size() + m_prefix[index][shown] + after.size();
}

std::string Document::render(const ReportOptions& options) const
{
    const std::size_t n = m_parts.size();
    std::vector<std::size_t> cap(n);
    for (std::size_t i = 0; i < n; ++i)
        cap[i] = m_parts[i].capped ? std::min(m_parts[i].rows.size(), options.maxRows)
                                   : m_parts[i].rows.size();
    bool keepWhole = true;
    auto shownAt = [&](std::size_t limit) {
        std::vector<std::size_t> shown(n);
        for (std::size_t i = 0; i < n; ++i)
            shown[i] = keepWhole && m_parts[i].whole ? cap[i] : std::min(cap[i], limit);
        return shown;
    };
    auto total = [&](const std::vector<std::size_t>& shown) {
        std::size_t bytes = 0;
        for (std::size_t i = 0; i < n; ++i)
            bytes += size(i, shown[i], options);
        return bytes;
    };
    const std::size_t longest = n ? *std::max_element(cap.begin(), cap.end()) : 0;
    if (total(shownAt(0)) > options.maxBytes)
        keepWhole = false;
    if (total(shownAt(0)) > options.maxBytes)
        return cutToFit(options);
    // The largest common limit that fits: total() grows with the limit.
    std::size_t lo = 0;
    std::size_t hi = longest;
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo + 1) / 2;
        if (total(shownAt(mid)) <= options.maxBytes)
            lo = mid;
        else
            hi = mid - 1;
    }
    std::vector<std::size_t> shown = shownAt(lo);
    std::size_t bytes = total(shown);
    for (std::size_t i = 0; i < n; ++i)
        while (shown[i] < cap[i]) {
            const std::size_t grown =
                bytes - size(i, shown[i], options) + size(i, shown[i] + 1, options);
            if (grown > options.maxBytes)
                break;
            bytes = grown;
            ++shown[i];
        }
    std::string out;
    out.reserve(bytes);
    for (std::size_t i = 0; i < n; ++i)
        out += part(i, shown[i], options);
    return out;
}

// The last resort (the intros alone are too long, e.g. thousands of jobs with
// missing mandatory tests): cut at the last line end that leaves room for
// the note. A line end is never inside a row or a character.
std::string Document::cutToFit(const ReportOptions& options) const
{
    const std::string tail =
        "\n… the report is cut here to fit a GitHub comment; full report: " + m_fullReport + "\n";
    std::string whole;
    for (std::size_t i = 0; i < m_parts.size(); ++i)
        whole += part(i, 0, options);
    if (options.maxBytes < tail.size())
        return clipUtf8(tail, options.maxBytes);
    // Every fold the cut leaves open is closed after the note, so nothing
    // after the report (a reply, a signature) lands inside one.
    const std::string close = "\n</details>\n";
    std::size_t end = whole.rfind('\n', options.maxBytes - tail.size());
    std::string out = whole.substr(0, end == std::string::npos ? 0 : end);
    while (!out.empty()
           && out.size() + tail.size() + openFolds(out) * close.size() > options.maxBytes) {
        end = out.rfind('\n', out.size() - 1);
        out.resize(end == std::string::npos ? 0 : end);
    }
    const std::size_t open = openFolds(out);
    out += tail;
    for (std::size_t i = 0; i < open; ++i)
        out += close;
    return out;
}

std::size_t visibleLines(std::string_view markdown)
{
    std::size_t lines = 0;
    std::size_t depth = 0;
    while (!markdown.empty()) {
        const std::size_t end = markdown.find('\n');
        const std::string_view line = markdown.substr(0, end);
        if (depth == 0)
            ++lines;
        if (line.starts_with("<details>"))
            ++depth;
        if (line.find("</details>") != std::string_view::npos && depth > 0)
            --depth;
        markdown.remove_prefix(end == std::string_view::npos ? markdown.size() : end + 1);
    }
    return lines;
}

} // namespace relayhud::verdict::layout
