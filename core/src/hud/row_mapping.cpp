#include "relayhud/hud/row_mapping.h"

#include "relayhud/model/tested_commit.h"

#include "hud/json_fields.h"
#include "relayhud/util/time.h"

#include <map>
#include <nlohmann/json.hpp>

namespace relayhud {

using hud::intField;
using hud::optDoubleField;
using hud::stringField;
using hud::take;
using nlohmann::json;

namespace {

Result<std::optional<EpochSeconds>> timeField(const json& row, const char* name)
{
    return hud::optTimeField(row, name);
}

void readSelfReported(const json& row, SelfReported& rep, std::optional<Error>& error)
{
    std::string status, conclusion;
    take(stringField(row, "status"), status, error);
    take(stringField(row, "conclusion"), conclusion, error);
    rep.status = runStatusFromString(status);
    rep.conclusion = conclusionFromString(conclusion);
    // The downstream passes any text GitHub accepts (action.yml:20-27): keep
    // what we have no member for, verbatim (R17).
    if (rep.conclusion == Conclusion::None && !conclusion.empty())
        rep.conclusionText = conclusion.substr(0, 64);
    if (rep.status == RunStatus::Unknown && rep.conclusion != Conclusion::None)
        rep.status = RunStatus::Completed;
    take(timeField(row, "started_at"), rep.startedAt, error);
    take(timeField(row, "completed_at"), rep.completedAt, error);
    TestCounts counts;
    take(intField(row, "total_tests"), counts.total, error);
    take(intField(row, "passed_tests"), counts.passed, error);
    take(intField(row, "failed_tests"), counts.failed, error);
    take(intField(row, "skipped_tests"), counts.skipped, error);
    // The HUD stores 0 for "not reported"; all zeros carry no claim.
    if (counts.total || counts.passed || counts.failed || counts.skipped)
        rep.tests = counts;
    take(stringField(row, "workflow_run_url"), rep.runUrl, error);
    take(stringField(row, "artifact_url"), rep.artifactUrl, error);
}

void readTrusted(const json& row, Trusted& trusted, std::optional<Error>& error)
{
    std::string level;
    take(stringField(row, "downstream_repo_level"), level, error);
    trusted.level = levelFromString(level);
    take(optDoubleField(row, "queue_time"), trusted.queueTimeSeconds, error);
    take(optDoubleField(row, "execution_time"), trusted.executionTimeSeconds, error);
}

} // namespace

Result<CheckRun> mapCheckRunRow(const json& row, const RowContext& context)
{
    if (!row.is_object())
        return makeError("a row is not a JSON object");
    CheckRun run;
    std::optional<Error> error;
    std::string sha, event;
    std::int64_t attempt = 1;
    take(stringField(row, "downstream_repo", context.downstreamRepo), run.downstreamRepo, error);
    take(stringField(row, "pytorch_head_sha", context.sha.value), sha, error);
    take(intField(row, "pr_number", context.prNumber.value), run.prNumber.value, error);
    take(stringField(row, "event_type"), event, error);
    take(stringField(row, "upstream_repo", "pytorch/pytorch"), run.upstreamRepo, error);
    take(stringField(row, "workflow_name"), run.workflow, error);
    take(stringField(row, "job_name"), run.jobName, error);
    take(stringField(row, "check_run_id"), run.checkRunId.value, error);
    take(stringField(row, "run_id"), run.runId, error);
    take(intField(row, "run_attempt", 1), attempt, error);
    readSelfReported(row, run.reported, error);
    readTrusted(row, run.trusted, error);
    if (error)
        return *error;
    if (sha.empty())
        return makeError("row has no pytorch_head_sha");
    if (run.downstreamRepo.empty())
        return makeError("row has no downstream repository");
    if (run.workflow.empty() && run.jobName.empty())
        return makeError("row has neither workflow_name nor job_name");
    if (attempt < 1 || attempt > 1000)
        return makeError("row has an impossible run_attempt " + std::to_string(attempt));
    if (run.jobName.empty())
        run.jobName = run.workflow;
    run.upstreamSha = Sha{std::move(sha)};
    run.runAttempt = static_cast<int>(attempt);
    run.eventType = eventTypeFromString(event).value_or(context.eventType);
    return run;
}

Result<std::vector<Backend>> mapAllowlist(const json& doc)
{
    if (!doc.is_object())
        return makeError("the allowlist is not a JSON object with L1..L4");
    std::vector<Backend> out;
    for (const char* level : {"L1", "L2", "L3", "L4"}) {
        const auto it = doc.find(level);
        if (it == doc.end() || it->is_null())
            continue;
        if (!it->is_array())
            return makeError(std::string("allowlist level ") + level + " is not a list");
        for (const auto& entry : *it) {
            Backend b;
            b.level = levelFromString(level);
            if (entry.is_string()) {
                b.repo = entry.get<std::string>();
            } else if (entry.is_object()) {
                auto repo = stringField(entry, "repo");
                if (!repo)
                    return makeError("allowlist " + std::string(level) + ": " + repo.message());
                b.repo = *repo;
                if (const auto oc = entry.find("oncalls"); oc != entry.end() && oc->is_array())
                    for (const auto& o : *oc)
                        if (o.is_string())
                            b.oncalls.push_back(o.get<std::string>());
            }
            if (b.repo.find('/') == std::string::npos)
                return makeError("allowlist " + std::string(level)
                                 + " has an entry that is not org/repo: "
                                 + entry.dump().substr(0, 60));
            out.push_back(std::move(b));
        }
    }
    return out;
}

std::vector<UpstreamCommit> commitsFromRuns(const std::vector<CheckRun>& runs)
{
    std::map<std::string, UpstreamCommit> bySha;
    for (const auto& run : runs) {
        auto [it, inserted] = bySha.try_emplace(run.upstreamSha.value);
        UpstreamCommit& c = it->second;
        const EpochSeconds t =
            run.reported.startedAt.value_or(run.reported.completedAt.value_or(0));
        if (inserted) {
            c.sha = run.upstreamSha;
            c.eventType = run.eventType;
            c.time = t;
            if (run.eventType == EventType::Nightly && isUpstreamCommit(run.upstreamSha.value))
                c.branch = "main";
        }
        if (c.prNumber.value == 0)
            c.prNumber = run.prNumber;
        if (t != 0 && (c.time == 0 || t < c.time))
            c.time = t;
    }
    std::vector<UpstreamCommit> out;
    out.reserve(bySha.size());
    for (auto& [sha, c] : bySha)
        out.push_back(std::move(c));
    return out;
}

} // namespace relayhud
