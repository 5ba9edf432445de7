#pragma once
// Plausible human text for the simulated world: PR titles and GitHub logins.
// Invented from word lists; all drawn from the caller's PRNG so the dataset
// stays deterministic.
#include "sim_random.h"

#include <string>

namespace relayhud::sim {

std::string makePrTitle(SplitMix64& rng);
std::string makeAuthor(SplitMix64& rng);

} // namespace relayhud::sim
