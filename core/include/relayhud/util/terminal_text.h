#pragma once
// Text for a terminal from sources no one vetted (CI logs, JUnit messages,
// test names, server errors): controls are shown, not obeyed, as the log
// viewer shows them (logs/line_decoder.h). C0 controls other than TAB and LF
// become the Unicode control pictures (ESC -> U+241B "␛", so "ESC ] 52"
// clipboard writes, OSC 8 hyperlinks and window titles print as text; a bare
// CR -> "␍", so a name cannot return to the line's start and overwrite it), DEL
// becomes U+2421 "␡", and C1 controls (U+0080-U+009F in UTF-8, which some
// terminals obey as CSI or OSC) become U+FFFD. Everything else passes as is.
#include <streambuf>
#include <string>
#include <string_view>

namespace relayhud {

std::string visibleControls(std::string_view text);

// One field of a table row or a TSV line from outside text (a test name, a
// job name, a message): TAB, LF and CR become their control pictures ("␉",
// "␊", "␍"), so one test stays one row in a pipe as on a terminal, and the
// name stays readable as itself. Other controls pass: a pipe gets them as they
// are, a terminal shows them through visibleControls.
std::string oneLine(std::string_view text);

// A stream buffer that writes to `target` through visibleControls, keeping
// a UTF-8 lead byte split across writes until its next byte decides.
class VisibleControlsBuf : public std::streambuf {
public:
    explicit VisibleControlsBuf(std::streambuf* target) : m_target(target) {}
    ~VisibleControlsBuf() override;
    VisibleControlsBuf(const VisibleControlsBuf&) = delete;
    VisibleControlsBuf& operator=(const VisibleControlsBuf&) = delete;

protected:
    int_type overflow(int_type c) override;
    std::streamsize xsputn(const char* s, std::streamsize n) override;
    int sync() override;

private:
    void put(std::string_view text);

    std::streambuf* m_target;
    bool m_pendingLead = false; // a 0xC2 byte not written yet
};

} // namespace relayhud
