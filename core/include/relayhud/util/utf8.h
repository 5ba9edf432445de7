#pragma once
// UTF-8 hygiene for text that comes from CI (test names, failure messages):
// it must be valid before it reaches SQLite, JSON or a Qt string, where
// invalid bytes either fail loudly or vanish silently.
#include <cstddef>
#include <string>
#include <string_view>

namespace relayhud {

bool isValidUtf8(std::string_view text);

// Appends `text` to `out`, replacing each maximal ill-formed subsequence with
// U+FFFD (the Unicode "substitution of maximal subparts" practice, which is
// also what browsers and Python's errors="replace" do).
void appendSanitizedUtf8(std::string& out, std::string_view text);
std::string sanitizeUtf8(std::string_view text);

// The longest prefix of `text` no longer than `maxBytes` that does not end in
// the middle of a multi-byte sequence (judged by continuation bytes only, so
// it is also safe on text that is not yet sanitised).
std::string_view utf8Prefix(std::string_view text, std::size_t maxBytes);

} // namespace relayhud
