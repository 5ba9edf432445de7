#pragma once
// crcr_workflow_job columns as the HUD's ClickHouse prints them, and the
// projection each saved query SELECTs (in SELECT order: ordered_json keeps it).
#include "relayhud/sim/sim_dataset.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace relayhud::sim {

using Json = nlohmann::ordered_json;

class ColumnSet {
public:
    // A SELECT list: comma-separated crcr_workflow_job columns (the ALIAS
    // duration_seconds included). An unknown name is
    // a programming error: it throws std::logic_error.
    explicit ColumnSet(std::string_view selectList);
    Json row(const SimRow& row) const;

private:
    using Getter = Json (*)(const SimRow&);
    std::vector<std::pair<std::string, Getter>> m_columns;
};

// duration_seconds: dateDiff(second, started_at, completed_at), 0 when unfinished.
EpochSeconds durationSeconds(const SimRow& row);

} // namespace relayhud::sim
