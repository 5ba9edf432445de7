#pragma once
// Reading a failure's message as a person does.
#include <string_view>

namespace relayhud {

// The first line of a message that says something: blank lines, lines of
// punctuation only ("----", "====") and a bare "Traceback (most recent call
// last):" are skipped; the line is trimmed. "" when there is none.
std::string_view firstMeaningfulLine(std::string_view message);

} // namespace relayhud
