#include "logs/landmark_classifier.h"

#include "relayhud/logs/line_decoder.h"
#include "relayhud/util/utf8.h"

#include <re2/re2.h>

#include <algorithm>

namespace relayhud::logs {
namespace {

using re2::RE2;

constexpr std::size_t kTitleBytes = 300;
// An exception line ends a traceback when it comes this close after a frame
// (frame, source line, one or two caret lines).
constexpr std::uint64_t kFrameToException = 5;

struct Patterns {
    RE2 failedTest{R"(^FAILED (?:\[[^\]]*\] )?(\S+))"};
    RE2 buildFailed{R"(^FAILED: (?:\[[^\]]*\] )?(.*))"};
    RE2 errorTest{R"(^ERROR (\S*(?:::|\.py)\S*))"};
    RE2 section{R"(^_{3,} (.*[^_ ].*?) _{3,}\s*$)"};
    RE2 traceback{R"(^Traceback \(most recent call last\):)"};
    RE2 frame{R"(^[ \t]+File ")"};
    RE2 exception{R"(^[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Failed|Failure)\b)"};
    RE2 summary{R"(^=+ (.*\b\d+ (?:failed|errors?)\b.*?) =+\s*$)"};
    RE2 lint{R"(^[ \t]*Error \()"};
    RE2 compiler{R"(:\d+(?::\d+)?: (?:fatal )?error: |^CMake Error)"};
    RE2 signal{R"(Segmentation fault|Fatal Python error|\bKilled\b|\bsignal 11\b|)"
               R"(\bSIG(?:SEGV|ABRT|KILL|BUS|ILL|FPE)\b|core dumped|KeyboardInterrupt)"};
    RE2 timeout{R"(\bTimeout\b|timed out after|\b(?:exit code|returning) 124\b)"};
    // The runner's and pytorch's wrappers' closing words: they never say why.
    RE2 genericError{R"(^(?:Process completed with exit code \d+\.?\s*$|)"
                     R"(\[OSDC\] Step script exited with code \d+|)"
                     R"(Executing the custom container implementation failed))"};
};

const Patterns& patterns()
{
    static const Patterns p;
    return p;
}

std::string trimmed(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return std::string(utf8Prefix(text, kTitleBytes));
}

} // namespace

const std::string& LandmarkClassifier::candidatePattern()
{
    static const std::string pattern =
        R"(^(?:\x{FEFF})?(?:\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z ?)?(?:)"
        R"(##\[(?:group|endgroup|error)\]|FAILED\b|ERROR |Traceback \(most recent call last\)|)"
        R"([ \t]+File "|[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Failed|Failure)\b|)"
        R"(=+ .*\b\d+ (?:failed|errors?)\b|[ \t]*Error \(|CMake Error)|)"
        R"(_{3,} .*_{3,}|:\d+(?::\d+)?: (?:fatal )?error: |)"
        R"(Segmentation fault|Fatal Python error|\bKilled\b|\bsignal 11\b|)"
        R"(\bSIG(?:SEGV|ABRT|KILL|BUS|ILL|FPE)\b|core dumped|KeyboardInterrupt|)"
        R"(\bTimeout\b|timed out after|\b(?:exit code|returning) 124\b)";
    return pattern;
}

void LandmarkClassifier::add(std::uint64_t line, LandmarkKind kind, std::string_view title,
                             std::optional<std::uint64_t> firstLine)
{
    // A crash or a timeout is often told on several lines in a row; one stop
    // is enough. (Consecutive FAILED lines are different tests: kept.)
    const bool repeats = kind == LandmarkKind::Signal || kind == LandmarkKind::Timeout;
    if (repeats && !m_landmarks.empty() && m_landmarks.back().kind == kind
        && m_landmarks.back().line.value + 1 == line)
        return;
    m_landmarks.push_back(
        {LineNumber{line}, LineNumber{firstLine.value_or(line)}, kind, trimmed(title)});
}

void LandmarkClassifier::openGroup(std::uint64_t line, std::string title)
{
    if (m_groupOpen && line > 0)
        m_groups.back().end = LineNumber{line - 1};
    m_groups.push_back({LineNumber{line}, LineNumber{line}, trimmed(title), false});
    m_groupOpen = true;
}

void LandmarkClassifier::closeGroup(std::uint64_t line)
{
    if (!m_groupOpen)
        return;
    m_groups.back().end = LineNumber{line};
    m_groups.back().closed = true;
    m_groupOpen = false;
}

void LandmarkClassifier::feed(std::uint64_t line, std::string_view raw)
{
    m_lastLine = line;
    const DecodedLine decoded = decodeLine(raw);
    switch (decoded.kind) {
    case LineKind::GroupStart: openGroup(line, decoded.text); return;
    case LineKind::GroupEnd: closeGroup(line); return;
    case LineKind::Error:
        if (!RE2::PartialMatch(decoded.text, patterns().genericError))
            add(line, LandmarkKind::ErrorMarker, decoded.text);
        return;
    default: classifyText(line, decoded.text); return;
    }
}

// A traceback ends at the first exception line after its frames.
bool LandmarkClassifier::exceptionEnds(std::uint64_t line, const std::string& text)
{
    if (!m_lastFrame || line - *m_lastFrame > kFrameToException
        || !RE2::PartialMatch(text, patterns().exception))
        return false;
    const bool sameTraceback = m_tracebackStart && *m_tracebackStart < *m_lastFrame;
    add(line, LandmarkKind::Exception, text, sameTraceback ? *m_tracebackStart : *m_lastFrame);
    m_tracebackStart.reset();
    m_lastFrame.reset();
    return true;
}

void LandmarkClassifier::classifyText(std::uint64_t line, const std::string& text)
{
    const Patterns& p = patterns();
    std::string title;
    if (RE2::PartialMatch(text, p.buildFailed, &title))
        add(line, LandmarkKind::BuildError, title);
    else if (RE2::PartialMatch(text, p.failedTest, &title)
             || RE2::PartialMatch(text, p.errorTest, &title))
        add(line, LandmarkKind::TestFailed, title);
    else if (RE2::PartialMatch(text, p.section, &title))
        add(line, LandmarkKind::TestSection, title);
    else if (RE2::PartialMatch(text, p.traceback))
        m_tracebackStart = line;
    else if (RE2::PartialMatch(text, p.frame))
        m_lastFrame = line;
    else if (exceptionEnds(line, text))
        return;
    else if (RE2::PartialMatch(text, p.summary, &title))
        add(line, LandmarkKind::Summary, title);
    else if (RE2::PartialMatch(text, p.lint))
        add(line, LandmarkKind::LintError, text);
    else if (RE2::PartialMatch(text, p.compiler))
        add(line, LandmarkKind::BuildError, text);
    else if (RE2::PartialMatch(text, p.signal))
        add(line, LandmarkKind::Signal, text);
    else if (RE2::PartialMatch(text, p.timeout))
        add(line, LandmarkKind::Timeout, text);
}

void LandmarkClassifier::finish(std::uint64_t lineCount)
{
    if (lineCount > 0)
        m_lastLine = std::max(m_lastLine, lineCount - 1);
}

void LandmarkClassifier::forgetFrom(std::uint64_t line)
{
    while (!m_landmarks.empty() && m_landmarks.back().line.value >= line)
        m_landmarks.pop_back();
    while (!m_groups.empty() && m_groups.back().start.value >= line) {
        m_groups.pop_back();
        m_groupOpen = false;
    }
    if (!m_groups.empty() && m_groups.back().end.value >= line) {
        // Closed by a line now forgotten, or ended for now at the last line.
        m_groups.back().end = LineNumber{line > 0 ? line - 1 : 0};
        m_groups.back().closed = false;
        m_groupOpen = true;
    }
    if (m_tracebackStart && *m_tracebackStart >= line)
        m_tracebackStart.reset();
    if (m_lastFrame && *m_lastFrame >= line)
        m_lastFrame.reset();
    m_lastLine = std::min(m_lastLine, line > 0 ? line - 1 : 0);
}

std::vector<LogGroup> LandmarkClassifier::groups() const
{
    std::vector<LogGroup> out = m_groups;
    if (m_groupOpen && out.back().end.value < m_lastLine)
        out.back().end = LineNumber{m_lastLine};
    return out;
}

} // namespace relayhud::logs
