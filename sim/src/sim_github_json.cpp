#include "sim_github_json.h"
#include "relayhud/util/hash.h"
#include "sim_github_ids.h"

#include "sim_artifact_names.h"
#include "sim_format.h"
#include "sim_steps.h"
#include "sim_text.h"

#include <algorithm>

namespace relayhud::sim {
namespace {

// GitHub's legacy global ids: base64 of "<type length>:<Type><id>".
std::string nodeId(std::string_view type, std::int64_t id)
{
    return base64("0" + std::to_string(type.size()) + ":" + std::string(type) + std::to_string(id));
}

Json owner(const std::string& login, const std::string& type)
{
    const std::int64_t id = gitHubIdOf(login, 10'000'000);
    return Json{
        {"login", login},
        {"id", id},
        {"node_id", nodeId(type == "Bot" ? "Bot" : "Organization", id)},
        {"avatar_url", "https://avatars.githubusercontent.com/u/" + std::to_string(id) + "?v=4"},
        {"url", "https://api.github.com/users/" + login},
        {"html_url", gitHubWebUrl(login)},
        {"type", type},
        {"site_admin", false}};
}

Json repository(const GitHubContext& ctx, const std::string& repo)
{
    const std::int64_t id = gitHubIdOf(repo, 500'000'000);
    const std::string org = repo.substr(0, repo.find('/'));
    return Json{{"id", id},
                {"node_id", nodeId("Repository", id)},
                {"name", repo.substr(repo.find('/') + 1)},
                {"full_name", repo},
                {"private", false},
                {"owner", owner(org, "Organization")},
                {"html_url", gitHubWebUrl(repo)},
                {"description", nullptr},
                {"fork", false},
                {"url", ctx.apiUrl + "/repos/" + repo}};
}

Json timeOrNull(const std::optional<EpochSeconds>& t)
{
    return t ? Json(githubTime(*t)) : Json(nullptr);
}

bool isNightly(const WorkflowRun& run)
{
    return run.commit && run.commit->eventType == EventType::Nightly;
}

Json headCommit(const GitHubContext& ctx, const WorkflowRun& run, const std::string& sha,
                const std::string& repo)
{
    const std::string org = repo.substr(0, repo.find('/'));
    const Json person{{"name", org + " CI"}, {"email", "ci@" + org + ".example"}};
    return Json{{"id", sha},
                {"tree_id", downstreamSha(ctx.data.config.seed ^ 0x7EEULL, run.rows.front()->run)},
                {"message", "Merge pull request #" + std::to_string(100 + fnv1a(sha) % 800)},
                {"timestamp", githubTime(run.createdAt - 3600)},
                {"author", person},
                {"committer", person}};
}

Json steps(const GitHubContext& ctx, const SimRow& row)
{
    const JobSpec* job = ctx.index.jobSpec(row);
    Json out = Json::array();
    if (!job)
        return out;
    int number = 0;
    for (const StepPlan& step :
         planSteps(row, *job, !row.run.reported.artifactUrl.empty(), ctx.data.config.now)) {
        const bool started = step.state != StepState::Pending;
        const bool done = started && step.state != StepState::Running;
        const char* conclusion = stepConclusion(step.state);
        out.push_back(Json{
            {"name", step.name},
            {"status", stepStatus(step.state)},
            {"conclusion", conclusion ? Json(conclusion) : Json(nullptr)},
            {"number", ++number},
            {"started_at",
             started ? Json(githubTime(static_cast<EpochSeconds>(step.start / kTicksPerSecond)))
                     : Json(nullptr)},
            {"completed_at",
             done ? Json(githubTime(static_cast<EpochSeconds>(step.end / kTicksPerSecond)))
                  : Json(nullptr)}});
    }
    return out;
}

} // namespace

std::string runStatus(const std::vector<const SimRow*>& jobs)
{
    const bool running = std::any_of(jobs.begin(), jobs.end(), [](const SimRow* r) {
        return r->run.reported.status != RunStatus::Completed;
    });
    return running ? "in_progress" : "completed";
}

Json runConclusion(const std::vector<const SimRow*>& jobs)
{
    if (runStatus(jobs) != "completed")
        return nullptr;
    const auto any = [&jobs](Conclusion c) {
        return std::any_of(jobs.begin(), jobs.end(),
                           [c](const SimRow* r) { return r->run.reported.conclusion == c; });
    };
    if (any(Conclusion::Failure) || any(Conclusion::TimedOut))
        return "failure";
    if (any(Conclusion::Cancelled))
        return "cancelled";
    return "success";
}

Json workflowRunJson(const GitHubContext& ctx, const WorkflowRun& run, int attempt)
{
    const std::string& repo = run.repo;
    const std::string url = ctx.apiUrl + "/repos/" + repo + "/actions/runs/" + run.runId;
    const std::vector<const SimRow*> jobs = run.attempt(attempt);
    const SimRow& first = *(jobs.empty() ? run.rows.front() : jobs.front());
    const std::string sha = downstreamSha(ctx.data.config.seed, run.rows.front()->run);
    const auto runId = std::stoll(run.runId);
    const Json actor = isNightly(run) ? owner(repo.substr(0, repo.find('/')) + "-bot", "Bot")
                                      : owner("pytorch-crcr-relay[bot]", "Bot");
    const std::string display = isNightly(run) ? run.workflow + " (nightly)"
                                : run.commit
                                    ? std::string(wireEventType(run.commit->eventType))
                                          + " pytorch/pytorch@" + run.commit->sha.shortSha()
                                    : run.workflow;
    return Json{
        {"id", runId},
        {"name", run.workflow},
        {"node_id", nodeId("WorkflowRun", runId)},
        {"head_branch", "main"},
        {"head_sha", sha},
        {"path", ".github/workflows/" + jobSlug(run.workflow) + ".yml"},
        {"display_title", display},
        {"run_number", run.runNumber},
        {"event", isNightly(run) ? "schedule" : "repository_dispatch"},
        {"status", runStatus(jobs)},
        {"conclusion", runConclusion(jobs)},
        {"workflow_id", run.workflowId},
        {"check_suite_id", gitHubIdOf(run.runId + "suite", 30'000'000'000)},
        {"check_suite_node_id",
         nodeId("CheckSuite", gitHubIdOf(run.runId + "suite", 30'000'000'000))},
        {"url", url},
        {"html_url", gitHubWebUrl(repo + "/actions/runs/" + run.runId)},
        {"pull_requests", Json::array()},
        {"created_at", githubTime(run.createdAt)},
        {"updated_at", githubTime(run.updatedAt)},
        {"actor", actor},
        {"run_attempt", attempt},
        {"referenced_workflows", Json::array()},
        {"run_started_at", githubTime(first.run.reported.startedAt.value_or(run.createdAt))},
        {"triggering_actor", actor},
        {"jobs_url", url + "/jobs"},
        {"logs_url", url + "/logs"},
        {"check_suite_url", ctx.apiUrl + "/repos/" + repo + "/check-suites/"
                                + std::to_string(gitHubIdOf(run.runId + "suite", 30'000'000'000))},
        {"artifacts_url", url + "/artifacts"},
        {"cancel_url", url + "/cancel"},
        {"rerun_url", url + "/rerun"},
        {"previous_attempt_url",
         attempt > 1 ? Json(url + "/attempts/" + std::to_string(attempt - 1)) : Json(nullptr)},
        {"workflow_url",
         ctx.apiUrl + "/repos/" + repo + "/actions/workflows/" + std::to_string(run.workflowId)},
        {"head_commit", headCommit(ctx, run, sha, repo)},
        {"repository", repository(ctx, repo)},
        {"head_repository", repository(ctx, repo)}};
}

Json jobJson(const GitHubContext& ctx, const SimRow& row)
{
    const CheckRun& r = row.run;
    const auto id = std::stoll(r.checkRunId.value);
    const JobSpec* job = ctx.index.jobSpec(row);
    const std::string runUrl =
        ctx.apiUrl + "/repos/" + r.downstreamRepo + "/actions/runs/" + r.runId;
    const bool done = r.reported.status == RunStatus::Completed;
    const std::string conclusion(wireConclusion(r.reported.conclusion));
    const EpochSeconds started = r.reported.startedAt.value_or(0);
    const auto queued = static_cast<EpochSeconds>(r.trusted.queueTimeSeconds.value_or(0.0));
    const std::string label = job && !job->runner.empty() ? job->runner : "linux.2xlarge";
    const std::uint64_t hash = rowHash(ctx.data.config.seed, r);
    return Json{
        {"id", id},
        {"run_id", std::stoll(r.runId)},
        {"workflow_name", r.workflow},
        {"head_branch", "main"},
        {"run_url", runUrl},
        {"run_attempt", r.runAttempt},
        {"node_id", nodeId("CheckRun", id)},
        {"head_sha", downstreamSha(ctx.data.config.seed, r)},
        {"url", ctx.apiUrl + "/repos/" + r.downstreamRepo + "/actions/jobs/" + r.checkRunId.value},
        {"html_url", gitHubWebUrl(r.downstreamRepo + "/actions/runs/" + r.runId + "/job/"
                                  + r.checkRunId.value)},
        {"status", done ? "completed" : "in_progress"},
        {"conclusion", done ? Json(conclusion) : Json(nullptr)},
        {"created_at", githubTime(started - queued)},
        {"started_at", githubTime(started)},
        {"completed_at", timeOrNull(r.reported.completedAt)},
        {"name", r.jobName},
        {"steps", steps(ctx, row)},
        {"check_run_url",
         ctx.apiUrl + "/repos/" + r.downstreamRepo + "/check-runs/" + r.checkRunId.value},
        {"labels", Json::array({label})},
        {"runner_id", static_cast<std::int64_t>(1000 + hash % 9000)},
        {"runner_name", job ? runnerHostName(*job, hash) : label},
        {"runner_group_id", 1},
        {"runner_group_name", "Default"}};
}

EpochSeconds artifactExpiresAt(const GitHubContext& ctx, const SimRow& row)
{
    const BackendSpec* backend = ctx.index.backend(row.run.downstreamRepo);
    const int days = backend ? backend->retentionDays : 90;
    return row.run.reported.completedAt.value_or(0) + days * 86400;
}

bool artifactExpired(const GitHubContext& ctx, const SimRow& row)
{
    const BackendSpec* backend = ctx.index.backend(row.run.downstreamRepo);
    return backend
           && backend->artifactExpired(row.run.reported.completedAt.value_or(0),
                                       ctx.data.config.now);
}

Json artifactJson(const GitHubContext& ctx, const SimRow& row, std::int64_t id, const BlobMeta& zip)
{
    const CheckRun& r = row.run;
    const std::string url =
        ctx.apiUrl + "/repos/" + r.downstreamRepo + "/actions/artifacts/" + std::to_string(id);
    const JobSpec* job = ctx.index.jobSpec(row);
    const EpochSeconds created = r.reported.completedAt.value_or(0);
    const std::int64_t repoId = repository(ctx, r.downstreamRepo)["id"].get<std::int64_t>();
    return Json{{"id", id},
                {"node_id", nodeId("Artifact", id)},
                {"name", job ? githubArtifactName(r, *job) : r.checkRunId.value},
                {"size_in_bytes", static_cast<std::int64_t>(zip.size)},
                {"url", url},
                {"archive_download_url", url + "/zip"},
                {"expired", artifactExpired(ctx, row)},
                {"digest", "sha256:" + zip.sha256},
                {"created_at", githubTime(created)},
                {"updated_at", githubTime(created)},
                {"expires_at", githubTime(artifactExpiresAt(ctx, row))},
                {"workflow_run", Json{{"id", std::stoll(r.runId)},
                                      {"repository_id", repoId},
                                      {"head_repository_id", repoId},
                                      {"head_branch", "main"},
                                      {"head_sha", downstreamSha(ctx.data.config.seed, r)}}}};
}

Json githubArtifactJson(const GitHubContext& ctx, const GitHubArtifact& artifact,
                        std::uint64_t zipBytes, const std::string& sha256)
{
    const std::string& repo = artifact.row->run.downstreamRepo;
    const std::string url =
        ctx.apiUrl + "/repos/" + repo + "/actions/artifacts/" + std::to_string(artifact.id);
    const std::int64_t repoId = repository(ctx, repo)["id"].get<std::int64_t>();
    const std::int64_t bytes =
        artifact.listedBytes >= 0 ? artifact.listedBytes : static_cast<std::int64_t>(zipBytes);
    return Json{{"id", artifact.id},
                {"node_id", nodeId("Artifact", artifact.id)},
                {"name", artifact.name},
                {"size_in_bytes", bytes},
                {"url", url},
                {"archive_download_url", url + "/zip"},
                {"expired", artifact.expiresAt <= ctx.data.config.now},
                {"digest", "sha256:" + sha256},
                {"created_at", githubTime(artifact.createdAt)},
                {"updated_at", githubTime(artifact.createdAt)},
                {"expires_at", githubTime(artifact.expiresAt)},
                {"workflow_run",
                 Json{{"id", std::stoll(artifact.runId)},
                      {"repository_id", repoId},
                      {"head_repository_id", repoId},
                      {"head_branch", "main"},
                      {"head_sha", downstreamSha(ctx.data.config.seed, artifact.row->run)}}}};
}

Json childRunJson(const GitHubContext& ctx, const ChildRun& child)
{
    const std::string url = ctx.apiUrl + "/repos/" + child.repo + "/actions/runs/" + child.runId;
    const auto id = std::stoll(child.runId);
    const Json actor = owner(child.repo.substr(0, child.repo.find('/')) + "-bot", "Bot");
    const SimRow& parent = *child.parent;
    const bool done = parent.run.reported.status == RunStatus::Completed;
    return Json{
        {"id", id},
        {"name", child.name},
        {"node_id", nodeId("WorkflowRun", id)},
        {"head_branch", "main"},
        {"head_sha", downstreamSha(ctx.data.config.seed, parent.run)},
        {"path", ".github/workflows/_upstream_tests_beta_matrix.yaml"},
        {"display_title", child.name},
        {"event", "workflow_dispatch"},
        {"status", done ? "completed" : "in_progress"},
        {"conclusion", done ? Json("success") : Json(nullptr)}, // validate mode
        {"workflow_id", 100'000'000 + static_cast<std::int64_t>(fnv1a(child.repo) % 9'000'000)},
        {"url", url},
        {"html_url", gitHubWebUrl(child.repo + "/actions/runs/" + child.runId)},
        {"created_at", githubTime(child.createdAt)},
        {"updated_at", githubTime(child.updatedAt)},
        {"run_attempt", 1},
        {"actor", actor},
        {"triggering_actor", actor},
        {"jobs_url", url + "/jobs"},
        {"artifacts_url", url + "/artifacts"}};
}

} // namespace relayhud::sim
