#pragma once
// The text side of a mode edit: splices that change an entry's mode, move a
// method's name items (with the comment lines directly above each) into a
// sibling or a new entry, or add a new entry after an entry or first in the
// section. Each returns the splices or why the text's layout does not allow
// it; config_edit.cpp decides which to try and proves the result.
#include "config_text.h"

#include "relayhud/config/outcome_config.h"
#include "relayhud/util/result.h"

#include <string>
#include <vector>

namespace relayhud::config {

// "line 12", as edit messages name a place.
inline std::string lineRef(std::size_t line) { return "line " + std::to_string(line); }

class EditPlanner {
public:
    EditPlanner(const ConfigText& text, const FileSection& file, Mode target,
                std::string rationale);

    // The entry's `mode:` (added when absent) becomes the target.
    Result<std::vector<Splice>> setEntryMode(std::size_t entryIndex) const;
    // Moves the entry's name items `names` out: into the nearest entry below
    // with the same keys and the target mode when `toSibling` and one exists,
    // else into a new entry right after the source, with its other keys.
    Result<std::vector<Splice>>
    moveNames(std::size_t entryIndex, const std::vector<std::size_t>& names, bool toSibling) const;
    // A new entry listing `name` with the target mode and the other keys of
    // `copyFrom` (none: just names and mode): after entry `after` (none:
    // after the last entry) or, with `first`, before the section's first.
    Result<std::vector<Splice>> addEntry(const std::string& name,
                                         std::optional<std::size_t> copyFrom,
                                         std::optional<std::size_t> after, bool first) const;

private:
    struct Layout {
        std::size_t start = 0;   // the `- names:` line
        std::size_t end = 0;     // last content line
        std::size_t dashCol = 0; // 0-based columns
        std::size_t keyCol = 0;
        std::size_t namesEnd = 0; // first line after the names list (a key, or end + 1)
    };
    Result<Layout> layoutOf(const TestEntry& entry) const;
    Result<std::size_t> itemColumn(const NameItem& item) const;
    std::size_t commentsAbove(std::size_t line) const; // first comment line directly above
    std::string comment(std::size_t col) const;
    std::string modeLine(std::size_t col) const;
    Result<std::vector<std::string>> entryLines(const std::string& dashPrefix,
                                                std::vector<std::string> itemLines,
                                                std::optional<std::size_t> copyFrom,
                                                std::size_t keyCol) const;
    const TestEntry* findSibling(std::size_t entryIndex) const;

    const ConfigText& m_text;
    const FileSection& m_file;
    Mode m_target;
    std::string m_rationale;
};

} // namespace relayhud::config
