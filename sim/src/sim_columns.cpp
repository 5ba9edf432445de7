#include "sim_columns.h"

#include "sim_format.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <stdexcept>

namespace relayhud::sim {
namespace {

Json optionalTime(const std::optional<EpochSeconds>& t, int micros)
{
    return t ? clickhouseIso(*t, micros) : std::string(kZeroDateTime);
}

Json nullableFloat(const std::optional<double>& v) { return v ? float64(*v) : Json(nullptr); }

const TestCounts& counts(const SimRow& r)
{
    static const TestCounts kNoCounts;
    return r.run.reported.tests ? *r.run.reported.tests : kNoCounts;
}

using Getter = Json (*)(const SimRow&);

// Keys are the table's column names; values are the JSON each one becomes.
const std::map<std::string_view, Getter>& getters()
{
    static const std::map<std::string_view, Getter> table = {
        {"downstream_repo", [](const SimRow& r) -> Json { return r.run.downstreamRepo; }},
        {"upstream_repo", [](const SimRow& r) -> Json { return r.run.upstreamRepo; }},
        {"pr_number", [](const SimRow& r) -> Json { return r.run.prNumber.value; }},
        {"pytorch_head_sha", [](const SimRow& r) -> Json { return r.run.upstreamSha.value; }},
        {"delivery_id", [](const SimRow& r) -> Json { return r.deliveryId; }},
        {"event_type", [](const SimRow& r) -> Json { return r.eventTypeText; }},
        {"workflow_name", [](const SimRow& r) -> Json { return r.run.workflow; }},
        {"job_name", [](const SimRow& r) -> Json { return r.run.jobName; }},
        {"check_run_id", [](const SimRow& r) -> Json { return r.run.checkRunId.value; }},
        {"run_id", [](const SimRow& r) -> Json { return r.run.runId; }},
        {"run_attempt", [](const SimRow& r) -> Json { return r.run.runAttempt; }},
        {"status", [](const SimRow& r) -> Json { return wireStatus(r.run.reported.status); }},
        {"conclusion",
         [](const SimRow& r) -> Json { return wireConclusion(r.run.reported.conclusion); }},
        {"started_at",
         [](const SimRow& r) { return optionalTime(r.run.reported.startedAt, r.startedMicros); }},
        {"completed_at",
         [](const SimRow& r) {
             return optionalTime(r.run.reported.completedAt, r.completedMicros);
         }},
        {"duration_seconds", [](const SimRow& r) -> Json { return durationSeconds(r); }},
        {"total_tests", [](const SimRow& r) -> Json { return counts(r).total; }},
        {"passed_tests", [](const SimRow& r) -> Json { return counts(r).passed; }},
        {"failed_tests", [](const SimRow& r) -> Json { return counts(r).failed; }},
        {"skipped_tests", [](const SimRow& r) -> Json { return counts(r).skipped; }},
        {"workflow_run_url", [](const SimRow& r) -> Json { return r.run.reported.runUrl; }},
        {"artifact_url", [](const SimRow& r) -> Json { return r.run.reported.artifactUrl; }},
        {"queue_time",
         [](const SimRow& r) { return nullableFloat(r.run.trusted.queueTimeSeconds); }},
        {"execution_time",
         [](const SimRow& r) { return nullableFloat(r.run.trusted.executionTimeSeconds); }},
        // Never written by the HUD (crcrUtils.ts extractDynamoRecord sets
        // neither; pytorch/test-infra @61a77570), so both hold the column
        // DEFAULT '' (clickhouse_db_schema/default.crcr_workflow_job/schema.sql).
        {"failed_tests_json", [](const SimRow&) -> Json { return ""; }},
        {"environment", [](const SimRow&) -> Json { return ""; }},
        {"downstream_repo_level",
         [](const SimRow& r) -> Json { return wireLevel(r.run.trusted.level); }},
    };
    return table;
}

} // namespace

EpochSeconds durationSeconds(const SimRow& row)
{
    const auto& reported = row.run.reported;
    if (!reported.completedAt || !reported.startedAt)
        return 0;
    return *reported.completedAt - *reported.startedAt;
}

ColumnSet::ColumnSet(std::string_view selectList)
{
    while (!selectList.empty()) {
        const std::size_t comma = std::min(selectList.find(','), selectList.size());
        std::string_view name = selectList.substr(0, comma);
        selectList.remove_prefix(std::min(comma + 1, selectList.size()));
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.front())))
            name.remove_prefix(1);
        while (!name.empty() && std::isspace(static_cast<unsigned char>(name.back())))
            name.remove_suffix(1);
        const auto it = getters().find(name);
        if (it == getters().end())
            throw std::logic_error("unknown crcr_workflow_job column: " + std::string(name));
        m_columns.emplace_back(std::string(name), it->second);
    }
}

Json ColumnSet::row(const SimRow& row) const
{
    Json out = Json::object();
    for (const auto& [name, get] : m_columns)
        out[name] = get(row);
    return out;
}

} // namespace relayhud::sim
