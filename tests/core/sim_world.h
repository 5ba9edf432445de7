#pragma once
// The simulator's world of seed 1 anchored at the tests' "now", built once per
// test process, and its artifacts: what the simulator's own tests read.
#include "test_world.h"

#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_dataset.h"

namespace relayhud::test {

inline const sim::SimDataset& seedOneWorld()
{
    static const sim::SimDataset world = [] {
        sim::SimConfig config;
        config.seed = 1;
        config.now = kNow;
        return sim::buildDataset(config);
    }();
    return world;
}

inline const sim::SimArtifacts& seedOneArtifacts()
{
    static const sim::SimArtifacts artifacts(seedOneWorld());
    return artifacts;
}

} // namespace relayhud::test
