#include "report_cells.h"

#include <algorithm>

namespace relayhud::verdict::cells {
namespace {

constexpr std::size_t kUrlBytes = 2048;

} // namespace

std::string esc(std::string_view text) { return escapeMarkdown(clipUtf8(text, kCellBytes)); }
std::string code(std::string_view text) { return markdownCode(clipUtf8(text, kCellBytes)); }

std::string inlineCode(std::string_view text, std::size_t maxBytes)
{
    const std::string body = clipUtf8(text, maxBytes);
    std::size_t longest = 0;
    std::size_t run = 0;
    std::string flat;
    for (const char c : body) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
        flat += c == '\n' || c == '\r' ? ' ' : c;
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !flat.empty() && (flat.front() == '`' || flat.back() == '`');
    return fence + (pad ? " " : "") + flat + (pad ? " " : "") + fence;
}

const char* verdictMark(Verdict v)
{
    switch (v) {
    case Verdict::VerifiedGreen: return "✅";
    case Verdict::GreenIncomplete: return "⚠️";
    case Verdict::GreenUnverifiable: return "❔";
    case Verdict::GreenDisputed: return "❗";
    case Verdict::Red: return "❌";
    case Verdict::Inconclusive: return "⚪";
    case Verdict::Pending: return "⏳";
    case Verdict::Stale: return "💤";
    }
    return "";
}

bool linkable(std::string_view url)
{
    return (url.starts_with("https://") || url.starts_with("http://")) && url.size() <= kUrlBytes
           && url.find_first_of(" \t\r\n<>\"'`") == std::string_view::npos;
}

std::string link(std::string_view label, std::string_view url)
{
    return "[" + std::string(label) + "](<" + std::string(url) + ">)";
}

std::string jobName(const CheckRun& run, int attempt)
{
    const bool named = attempt > 1 || attempt != run.runAttempt;
    return esc(run.workflow + " / " + run.jobName)
           + (named ? " (attempt " + std::to_string(attempt) + ")" : "");
}

std::string countOf(std::size_t n, const std::string& one, const std::string& many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace relayhud::verdict::cells
