// Myers' O(ND) line diff in linear space (E. W. Myers, "An O(ND) Difference
// Algorithm and Its Variations", Algorithmica 1986, section 4b): common ends
// first, then the middle snake splits what is left in two, recursively. Time
// grows with the edits (an edit touches a few lines), memory with the lines:
// moving one name out of a 30,000-name entry is a few milliseconds, where a
// table over both texts took gigabytes.
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

using Lines = std::vector<std::string_view>;

// A diagonal run both texts share, from (x, y) to (u, v), relative to the
// compared ranges.
struct Snake {
    std::ptrdiff_t x, y, u, v;
};

class Differ {
public:
    Differ(const Lines& a, const Lines& b) : m_a(a), m_b(b) {}

    // The ops that turn a[a0, a1) into b[b0, b1), appended in order.
    void walk(std::size_t a0, std::size_t a1, std::size_t b0, std::size_t b1)
    {
        while (a0 < a1 && b0 < b1 && m_a[a0] == m_b[b0]) {
            m_ops.push_back(Op::Keep);
            ++a0;
            ++b0;
        }
        std::size_t suffix = 0;
        while (a1 - suffix > a0 && b1 - suffix > b0 && m_a[a1 - 1 - suffix] == m_b[b1 - 1 - suffix])
            ++suffix;
        a1 -= suffix;
        b1 -= suffix;
        if (a0 == a1 || b0 == b1) {
            m_ops.insert(m_ops.end(), a1 - a0, Op::Remove);
            m_ops.insert(m_ops.end(), b1 - b0, Op::Add);
        } else {
            const Snake s = middleSnake(a0, a1 - a0, b0, b1 - b0);
            const auto at = [](std::size_t base, std::ptrdiff_t offset) {
                return base + static_cast<std::size_t>(offset);
            };
            walk(a0, at(a0, s.x), b0, at(b0, s.y));
            m_ops.insert(m_ops.end(), static_cast<std::size_t>(s.u - s.x), Op::Keep);
            walk(at(a0, s.u), a1, at(b0, s.v), b1);
        }
        m_ops.insert(m_ops.end(), suffix, Op::Keep);
    }

    const std::vector<Op>& ops() const { return m_ops; }

private:
    // With the common ends trimmed there are at least two edits (one alone
    // would leave a side empty), so both halves are smaller problems.
    Snake middleSnake(std::size_t a0, std::size_t n, std::size_t b0, std::size_t m)
    {
        const auto N = static_cast<std::ptrdiff_t>(n);
        const auto M = static_cast<std::ptrdiff_t>(m);
        const std::ptrdiff_t most = (N + M + 1) / 2;
        const std::ptrdiff_t delta = N - M;
        const bool odd = (delta & 1) != 0;
        // Furthest x reached on each diagonal k = x - y, forward from the
        // start and backward from the end (x counted from the end there).
        m_forward.assign(static_cast<std::size_t>(2 * most + 3), 0);
        m_backward.assign(static_cast<std::size_t>(2 * most + 3), 0);
        const auto f = [&](std::ptrdiff_t k) -> std::ptrdiff_t& {
            return m_forward[static_cast<std::size_t>(k + most + 1)];
        };
        const auto r = [&](std::ptrdiff_t k) -> std::ptrdiff_t& {
            return m_backward[static_cast<std::size_t>(k + most + 1)];
        };
        const auto same = [&](std::ptrdiff_t x, std::ptrdiff_t y) {
            return m_a[a0 + static_cast<std::size_t>(x)] == m_b[b0 + static_cast<std::size_t>(y)];
        };
        for (std::ptrdiff_t d = 0; d <= most; ++d) {
            for (std::ptrdiff_t k = -d; k <= d; k += 2) {
                std::ptrdiff_t x =
                    (k == -d || (k != d && f(k - 1) < f(k + 1))) ? f(k + 1) : f(k - 1) + 1;
                std::ptrdiff_t y = x - k;
                const std::ptrdiff_t x0 = x, y0 = y;
                while (x < N && y < M && same(x, y)) {
                    ++x;
                    ++y;
                }
                f(k) = x;
                const std::ptrdiff_t c = delta - k; // the backward diagonal through it
                if (odd && c >= -(d - 1) && c <= d - 1 && f(k) + r(c) >= N)
                    return {x0, y0, x, y};
            }
            for (std::ptrdiff_t k = -d; k <= d; k += 2) {
                std::ptrdiff_t x =
                    (k == -d || (k != d && r(k - 1) < r(k + 1))) ? r(k + 1) : r(k - 1) + 1;
                std::ptrdiff_t y = x - k;
                const std::ptrdiff_t x0 = x, y0 = y;
                while (x < N && y < M && same(N - 1 - x, M - 1 - y)) {
                    ++x;
                    ++y;
                }
                r(k) = x;
                const std::ptrdiff_t c = delta - k; // the forward diagonal through it
                if (!odd && c >= -d && c <= d && r(k) + f(c) >= N)
                    return {N - x, M - y, N - x0, M - y0};
            }
        }
        return {N, M, N, M}; // not reached: the paths meet by d = ceil((N + M) / 2)
    }

    const Lines& m_a;
    const Lines& m_b;
    std::vector<Op> m_ops;
    std::vector<std::ptrdiff_t> m_forward, m_backward;
};

// The ops with their line numbers; in each run of changes the removals come
// first, so that "-old +new" reads as a replacement.
std::vector<Step> editScript(const Lines& a, const Lines& b)
{
    Differ differ(a, b);
    differ.walk(0, a.size(), 0, b.size());
    const std::vector<Op>& ops = differ.ops();
    std::vector<Step> steps;
    steps.reserve(ops.size());
    std::size_t i = 0, j = 0;
    for (std::size_t k = 0; k < ops.size();) {
        if (ops[k] == Op::Keep) {
            steps.push_back({Op::Keep, i++, j++});
            ++k;
            continue;
        }
        std::size_t removed = 0, added = 0;
        for (; k < ops.size() && ops[k] != Op::Keep; ++k)
            (ops[k] == Op::Remove ? removed : added) += 1;
        for (std::size_t t = 0; t < removed; ++t)
            steps.push_back({Op::Remove, i++, j});
        for (std::size_t t = 0; t < added; ++t)
            steps.push_back({Op::Add, i, j++});
    }
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
