#include "relayhud/sim/sim_truth.h"

#include <nlohmann/json.hpp>

#include <fstream>

namespace relayhud::sim {

const std::vector<SimTruthLine>& groundTruth(const SimDataset& dataset) { return dataset.truth; }

std::string truthJsonLine(const SimTruthLine& line)
{
    nlohmann::ordered_json out{{"check_run_id", line.checkRunId.value},
                               {"test", line.test},
                               {"cause", std::string(simCauseName(line.cause))},
                               {"culprit_pr", nullptr}};
    if (line.culpritPr)
        out["culprit_pr"] = line.culpritPr.value;
    return out.dump();
}

Result<void> writeTruthFile(const SimDataset& dataset, const std::string& path)
{
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    if (!file)
        return makeError("cannot write the truth file " + path);
    for (const SimTruthLine& line : groundTruth(dataset))
        file << truthJsonLine(line) << '\n';
    file.close();
    if (!file)
        return makeError("writing the truth file " + path + " failed (disk full?)");
    return {};
}

} // namespace relayhud::sim
