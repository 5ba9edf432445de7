#include "relayhud/logs/line_decoder.h"
#include "relayhud/triage/accuracy.h"

namespace relayhud::triage {

namespace {

constexpr std::string_view kSource = "#=SOURCE=#";
constexpr std::string_view kMatch = "#=MATCH=# ";
constexpr std::string_view kOpen = "\u2039";  // ‹
constexpr std::string_view kClose = "\u203a"; // ›

std::string withoutEscapes(std::string_view text)
{
    std::string out;
    stripEscapes(text, out);
    return out;
}

// Removes the marks from a MATCH line; the marked spans go to `captures`.
std::string unmark(std::string_view line, std::vector<std::string>& captures)
{
    std::string out;
    std::size_t pos = 0;
    while (pos < line.size()) {
        const auto open = line.find(kOpen, pos);
        const auto close =
            open == std::string_view::npos ? open : line.find(kClose, open + kOpen.size());
        if (close == std::string_view::npos) {
            out.append(line.substr(pos));
            break;
        }
        const auto span = line.substr(open + kOpen.size(), close - open - kOpen.size());
        out.append(line.substr(pos, open - pos)).append(span);
        captures.push_back(withoutEscapes(span));
        pos = close + kClose.size();
    }
    return out;
}

} // namespace

MarkedLog parseMarkedLog(std::string_view fixture)
{
    MarkedLog log;
    std::uint64_t kept = 0;
    std::size_t pos = 0;
    while (pos < fixture.size()) {
        const auto eol = fixture.find('\n', pos);
        const auto end = eol == std::string_view::npos ? fixture.size() : eol + 1;
        std::string_view line = fixture.substr(pos, end - pos);
        pos = end;
        if (line.starts_with(kSource))
            continue;
        ++kept;
        if (line.starts_with(kMatch) && !log.expectedLine) {
            log.expectedLine = kept;
            log.text += unmark(line.substr(kMatch.size()), log.expectedCaptures);
            continue;
        }
        log.text += line;
    }
    return log;
}

} // namespace relayhud::triage
