// CI text printed to a terminal (util/terminal_text.h): controls shown as
// the log viewer shows them, never obeyed, also when a write splits them.
#include "relayhud/util/terminal_text.h"

#include <gtest/gtest.h>

#include <sstream>

namespace {

using relayhud::visibleControls;
using relayhud::VisibleControlsBuf;

TEST(TerminalText, EscapesHyperlinksClipboardWritesAndTitlesPrintAsText)
{
    // OSC 52 (clipboard), OSC 8 (hyperlink), OSC 0 (title), a CSI colour.
    EXPECT_EQ(visibleControls("\x1b]52;c;ZWNobyBwd25lZA==\x07"),
              "\u241b]52;c;ZWNobyBwd25lZA==\u2407");
    EXPECT_EQ(visibleControls("\x1b]8;;http://evil\x1b\\click\x1b]8;;\x1b\\"),
              "\u241b]8;;http://evil\u241b\\click\u241b]8;;\u241b\\");
    EXPECT_EQ(visibleControls("\x1b]0;pwned\x07"), "\u241b]0;pwned\u2407");
    EXPECT_EQ(visibleControls("\x1b[31mred\x1b[0m"), "\u241b[31mred\u241b[0m");
    EXPECT_EQ(visibleControls(std::string("a\0b", 3)), "a\u2400b");
    EXPECT_EQ(visibleControls("del\x7f"), "del\u2421");
    EXPECT_EQ(visibleControls("back\bspace"), "back\u2408space");
}

TEST(TerminalText, C1ControlsBecomeReplacementCharactersAndTheRestPasses)
{
    EXPECT_EQ(visibleControls("\xc2\x9b"
                              "31m"),
              "\ufffd31m"); // C1 CSI
    EXPECT_EQ(visibleControls("\xc2\x9d"
                              "0;t\xc2\x9c"),
              "\ufffd0;t\ufffd"); // OSC .. ST
    EXPECT_EQ(visibleControls("caf\xc3\xa9 \xc2\xa0nbsp \xe2\x9c\x93"),
              "caf\xc3\xa9 \xc2\xa0nbsp \xe2\x9c\x93");
    EXPECT_EQ(visibleControls("tab\there\nnext\n"), "tab\there\nnext\n");
    EXPECT_EQ(visibleControls("ends with \xc2"), "ends with \xc2");
}

TEST(TerminalText, ABareCarriageReturnIsShownNotObeyed)
{
    // "\r" returns to the line's start: a name could overwrite what came before.
    EXPECT_EQ(visibleControls("failed  test_a\rpassed  test_a\n"),
              "failed  test_a\u240dpassed  test_a\n");
    EXPECT_EQ(visibleControls("crlf\r\n"), "crlf\u240d\n");
}

TEST(TerminalText, OneFieldStaysOneRowAndKeepsItsOtherBytes)
{
    EXPECT_EQ(relayhud::oneLine("test_a\npassed  fake::row"), "test_a\u240apassed  fake::row");
    EXPECT_EQ(relayhud::oneLine("col\tumn\rx"), "col\u2409umn\u240dx");
    EXPECT_EQ(relayhud::oneLine("esc \x1b[31m stays for the terminal guard"),
              "esc \x1b[31m stays for the terminal guard");
    EXPECT_EQ(relayhud::oneLine("caf\xc3\xa9"), "caf\xc3\xa9");
}

TEST(TerminalText, AStreamBufferKeepsALeadByteSplitAcrossWrites)
{
    std::ostringstream target;
    {
        VisibleControlsBuf buf(target.rdbuf());
        std::ostream out(&buf);
        out << "one\xc2";
        out << "\x9b"
               "2J two \xc2";
        out << "\xa0"
               "three \x1b"
            << '[' << "K";
        out.put('\x07');
        out << "\xc2";
    }
    EXPECT_EQ(target.str(), "one\ufffd2J two \xc2\xa0three \u241b[K\u2407\xc2");
}

} // namespace
