#pragma once
// What the simulator's server tests share: the world they serve, a saved
// query's URL as the HUD's client builds it, and a JSON object's keys in the
// order the server sent them.
#include "relayhud/sim/sim_dataset.h"
#include "test_world.h"

#include "relayhud/sim/httplib_quiet.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace relayhud::sim {

// The simulator's world of `seed` at the tests' "now".
inline SimDataset makeDataset(std::uint64_t seed = 1)
{
    SimConfig config;
    config.seed = seed;
    config.now = relayhud::test::kNow;
    return buildDataset(config);
}

// "/api/clickhouse/NAME?parameters=..." as torchci's client sends it.
inline std::string query(const std::string& name, const nlohmann::ordered_json& parameters)
{
    return "/api/clickhouse/" + name
           + "?parameters=" + httplib::detail::encode_query_param(parameters.dump());
}

inline std::vector<std::string> keysOf(const nlohmann::ordered_json& object)
{
    std::vector<std::string> out;
    for (const auto& item : object.items())
        out.push_back(item.key());
    return out;
}

} // namespace relayhud::sim
