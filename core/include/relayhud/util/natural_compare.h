#pragma once
#include <string_view>

namespace relayhud {

// Orders text with embedded numbers as a person would:
// "test (default, 2, 12)" before "test (default, 10, 12)".
bool naturalLess(std::string_view a, std::string_view b);

} // namespace relayhud
