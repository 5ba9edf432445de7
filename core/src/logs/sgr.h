#pragma once
// Applying an SGR parameter string ("1;31", "38;5;208", "38:2::255:128:0",
// "" = reset) to a text style.
#include "relayhud/logs/line_decoder.h"

#include <string_view>

namespace relayhud::logs {

void applySgr(std::string_view params, TextStyle& style);

} // namespace relayhud::logs
