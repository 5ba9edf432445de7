// Escaping for the reports: Markdown that renders as the text it was given,
// code spans that survive backticks and table pipes, RFC 4180 fields, text
// clipped on a character boundary, and the job log URL.
#include "relayhud/verdict/report.h"

#include <algorithm>

namespace relayhud::verdict {

// Parentheses stay as they are: with every bracket escaped they cannot
// make a link, and job names like "test (default, 1, 2)" stay readable.
std::string escapeMarkdown(std::string_view text)
{
    std::string out;
    out.reserve(text.size() + text.size() / 4);
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        switch (c) {
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '&': out += "&amp;"; break;
        case '\r':
            if (i + 1 < text.size() && text[i + 1] == '\n')
                ++i;
            [[fallthrough]];
        case '\n': out += ' '; break;
        case '\\':
        case '`':
        case '*':
        case '_':
        case '[':
        case ']':
        case '|':
        case '#':
        case '!':
        case '~':
            out += '\\';
            out += c;
            break;
        default: out += c;
        }
    }
    return out;
}

// CommonMark: a code span opens and closes with the same number of
// backticks, so use one more than the longest run inside, and pad with a
// space when the text starts or ends with one. In a GFM table a pipe ends
// the cell even inside a code span unless escaped as \| (the table parser
// removes the backslash first).
std::string markdownCode(std::string_view text)
{
    std::size_t longest = 0;
    std::size_t run = 0;
    for (char c : text) {
        run = c == '`' ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    std::string body;
    for (char c : text) {
        if (c == '\n' || c == '\r')
            body += ' ';
        else if (c == '|')
            body += "\\|";
        else
            body += c;
    }
    const std::string fence(longest + 1, '`');
    const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
    return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

std::string csvField(std::string_view text)
{
    // A spreadsheet runs a cell that starts with = + - @ (or a tab or CR
    // before one) as a formula: CI text such as a failure line must stay
    // text (OWASP "CSV Injection"), so it gets a leading apostrophe.
    std::string guarded;
    if (!text.empty()
        && std::string_view("=+-@\t\r").find(text.front()) != std::string_view::npos) {
        guarded = "'" + std::string(text);
        text = guarded;
    }
    if (text.find_first_of(",\"\r\n") == std::string_view::npos)
        return std::string(text);
    std::string out = "\"";
    for (char c : text) {
        if (c == '"')
            out += '"';
        out += c;
    }
    return out + '"';
}

std::string clipUtf8(std::string_view text, std::size_t maxBytes)
{
    if (text.size() <= maxBytes)
        return std::string(text);
    static constexpr std::string_view kEllipsis = "…";
    std::size_t cut = maxBytes > kEllipsis.size() ? maxBytes - kEllipsis.size() : 0;
    // Back off continuation bytes (10xxxxxx) so the cut falls before a
    // character, never inside one.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
        --cut;
    std::string out(text.substr(0, cut));
    if (cut + kEllipsis.size() <= maxBytes)
        out += kEllipsis;
    return out;
}

std::string jobLogUrl(const CheckRun& run)
{
    std::string url = run.reported.runUrl;
    if (url.find("/actions/runs/") == std::string::npos || run.checkRunId.value.empty())
        return {};
    // A job id is unique across attempts, and GitHub serves its log under
    // the run, not under ".../attempts/N".
    if (const std::size_t attempts = url.find("/attempts/"); attempts != std::string::npos)
        url.erase(attempts);
    return url + "/job/" + run.checkRunId.value;
}

} // namespace relayhud::verdict
