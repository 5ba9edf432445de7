#pragma once
// One letter per test outcome, for tests that write histories by hand:
// {P, F, P, X} reads as the runs' outcomes, oldest first.
#include "relayhud/model/test_result.h"

namespace relayhud::test::outcome_letters {

inline constexpr auto P = TestOutcome::Passed;
inline constexpr auto F = TestOutcome::Failed;
inline constexpr auto E = TestOutcome::Error;
inline constexpr auto S = TestOutcome::Skipped;
inline constexpr auto XF = TestOutcome::XFailed;
inline constexpr auto X = TestOutcome::XPassStrict;

} // namespace relayhud::test::outcome_letters
