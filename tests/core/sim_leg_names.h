#pragma once
// Read from a simulated dataset itself (not from the app): the repositories
// whose matrix legs report under one job name, i.e. one run, attempt and job
// name with several check runs. The integration doctor's tests compare
// what it finds (in workflows, in the cache) with this.
#include "relayhud/sim/sim_dataset.h"

#include <map>
#include <set>
#include <string>

namespace relayhud::testing {

inline std::set<std::string> reposWithSharedLegNames(const sim::SimDataset& data)
{
    std::map<std::string, std::set<std::string>> checkRuns;
    for (const sim::SimRow& row : data.rows)
        checkRuns[row.run.downstreamRepo + "|" + row.run.runId + "|"
                  + std::to_string(row.run.runAttempt) + "|" + row.run.jobName]
            .insert(row.run.checkRunId.value);
    std::set<std::string> repos;
    for (const auto& [key, ids] : checkRuns)
        if (ids.size() > 1)
            repos.insert(key.substr(0, key.find('|')));
    return repos;
}

} // namespace relayhud::testing
