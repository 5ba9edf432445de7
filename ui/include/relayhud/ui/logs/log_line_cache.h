#pragma once
// The lines the view has painted lately, decoded, keyed by line number: a
// repaint reads from the file only the visible lines it does not hold, with
// one read per run of adjacent lines. Least recently used lines go first,
// bounded both in lines and in characters (a screen of 64 KiB lines must
// not keep gigabytes alive).
#include "relayhud/ui/logs/display_line.h"

#include <list>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>

namespace relayhud::ui {

class LogLineCache {
public:
    explicit LogLineCache(std::size_t maxLines = 4096, std::size_t maxChars = 48u << 20);

    void setFile(std::shared_ptr<const LogFile> file);
    void clear();

    // Makes every line of `lines` (increasing) cached and most recently used;
    // reads the missing ones. Returns "" or why a read failed.
    std::string load(std::span<const LineNumber> lines);
    // A cached line, or nullptr.
    DisplayLine* find(LineNumber line);
    const DisplayLine* find(LineNumber line) const;

    std::size_t size() const { return m_lines.size(); }
    std::uint64_t readCount() const { return m_reads; } // file reads so far (tests)
    // The widest line decoded so far, in columns (the horizontal scroll range).
    int widestColumns() const { return m_widest; }

private:
    std::string readRun(LineNumber first, std::size_t count);
    void insert(DisplayLine line);
    void evict();

    std::shared_ptr<const LogFile> m_file;
    std::size_t m_maxLines;
    std::size_t m_maxChars;
    std::size_t m_chars = 0;
    std::list<DisplayLine> m_lines; // most recently used first
    std::unordered_map<std::uint64_t, std::list<DisplayLine>::iterator> m_byNumber;
    std::uint64_t m_reads = 0;
    int m_widest = 0;
};

} // namespace relayhud::ui
