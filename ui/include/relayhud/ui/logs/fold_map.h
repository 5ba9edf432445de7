#pragma once
// Rows of a log with GitHub Actions groups folded: a folded group shows its
// "##[group]" header line and hides the rest. Groups come from LogStructure
// (flat, in file order) and grow while the scan runs; what is folded is kept
// by the header's line, so it survives those updates.
#include "relayhud/logs/log_structure.h"
#include "relayhud/ui/logs/row_map.h"

#include <optional>
#include <set>
#include <vector>

namespace relayhud::ui {

class FoldMap : public RowMap {
public:
    void setLineCount(std::uint64_t lines);
    void setGroups(std::vector<LogGroup> groups);
    void clear();

    const std::vector<LogGroup>& groups() const { return m_groups; }
    // The group whose header is `line`.
    const LogGroup* groupStartingAt(LineNumber line) const;
    // The group whose lines include `line` (header included).
    const LogGroup* groupContaining(LineNumber line) const;

    bool isFolded(LineNumber groupStart) const;
    // O(folded groups) each: a click folds one; setAllFolded() is one pass.
    void setFolded(LineNumber groupStart, bool folded);
    void setAllFolded(bool folded);
    bool anyFolded() const { return !m_folded.empty(); }

    std::uint64_t rowCount() const override;
    ViewRow rowAt(std::uint64_t row) const override;
    std::uint64_t rowOf(LineNumber line) const override;

private:
    struct Hidden {
        std::uint64_t header;       // the group's first line, still shown
        std::uint64_t last;         // its last hidden line
        std::uint64_t hiddenBefore; // lines hidden by earlier folds
        std::uint64_t headerRow() const { return header - hiddenBefore; }
        std::uint64_t hidden() const { return last - header; }
    };
    void rebuild();

    std::uint64_t m_lineCount = 0;
    std::vector<LogGroup> m_groups;
    std::set<std::uint64_t> m_folded; // header lines
    std::vector<Hidden> m_hidden;     // folded groups with lines to hide, in order
};

} // namespace relayhud::ui
