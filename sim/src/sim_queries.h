#pragma once
// The HUD's saved ClickHouse queries (torchci/clickhouse_queries/crcr_*/
// query.sql and params.json, pytorch/test-infra @61a77570), evaluated over
// the dataset with the same SELECT lists, filters, grouping, ordering and
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

// The downstream the relay's own probes report from (pytorch/test-infra
// torchci/clickhouse_queries/crcr_summary/query.sql @61a77570).
inline constexpr std::string_view kProbeRepo = "pytorch/crcr-test";

class SimQueries {
public:
    explicit SimQueries(const SimDataset& dataset);

    // The saved queries the simulator serves (every crcr_* one of test-infra).
    static const std::vector<std::string_view>& names();
    bool has(std::string_view query) const;
    // `parameters` is the decoded ?parameters= value. An error means the HUD
    // would throw (unknown query, a missing parameter, a value ClickHouse
    // cannot read as the parameter's type): the route answers 500.
    Result<Json> run(std::string_view query, const nlohmann::json& parameters) const;

private:
    Result<Json> backendDashboard(const nlohmann::json& p) const;
    Result<Json> nightlyDashboard(const nlohmann::json& p) const;
    Result<Json> prResults(const nlohmann::json& p) const;
    Result<Json> summary(const nlohmann::json& p) const;
    Result<Json> backendSummary(const nlohmann::json& p) const;
    Result<Json> nightlySummary(const nlohmann::json& p) const;
    Result<Json> successRate(const nlohmann::json& p) const;
    Result<Json> healthLastPrs(const nlohmann::json& p) const;
    Result<Json> hudResults(const nlohmann::json& p) const;

    const std::vector<std::size_t>& rowsOf(const std::string& repo) const;
    // ORDER BY started_at DESC (ties: newest row first, so answers are stable).
    void sortNewestFirst(std::vector<std::size_t>& rows) const;
    Json project(const ColumnSet& columns, const std::vector<std::size_t>& rows) const;

    const SimDataset& m_data;
    std::unordered_map<std::string, std::vector<std::size_t>> m_byRepo;
    std::unordered_map<std::int64_t, std::vector<std::size_t>> m_byPr;
};

} // namespace relayhud::sim
