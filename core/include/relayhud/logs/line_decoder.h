#pragma once
// Decoding one raw line of a GitHub Actions log for display: a pure function,
// so the view calls it on the lines it paints and nothing else.
//
//  - The timestamp prefix the runner writes ("2026-07-29T23:58:10.4613408Z ")
//    goes to its own field (shown in a column or hidden); a UTF-8 byte order
//    mark before it (the first line of a downloaded log) is dropped.
//  - Markers: "##[group]Title" and "##[endgroup]" (folding; see
//    log_structure.h for the group list), "##[error]", "##[warning]",
//    "##[notice]", "##[debug]", "##[command]" and the runner's "[command]"
//    give the line's kind and are removed from the text, as GitHub shows them.
//  - ANSI SGR sequences (ESC [ ... m) become style spans over the text: 8, 16,
//    256 and 24-bit colours for foreground and background, bold, dim, italic,
//    underline, inverse, strike-through, resets.
//  - Every other escape sequence is removed, never interpreted: CSI cursor
//    moves and erases, OSC (titles, ESC]8;;url hyperlinks: the link text
//    stays), DCS/SOS/PM/APC strings, charset selections, lone ESC bytes.
//  - Control characters are shown, not obeyed: C0 controls other than TAB
//    become the Unicode "control pictures" (NUL -> U+2400 "␀", BEL -> U+2407,
//    ... ) and DEL becomes U+2421 "␡"; C1 controls (U+0080-U+009F, which some
//    renderers treat as line breaks) become U+FFFD.
//  - Invalid UTF-8 becomes U+FFFD, one per maximal ill-formed subsequence.
// Time is linear in the line's length whatever it holds (escape floods
// included), and spans are only made where text is, so a flood of colour
// changes without text costs nothing after decoding.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

enum class LineKind : std::uint8_t {
    Normal,
    GroupStart, // text = the group's title
    GroupEnd,
    Error,
    Warning,
    Notice,
    Debug,
    Command,
};

struct Color {
    enum class Kind : std::uint8_t { Default, Palette, Rgb };
    Kind kind = Kind::Default;
    // Palette: 0-7 the standard colours (SGR 30-37), 8-15 the bright ones
    // (90-97), 16-231 the xterm 6x6x6 cube, 232-255 the grey ramp.
    std::uint8_t index = 0;
    std::uint8_t red = 0, green = 0, blue = 0; // Rgb
    bool operator==(const Color&) const = default;

    static Color palette(std::uint8_t i) { return {Kind::Palette, i, 0, 0, 0}; }
    static Color rgb(std::uint8_t r, std::uint8_t g, std::uint8_t b)
    {
        return {Kind::Rgb, 0, r, g, b};
    }
};

struct TextStyle {
    Color foreground;
    Color background;
    bool bold = false;
    bool dim = false;
    bool italic = false;
    bool underline = false;
    bool inverse = false;
    bool strike = false;
    bool operator==(const TextStyle&) const = default;
    bool isDefault() const { return *this == TextStyle{}; }
};

// A styled stretch of DecodedLine::text, in UTF-8 bytes. Text outside every
// span has the default style.
struct StyleSpan {
    std::uint32_t start = 0;
    std::uint32_t length = 0;
    TextStyle style;
    bool operator==(const StyleSpan&) const = default;
};

struct DecodedLine {
    std::string timestamp; // "2026-07-29T23:58:10.4613408Z"; empty when the line has none
    LineKind kind = LineKind::Normal;
    std::string text; // valid UTF-8 without control characters (TAB kept)
    std::vector<StyleSpan> spans;
};

DecodedLine decodeLine(std::string_view raw);

// The length of the timestamp prefix at the start of `raw` (its trailing space
// included), 0 when there is none.
std::size_t timestampPrefixLength(std::string_view raw);

// `raw` without its escape sequences and nothing else changed (the same
// sequences decodeLine() removes or turns into styles). Search matches
// against this text; see log_search.h.
void stripEscapes(std::string_view raw, std::string& out);

} // namespace relayhud
