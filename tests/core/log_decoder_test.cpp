// decodeLine(): GitHub Actions prefixes and markers, ANSI styles, stripped
// escapes, visible controls, UTF-8 repair, and linear time on floods.
#include "relayhud/logs/line_decoder.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace relayhud;

namespace {

TextStyle fg(std::uint8_t index)
{
    TextStyle s;
    s.foreground = Color::palette(index);
    return s;
}

TEST(LineDecoder, TimestampGoesToItsOwnField)
{
    const auto d = decodeLine("2026-07-29T23:58:10.4613408Z hello world");
    EXPECT_EQ(d.timestamp, "2026-07-29T23:58:10.4613408Z");
    EXPECT_EQ(d.text, "hello world");
    EXPECT_EQ(d.kind, LineKind::Normal);

    const auto empty = decodeLine("2026-07-29T23:58:10.4613408Z ");
    EXPECT_EQ(empty.timestamp, "2026-07-29T23:58:10.4613408Z");
    EXPECT_EQ(empty.text, "");
    EXPECT_EQ(decodeLine("2026-07-29T23:58:10Z x").timestamp, "2026-07-29T23:58:10Z");
}

TEST(LineDecoder, NotATimestampStaysText)
{
    for (const char* text : {"2026-07-29 23:58:10.4613408Z x", "2026-07-29T23:58:10.4613408 x",
                             "2026-07-29T23:58:10.4613408Zx", "  2026-07-29T23:58:10.4613408Z x",
                             "2026-7-29T23:58:10.4613408Z x"}) {
        const auto d = decodeLine(text);
        EXPECT_EQ(d.timestamp, "") << text;
        EXPECT_EQ(d.text, text);
    }
    EXPECT_EQ(timestampPrefixLength("2026-07-29T23:58:10.4613408Z a"), 29U);
    EXPECT_EQ(timestampPrefixLength("2026-07-29T23:58:10.4613408Z"), 28U);
}

TEST(LineDecoder, ByteOrderMarkBeforeTheFirstTimestampIsDropped)
{
    const auto d = decodeLine("\xEF\xBB\xBF"
                              "2026-07-30T10:33:37.0347135Z Current runner version");
    EXPECT_EQ(d.timestamp, "2026-07-30T10:33:37.0347135Z");
    EXPECT_EQ(d.text, "Current runner version");
}

TEST(LineDecoder, MarkersGiveTheKind)
{
    const std::string ts = "2026-07-29T23:58:10.4613408Z ";
    struct Case {
        std::string raw;
        LineKind kind;
        std::string text;
    };
    for (const auto& c : std::vector<Case>{
             {ts + "##[group]Run actions/checkout@v4", LineKind::GroupStart,
              "Run actions/checkout@v4"},
             {ts + "##[endgroup]", LineKind::GroupEnd, ""},
             {ts + "##[error]Process completed with exit code 1.", LineKind::Error,
              "Process completed with exit code 1."},
             {ts + "##[warning]Back off 23.854 seconds before retry.", LineKind::Warning,
              "Back off 23.854 seconds before retry."},
             {ts + "##[notice]note", LineKind::Notice, "note"},
             {ts + "##[debug]dbg", LineKind::Debug, "dbg"},
             {ts + "[command]/usr/bin/git version", LineKind::Command, "/usr/bin/git version"},
             {"##[error]no timestamp", LineKind::Error, "no timestamp"},
             {ts + "text ##[error] later", LineKind::Normal, "text ##[error] later"},
         }) {
        const auto d = decodeLine(c.raw);
        EXPECT_EQ(d.kind, c.kind) << c.raw;
        EXPECT_EQ(d.text, c.text) << c.raw;
    }
}

TEST(LineDecoder, BasicColoursBecomeSpans)
{
    const auto d = decodeLine("plain \x1b[31mred\x1b[0m plain \x1b[1;32mbold green\x1b[m end");
    EXPECT_EQ(d.text, "plain red plain bold green end");
    ASSERT_EQ(d.spans.size(), 2U);
    EXPECT_EQ(d.spans[0], (StyleSpan{6, 3, fg(1)}));
    TextStyle boldGreen = fg(2);
    boldGreen.bold = true;
    EXPECT_EQ(d.spans[1], (StyleSpan{16, 10, boldGreen}));
}

TEST(LineDecoder, BrightExtendedAndTrueColours)
{
    const auto d = decodeLine("\x1b[91ma\x1b[38;5;208mb\x1b[38;2;10;20;30mc\x1b[48:2::1:2:3md"
                              "\x1b[0;104me\x1b[38:5:99mf");
    EXPECT_EQ(d.text, "abcdef");
    ASSERT_EQ(d.spans.size(), 6U);
    EXPECT_EQ(d.spans[0].style.foreground, Color::palette(9));
    EXPECT_EQ(d.spans[1].style.foreground, Color::palette(208));
    EXPECT_EQ(d.spans[2].style.foreground, Color::rgb(10, 20, 30));
    EXPECT_EQ(d.spans[3].style.foreground, Color::rgb(10, 20, 30));
    EXPECT_EQ(d.spans[3].style.background, Color::rgb(1, 2, 3));
    EXPECT_EQ(d.spans[4].style.foreground, Color{});
    EXPECT_EQ(d.spans[4].style.background, Color::palette(12));
    EXPECT_EQ(d.spans[5].style.foreground, Color::palette(99));
}

TEST(LineDecoder, AttributesSetAndReset)
{
    const auto d = decodeLine("\x1b[1;3;4;7;9ma\x1b[22;23mb\x1b[24;27;29mc\x1b[2md\x1b[22;39;49me");
    EXPECT_EQ(d.text, "abcde");
    // c and e are back to the default style: no span.
    ASSERT_EQ(d.spans.size(), 3U);
    const TextStyle a = d.spans[0].style;
    EXPECT_TRUE(a.bold && a.italic && a.underline && a.inverse && a.strike);
    const TextStyle b = d.spans[1].style;
    EXPECT_TRUE(!b.bold && !b.italic && b.underline && b.inverse && b.strike);
    TextStyle dim;
    dim.dim = true;
    EXPECT_EQ(d.spans[2], (StyleSpan{3, 1, dim}));
}

TEST(LineDecoder, NonColourEscapesAreRemovedNotObeyed)
{
    const std::string raw = "a\x1b[2Kb\x1b[10;20Hc\x1b[?25ld\x1b]0;title\x07"
                            "e\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\"
                            "f\x1b(Bg\x1b"
                            "7h\x1bPdcs string\x1b\\i\x1b";
    const auto d = decodeLine(raw);
    EXPECT_EQ(d.text, "abcdelinkfghi");
    EXPECT_TRUE(d.spans.empty());
    std::string stripped;
    stripEscapes(raw, stripped);
    EXPECT_EQ(stripped, "abcdelinkfghi");
}

TEST(LineDecoder, MalformedSequencesStopAtTheOddByte)
{
    // CSI broken by a control byte: the byte is handled as a control.
    EXPECT_EQ(decodeLine("x\x1b[31\ty").text, "x\ty");
    // An unterminated OSC runs to the end of the line.
    EXPECT_EQ(decodeLine("x\x1b]8;;http://never-closed").text, "x");
    // ESC before a non-ASCII byte is a lone ESC.
    EXPECT_EQ(decodeLine("x\x1b\xC3\xA9").text, "x\xC3\xA9");
}

TEST(LineDecoder, ControlCharactersAreShownAsPictures)
{
    const std::string raw("a\0b\x07"
                          "c\td\x7f",
                          8);
    const auto d = decodeLine(raw);
    EXPECT_EQ(d.text, "a\xE2\x90\x80"
                      "b\xE2\x90\x87"
                      "c\td\xE2\x90\xA1");
    // C1 controls (U+0085 NEXT LINE here) are replaced.
    EXPECT_EQ(decodeLine("a\xC2\x85"
                         "b")
                  .text,
              "a\xEF\xBF\xBD"
              "b");
}

TEST(LineDecoder, InvalidUtf8BecomesReplacementCharacters)
{
    const auto d = decodeLine("\xff ok \xC3\xA9 \xE2\x82 end \xC3");
    EXPECT_EQ(d.text, "\xEF\xBF\xBD ok \xC3\xA9 \xEF\xBF\xBD end \xEF\xBF\xBD");
}

TEST(LineDecoder, StylesCoverPicturesAndReplacements)
{
    const auto d = decodeLine(std::string("\x1b[31m\0\xff", 7));
    EXPECT_EQ(d.text, "\xE2\x90\x80\xEF\xBF\xBD");
    ASSERT_EQ(d.spans.size(), 1U);
    EXPECT_EQ(d.spans[0], (StyleSpan{0, 6, fg(1)}));
}

double decodeSeconds(const std::string& raw)
{
    const auto start = std::chrono::steady_clock::now();
    const auto d = decodeLine(raw);
    EXPECT_LE(d.text.size(), raw.size() * 3);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Floods of every kind of sequence: time grows with the length, not faster.
TEST(LineDecoder, EscapeFloodsStayLinear)
{
    for (const std::string& unit :
         {std::string("\x1b[31m"), std::string("\x1b[31mx"), std::string("\x1b["),
          std::string("\x1b]"), std::string("\x1b[1;2;3;4;5;6;7;8;9;38;2;1;2;3m"),
          std::string("\x1b\x1b"), std::string("\x1b(")}) {
        std::string small;
        std::string big;
        for (int i = 0; i < 100000; ++i)
            small += unit;
        for (int i = 0; i < 800000; ++i)
            big += unit;
        const double t1 = decodeSeconds(small);
        const double t8 = decodeSeconds(big);
        // Loose enough for sanitizer builds; a quadratic decoder takes hours.
        EXPECT_LT(t8, 5.0) << "unit of " << unit.size() << " bytes";
        EXPECT_LT(t8, 40 * t1 + 0.05) << "unit of " << unit.size() << " bytes";
    }
}

TEST(LineDecoder, ColourFloodMakesFewSpans)
{
    std::string raw;
    for (int i = 0; i < 10000; ++i)
        raw += "\x1b[3" + std::to_string(i % 8) + "m";
    raw += "text";
    const auto d = decodeLine(raw);
    EXPECT_EQ(d.text, "text");
    ASSERT_EQ(d.spans.size(), 1U);
    EXPECT_EQ(d.spans[0].style, fg(7));
}

} // namespace
