#pragma once
// Recognising ECMA-48 escape sequences just well enough to remove them: every
// sequence is skipped whole, none is interpreted except SGR (the caller's
// job). Each call consumes what it looks at, so scanning stays linear even
// on unterminated or malformed sequences.
#include <cstddef>
#include <string_view>

namespace relayhud::logs {

inline constexpr char kEsc = '\x1b';

struct EscapeSequence {
    std::size_t length = 1;  // bytes from the ESC, at least 1
    bool sgr = false;        // ESC [ params m: a colour or attribute change
    std::string_view params; // for SGR: the bytes between '[' and 'm'
};

// The sequence that starts at text[at] (which must be ESC). A sequence never
// spans a line break, so text may hold several lines.
EscapeSequence parseEscape(std::string_view text, std::size_t at);

// Removes the escape sequences from data[0, size) in place, lines and all;
// returns the new size. Line breaks are kept, so line numbers do not change.
std::size_t stripEscapesInPlace(char* data, std::size_t size);

} // namespace relayhud::logs
