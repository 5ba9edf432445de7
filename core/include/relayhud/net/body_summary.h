#pragma once
// A one-line summary of an HTTP error body, so that an error message names
// the cause without dumping 50 KB of HTML into the UI or a log.
#include <cstddef>
#include <string>

namespace relayhud::net {

// The <title> of an HTML page (or its text without tags), the "message" of a
// JSON error (GitHub, the HUD), otherwise the body itself; control characters
// removed, whitespace collapsed, at most maxChars bytes (never cutting a
// UTF-8 sequence in half).
std::string summarizeBody(const std::string& body, const std::string& contentType,
                          std::size_t maxChars = 200);

} // namespace relayhud::net
