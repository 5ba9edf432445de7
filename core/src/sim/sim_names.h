#pragma once
// Plausible human text for the simulated world: PR titles, GitHub logins and
// the ids of tests that fail. Invented from word lists; all drawn from the
// caller's PRNG so the dataset stays deterministic.
#include "sim_random.h"

#include <string>

namespace relayhud::sim {

std::string makePrTitle(SplitMix64& rng);
std::string makeAuthor(SplitMix64& rng);
// A pytest node id as the backend's report names it, e.g.
// "test_ops.py::TestCommonPRIVATEUSE1::test_compare_cpu_addmm_spyre_float16".
std::string makeFailingTest(SplitMix64& rng, const std::string& device);

} // namespace relayhud::sim
