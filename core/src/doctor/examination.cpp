#include "relayhud/doctor/examination.h"

#include "relayhud/artifacts/artifact_store.h"
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/store/health_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/util/time.h"

#include <algorithm>
#include <utility>

namespace relayhud::doctor {

namespace {

std::pair<std::string, std::string> ownerAndRepo(const std::string& repo)
{
    const auto slash = repo.find('/');
    return {repo.substr(0, slash), slash == std::string::npos ? "" : repo.substr(slash + 1)};
}

// The backend's workflows: fresh from GitHub when online, else (or when it
// cannot be reached) the copies kept from the last read.
void readWorkflows(BackendReport& report, ArtifactFetcher& fetcher, bool online)
{
    const auto [owner, repo] = ownerAndRepo(report.repo);
    RepoFilesFetch files;
    if (online) {
        auto fetched = fetcher.fetchWorkflowFiles(owner, repo);
        if (fetched) {
            files = std::move(*fetched);
        } else {
            files = fetcher.keptWorkflowFiles(owner, repo);
            report.workflowsNote = "GitHub could not be reached (" + fetched.message() + ")";
            report.workflowsNote +=
                files.files.empty() ? "; no copies were kept" : ": the workflows as last read";
        }
    } else {
        files = fetcher.keptWorkflowFiles(owner, repo);
        report.workflowsNote = files.files.empty() ? "offline: the workflows were never read"
                                                   : "offline: the workflows as last read";
    }
    if (files.status != FetchStatus::Fetched && report.workflowsNote.empty())
        report.workflowsNote = files.message;
    for (const RepoFile& file : files.files) {
        WorkflowReport workflow;
        workflow.path = file.path;
        workflow.htmlUrl = file.htmlUrl;
        auto lint = lintWorkflow(file.text);
        if (lint)
            workflow.lint = std::move(*lint);
        else
            workflow.error = lint.message();
        report.workflows.push_back(std::move(workflow));
    }
}

} // namespace

std::size_t BackendReport::count(Severity severity) const
{
    std::size_t n = runtime.count(severity);
    for (const WorkflowReport& w : workflows)
        n += static_cast<std::size_t>(
            std::count_if(w.lint.findings.begin(), w.lint.findings.end(),
                          [severity](const Finding& f) { return f.severity == severity; }));
    return n;
}

Result<std::vector<BackendReport>> examineBackends(const Database& cache, ArtifactFetcher& fetcher,
                                                   EpochSeconds now, int days, bool online)
{
    auto backends = RunStore(cache).backends();
    if (!backends)
        return backends.error();
    const EpochSeconds since = now - static_cast<EpochSeconds>(days) * kSecondsPerDay;
    std::vector<BackendReport> reports;
    for (const Backend& backend : *backends) {
        if (backend.repo == kProbeRepo) // the relay's own probes fail by design
            continue;
        auto runs = HealthStore(cache).healthRuns({backend.repo, since});
        if (!runs)
            return runs.error();
        if (runs->empty() && backend.level == Level::L1)
            continue; // dispatched to, never reports: nothing to judge
        BackendReport report;
        report.repo = backend.repo;
        report.level = backend.level;
        report.runtime = judgeRuntime(backend.repo, *runs, since, now);
        for (const HealthFinding& f : report.runtime.findings)
            for (CheckRunRow row : f.runs)
                report.runs.emplace(row, HealthRun{});
        for (HealthRun& run : *runs)
            if (auto it = report.runs.find(run.checkRunRow); it != report.runs.end())
                it->second = std::move(run);
        readWorkflows(report, fetcher, online);
        reports.push_back(std::move(report));
    }
    std::stable_sort(
        reports.begin(), reports.end(), [](const BackendReport& a, const BackendReport& b) {
            const auto key = [](const BackendReport& r) {
                return std::make_pair(r.count(Severity::Error), r.count(Severity::Warning));
            };
            return key(a) > key(b);
        });
    return reports;
}

} // namespace relayhud::doctor
