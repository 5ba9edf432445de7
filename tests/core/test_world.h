#pragma once
// The world every test lives in: the instant it is "now" (each test main pins
// the process clock there, and the simulated worlds are anchored there), and
// the backend most tests are about.
#include "relayhud/util/time.h"

#include <string>

namespace relayhud::test {

// 2026-05-04T17:00:00Z, a Monday afternoon: nothing about the tests' results
// may depend on the real time they run at.
inline constexpr EpochSeconds kNow = 1777914000;

// The simulator's Spyre backend with an artifact URL per run and its stories
// (the real torch-spyre/torch-spyre reports otherwise: real_reporters_sim_test.cpp).
inline const std::string kSpyre = "spyre-labs/spyre-inductor-ci";
inline const std::string kAscend = "Ascend/pytorch";

// Each test main's first step: from here on the process's clock reads kNow
// and advances in real time (a test may still wait for a deadline).
inline void pinTestClock() { pinClock(kNow); }

} // namespace relayhud::test
