// An LCS line diff: common prefix and suffix first (an edit touches a few
// lines), then a table over what is left, which for configs of under a
// thousand lines stays small.
#include "relayhud/config/text_diff.h"

#include <algorithm>
#include <cstdint>

namespace relayhud::config {
namespace {

enum class Op : unsigned char { Keep, Remove, Add };

struct Step {
    Op op;
    std::size_t oldLine; // 0-based; for Add, the old position it comes before
    std::size_t newLine;
};

std::vector<Step> editScript(const std::vector<std::string_view>& a,
                             const std::vector<std::string_view>& b)
{
    std::size_t prefix = 0;
    while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix])
        ++prefix;
    std::size_t suffix = 0;
    while (suffix < a.size() - prefix && suffix < b.size() - prefix
           && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix])
        ++suffix;
    const std::size_t n = a.size() - prefix - suffix;
    const std::size_t m = b.size() - prefix - suffix;
    // lcs[i][j]: LCS length of a[prefix+i..] and b[prefix+j..] within the middle.
    std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
    auto cell = [&](std::size_t i, std::size_t j) -> std::uint32_t& {
        return lcs[i * (m + 1) + j];
    };
    for (std::size_t i = n; i-- > 0;)
        for (std::size_t j = m; j-- > 0;)
            cell(i, j) = a[prefix + i] == b[prefix + j] ? cell(i + 1, j + 1) + 1
                                                        : std::max(cell(i + 1, j), cell(i, j + 1));
    std::vector<Step> steps;
    for (std::size_t k = 0; k < prefix; ++k)
        steps.push_back({Op::Keep, k, k});
    std::size_t i = 0, j = 0;
    while (i < n || j < m) {
        if (i < n && j < m && a[prefix + i] == b[prefix + j]) {
            steps.push_back({Op::Keep, prefix + i++, prefix + j++});
        } else if (i < n && (j == m || cell(i + 1, j) >= cell(i, j + 1))) {
            // Removals first on a tie: "-old +new" reads as a replacement.
            steps.push_back({Op::Remove, prefix + i++, prefix + j});
        } else {
            steps.push_back({Op::Add, prefix + i, prefix + j++});
        }
    }
    for (std::size_t k = 0; k < suffix; ++k)
        steps.push_back({Op::Keep, a.size() - suffix + k, b.size() - suffix + k});
    return steps;
}

void appendLine(std::string& out, char sign, std::string_view line)
{
    out += sign;
    out += line;
    if (line.empty() || line.back() != '\n')
        out += "\n\\ No newline at end of file\n";
}

std::string range(std::size_t start, std::size_t count)
{
    // An empty range names the line before it, as diff(1) does.
    const std::size_t first = count == 0 ? start : start + 1;
    return std::to_string(first) + (count == 1 ? "" : "," + std::to_string(count));
}

} // namespace

std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t nl = text.find('\n', start);
        const std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
        lines.push_back(text.substr(start, end - start));
        start = end;
    }
    return lines;
}

LineChanges diffLines(std::string_view before, std::string_view after)
{
    LineChanges changes;
    for (const Step& step : editScript(splitLines(before), splitLines(after))) {
        if (step.op == Op::Remove)
            changes.removed.push_back(step.oldLine + 1);
        else if (step.op == Op::Add)
            changes.added.push_back(step.newLine + 1);
    }
    return changes;
}

std::string unifiedDiff(std::string_view before, std::string_view after, std::string_view path,
                        std::size_t context)
{
    const std::vector<std::string_view> a = splitLines(before);
    const std::vector<std::string_view> b = splitLines(after);
    const std::vector<Step> steps = editScript(a, b);
    std::string out;
    std::size_t k = 0;
    while (k < steps.size()) {
        while (k < steps.size() && steps[k].op == Op::Keep)
            ++k;
        if (k == steps.size())
            break;
        const std::size_t begin = k > context ? k - context : 0;
        std::size_t last = k; // the hunk's last change
        for (;;) {
            std::size_t next = last + 1;
            while (next < steps.size() && steps[next].op == Op::Keep)
                ++next;
            if (next == steps.size() || next - last - 1 > 2 * context)
                break;
            last = next;
        }
        const std::size_t end = std::min(steps.size(), last + 1 + context);
        std::size_t oldCount = 0, newCount = 0;
        for (std::size_t t = begin; t < end; ++t) {
            oldCount += steps[t].op != Op::Add ? 1U : 0U;
            newCount += steps[t].op != Op::Remove ? 1U : 0U;
        }
        if (out.empty())
            out += "--- a/" + std::string(path) + "\n+++ b/" + std::string(path) + "\n";
        out += "@@ -" + range(steps[begin].oldLine, oldCount) + " +"
               + range(steps[begin].newLine, newCount) + " @@\n";
        for (std::size_t t = begin; t < end; ++t) {
            const Step& step = steps[t];
            if (step.op == Op::Keep)
                appendLine(out, ' ', a[step.oldLine]);
            else if (step.op == Op::Remove)
                appendLine(out, '-', a[step.oldLine]);
            else
                appendLine(out, '+', b[step.newLine]);
        }
        k = end;
    }
    return out;
}

} // namespace relayhud::config
