#include "relayhud/logs/line_decoder.h"

#include "logs/escape_scan.h"
#include "logs/sgr.h"
#include "relayhud/util/utf8.h"

#include <array>

namespace relayhud {
namespace {

using logs::kEsc;

constexpr std::string_view kBom = "\xEF\xBB\xBF";
constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

struct Marker {
    std::string_view text;
    LineKind kind;
};
constexpr std::array<Marker, 8> kMarkers = {{
    {"##[group]", LineKind::GroupStart},
    {"##[endgroup]", LineKind::GroupEnd},
    {"##[error]", LineKind::Error},
    {"##[warning]", LineKind::Warning},
    {"##[notice]", LineKind::Notice},
    {"##[debug]", LineKind::Debug},
    {"##[command]", LineKind::Command},
    {"[command]", LineKind::Command},
}};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

bool digitsAt(std::string_view s, std::size_t at, std::size_t count)
{
    for (std::size_t i = at; i < at + count; ++i)
        if (i >= s.size() || !isDigit(s[i]))
            return false;
    return true;
}

// Shows a control character: U+2400 + c for C0, U+2421 for DEL.
void appendControlPicture(std::string& out, unsigned char c)
{
    const unsigned code = c == 0x7F ? 0x2421U : 0x2400U + c;
    out += static_cast<char>(0xE0U | (code >> 12));
    out += static_cast<char>(0x80U | ((code >> 6) & 0x3FU));
    out += static_cast<char>(0x80U | (code & 0x3FU));
}

bool isShownControl(unsigned char c) { return (c < 0x20 && c != '\t') || c == 0x7F; }

// Text and spans, built left to right under the current style.
class Builder {
public:
    explicit Builder(DecodedLine& line) : m_line(line) {}
    TextStyle& style() { return m_style; }

    void appendRun(std::string_view bytes)
    {
        const std::size_t before = m_line.text.size();
        appendSanitizedUtf8(m_line.text, bytes);
        styleSince(before);
    }
    void appendControl(unsigned char c)
    {
        const std::size_t before = m_line.text.size();
        appendControlPicture(m_line.text, c);
        styleSince(before);
    }
    void appendReplacement()
    {
        const std::size_t before = m_line.text.size();
        m_line.text += kReplacement;
        styleSince(before);
    }

private:
    void styleSince(std::size_t before)
    {
        const std::size_t after = m_line.text.size();
        if (m_style.isDefault() || after == before)
            return;
        auto& spans = m_line.spans;
        if (!spans.empty() && spans.back().style == m_style
            && spans.back().start + spans.back().length == before) {
            spans.back().length += static_cast<std::uint32_t>(after - before);
            return;
        }
        spans.push_back({static_cast<std::uint32_t>(before),
                         static_cast<std::uint32_t>(after - before), m_style});
    }

    DecodedLine& m_line;
    TextStyle m_style;
};

// The bytes up to the next byte that needs care: ESC, a control, or the
// lead of a C1 control (U+0080-U+009F is C2 80-9F in UTF-8).
std::size_t plainRunEnd(std::string_view s, std::size_t i)
{
    for (; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == 0x1B || isShownControl(c) || c == 0xC2)
            return i;
    }
    return i;
}

void decodeBody(std::string_view s, Builder& out)
{
    std::size_t i = 0;
    while (i < s.size()) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == 0x1B) {
            const auto seq = logs::parseEscape(s, i);
            if (seq.sgr)
                logs::applySgr(seq.params, out.style());
            i += seq.length;
        } else if (isShownControl(c)) {
            out.appendControl(c);
            ++i;
        } else if (c == 0xC2 && i + 1 < s.size()
                   && (static_cast<unsigned char>(s[i + 1]) & 0xE0U) == 0x80U) {
            out.appendReplacement(); // C1 control
            i += 2;
        } else {
            const std::size_t end = plainRunEnd(s, i + 1);
            out.appendRun(s.substr(i, end - i));
            i = end;
        }
    }
}

} // namespace

std::size_t timestampPrefixLength(std::string_view s)
{
    // 2026-07-29T23:58:10.4613408Z, the fraction optional and 1-9 digits.
    if (s.size() < 20 || !digitsAt(s, 0, 4) || s[4] != '-' || !digitsAt(s, 5, 2) || s[7] != '-'
        || !digitsAt(s, 8, 2) || s[10] != 'T' || !digitsAt(s, 11, 2) || s[13] != ':'
        || !digitsAt(s, 14, 2) || s[16] != ':' || !digitsAt(s, 17, 2))
        return 0;
    std::size_t i = 19;
    if (i < s.size() && s[i] == '.') {
        std::size_t digits = 0;
        for (++i; i < s.size() && isDigit(s[i]) && digits < 9; ++i)
            ++digits;
        if (digits == 0)
            return 0;
    }
    if (i >= s.size() || s[i] != 'Z')
        return 0;
    ++i;
    if (i == s.size())
        return i;
    return s[i] == ' ' ? i + 1 : 0;
}

DecodedLine decodeLine(std::string_view raw)
{
    DecodedLine line;
    if (raw.substr(0, kBom.size()) == kBom)
        raw.remove_prefix(kBom.size());
    if (const std::size_t ts = timestampPrefixLength(raw); ts > 0) {
        line.timestamp.assign(raw.substr(0, raw[ts - 1] == ' ' ? ts - 1 : ts));
        raw.remove_prefix(ts);
    }
    for (const auto& m : kMarkers) {
        if (raw.substr(0, m.text.size()) == m.text) {
            line.kind = m.kind;
            raw.remove_prefix(m.text.size());
            break;
        }
    }
    line.text.reserve(raw.size());
    Builder builder(line);
    decodeBody(raw, builder);
    return line;
}

void stripEscapes(std::string_view raw, std::string& out)
{
    out.clear();
    std::size_t i = 0;
    while (i < raw.size()) {
        const std::size_t esc = raw.find(kEsc, i);
        if (esc == std::string_view::npos) {
            out.append(raw.substr(i));
            return;
        }
        out.append(raw.substr(i, esc - i));
        i = esc + logs::parseEscape(raw, esc).length;
    }
}

} // namespace relayhud
