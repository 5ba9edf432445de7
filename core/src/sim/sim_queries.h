#pragma once
// The HUD's saved ClickHouse queries (torchci/clickhouse_queries/crcr_*),
// evaluated over the dataset with the same filters, grouping, ordering and
// limits as their SQL. now() is the dataset's anchor (SimConfig::now), so an
// answer does not drift while the server runs. Where SQL leaves the order of
// ties open, newer rows (and higher PR numbers) come first.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/util/result.h"
#include "sim_columns.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace relayhud::sim {

class SimQueries {
public:
    explicit SimQueries(const SimDataset& dataset);

    bool has(std::string_view query) const;
    // `parameters` is the decoded ?parameters= object. An error means the
    // parameters are missing or malformed (HTTP 400).
    Result<Json> run(std::string_view query, const nlohmann::json& parameters) const;

private:
    Result<Json> backendDashboard(const nlohmann::json& p) const;
    Result<Json> nightlyDashboard(const nlohmann::json& p) const;
    Result<Json> prResults(const nlohmann::json& p) const;
    Result<Json> summary(const nlohmann::json& p) const;

    const std::vector<std::size_t>& rowsOf(const std::string& repo) const;
    // ORDER BY started_at DESC (ties: newest row first, so answers are stable).
    void sortNewestFirst(std::vector<std::size_t>& rows) const;
    Json project(const ColumnSet& columns, const std::vector<std::size_t>& rows) const;

    const SimDataset& m_data;
    std::unordered_map<std::string, std::vector<std::size_t>> m_byRepo;
    std::unordered_map<std::int64_t, std::vector<std::size_t>> m_byPr;
};

} // namespace relayhud::sim
