#pragma once
// relayhud-sim's command line, parsed in core so it can be tested without
// starting a process.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/util/result.h"

#include <string>
#include <vector>

namespace relayhud::sim {

struct SimOptions {
    SimConfig config;
    FaultConfig faults;          // faults.seed follows --seed
    SimStoreSettings stores;     // credentials of the simulated artifact stores
    int port = 0;                // 0 = any free port
    bool exitOnStdinEof = false; // a parent that dies closes our stdin: follow it
    bool help = false;
    std::string writeConfigsDir; // set: write the outcome configs there and exit
    std::string writeTruthFile;  // set: write the ground truth (sim_truth.h) there first
};

// args exclude the program name. Accepts "--flag value" and "--flag=value".
// The error is one line naming the flag and what it expects.
Result<SimOptions> parseSimOptions(const std::vector<std::string>& args);

std::string simUsage();

} // namespace relayhud::sim
