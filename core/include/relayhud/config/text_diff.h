#pragma once
// Line diffs of a config before and after an edit: the unified diff a dry run
// prints (and `patch -p1` applies), and the changed line numbers tests check.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

// A line with its terminator ("\n", "\r\n" or "" for a last line without one).
std::vector<std::string_view> splitLines(std::string_view text);

struct LineChanges {
    std::vector<std::size_t> removed; // 1-based lines of `before` not kept
    std::vector<std::size_t> added;   // 1-based lines of `after` that are new
};

// A shortest edit script over whole lines (terminators included, so a changed
// line ending counts as a change).
LineChanges diffLines(std::string_view before, std::string_view after);

// `--- a/<path>`, `+++ b/<path>`, @@ hunks with `context` lines around each
// change, and "\ No newline at end of file" where a side lacks one. Empty when
// the texts are equal.
std::string unifiedDiff(std::string_view before, std::string_view after, std::string_view path,
                        std::size_t context = 3);

} // namespace relayhud::config
