#pragma once
// The world every test lives in: the instant the simulated worlds are
// anchored at, and the backends most tests are about.
#include "relayhud/util/time.h"

#include <string>

namespace relayhud::test {

// 2026-05-04T17:00:00Z, a Monday afternoon: nothing about the tests' results
// may depend on the real time they run at.
inline constexpr EpochSeconds kNow = 1777914000;

inline const std::string kSpyre = "torch-spyre/torch-spyre";
inline const std::string kAscend = "Ascend/pytorch";

} // namespace relayhud::test
