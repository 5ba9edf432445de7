#pragma once
// Orders names the way people read them: "test_x_2" before "test_x_10",
// letters without regard to case (case only breaks ties).
#include <string_view>

namespace relayhud::ui {

inline bool isAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// Negative, zero or positive, like strcmp. Runs of ASCII digits compare by
// value; other bytes compare ASCII case-insensitively; a full tie falls back
// to a plain byte comparison, so only equal strings compare equal.
int naturalCompare(std::string_view a, std::string_view b);

inline bool naturalLess(std::string_view a, std::string_view b) { return naturalCompare(a, b) < 0; }

} // namespace relayhud::ui
