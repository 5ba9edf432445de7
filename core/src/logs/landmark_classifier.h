#pragma once
// Turns candidate lines into landmarks and groups, in file order. The scan
// that feeds it finds candidates with candidatePattern() (a superset of
// what is classified here), so most lines are never looked at one by one.
#include "relayhud/logs/log_structure.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::logs {

class LandmarkClassifier {
public:
    // An RE2 pattern (multi-line) matching every line feed() may keep.
    static const std::string& candidatePattern();

    // One candidate line's raw bytes; lines come in increasing order.
    void feed(std::uint64_t line, std::string_view raw);
    // The scan ended with `lineCount` lines: an open group ends at the last.
    void finish(std::uint64_t lineCount);
    // Forgets what lines from `line` on said, so a scan can go on from there
    // (the log grew; its last line may have been incomplete).
    void forgetFrom(std::uint64_t line);

    const std::vector<Landmark>& landmarks() const { return m_landmarks; }
    // Groups so far; an open one ends, for now, at the last line fed.
    std::vector<LogGroup> groups() const;

private:
    void classifyText(std::uint64_t line, const std::string& text);
    void openGroup(std::uint64_t line, std::string title);
    void closeGroup(std::uint64_t line);
    bool exceptionEnds(std::uint64_t line, const std::string& text);
    void add(std::uint64_t line, LandmarkKind kind, std::string_view title,
             std::optional<std::uint64_t> firstLine = std::nullopt);

    std::vector<Landmark> m_landmarks;
    std::vector<LogGroup> m_groups;
    bool m_groupOpen = false;
    std::uint64_t m_lastLine = 0;
    std::optional<std::uint64_t> m_tracebackStart;
    std::optional<std::uint64_t> m_lastFrame;
};

} // namespace relayhud::logs
