#include "relayhud/verdict/backend_overview.h"

#include <algorithm>
#include <map>

namespace relayhud::verdict {

namespace {

struct Mean {
    double sum = 0;
    int count = 0;
    void add(std::optional<double> value)
    {
        if (!value)
            return;
        sum += *value;
        ++count;
    }
    std::optional<double> value() const
    {
        return count == 0 ? std::nullopt : std::optional<double>(sum / count);
    }
};

struct Tally {
    Mean duration, queue, execution;
};

void count(BackendOverview& o, Tally& t, const TrendRun& run)
{
    ++o.runs;
    if (run.status != RunStatus::Completed) {
        ++o.running;
        return;
    }
    switch (run.conclusion) {
    case Conclusion::Success: ++o.succeeded; break;
    case Conclusion::Failure: ++o.failed; break;
    case Conclusion::TimedOut:
        ++o.failed;
        ++o.timedOut;
        break;
    case Conclusion::Cancelled: break;
    default: return; // skipped, neutral: no verdict on the backend's health
    }
    ++o.completed;
    t.duration.add(callbackDuration(run.startedAt, run.completedAt));
    if (run.attempt == 1) {
        t.queue.add(run.queueSeconds);
        t.execution.add(run.executionSeconds);
    }
    const EpochSeconds when = run.completedAt.value_or(run.startedAt.value_or(run.commitTime));
    o.lastRun = std::max(o.lastRun.value_or(when), when);
}

bool worse(const BackendOverview& a, const BackendOverview& b)
{
    if (a.passRate.has_value() != b.passRate.has_value())
        return a.passRate.has_value();
    if (a.passRate && *a.passRate != *b.passRate)
        return *a.passRate < *b.passRate;
    if (a.failed != b.failed)
        return a.failed > b.failed;
    return a.repo < b.repo;
}

} // namespace

std::vector<BackendOverview> backendOverviews(const std::vector<Backend>& backends,
                                              const std::vector<TrendRun>& runs,
                                              const std::vector<RepoSummary>& hud)
{
    std::map<std::string, BackendOverview> byRepo;
    std::map<std::string, Tally> tallies;
    for (const Backend& b : backends) {
        BackendOverview& o = byRepo[b.repo];
        o.repo = b.repo;
        o.level = b.level;
        o.allowlisted = b.allowlisted;
        o.oncalls = b.oncalls;
    }
    for (const TrendRun& run : runs) {
        BackendOverview& o = byRepo[run.repo];
        o.repo = run.repo;
        count(o, tallies[run.repo], run);
    }
    for (const RepoSummary& s : hud) {
        const auto it = byRepo.find(s.repo);
        if (it == byRepo.end())
            continue; // the probe repo, or a repo the cache does not hold
        it->second.hudPassRate = s.total > 0 ? std::optional<double>(s.passRate) : std::nullopt;
        it->second.hudRuns = s.total;
        if (it->second.level == Level::Unknown)
            it->second.level = s.level;
    }
    std::vector<BackendOverview> out;
    out.reserve(byRepo.size());
    for (auto& [repo, o] : byRepo) {
        const Tally& t = tallies[repo];
        if (o.completed > 0)
            o.passRate = double(o.succeeded) / o.completed;
        o.avgDurationSeconds = t.duration.value();
        o.avgQueueSeconds = t.queue.value();
        o.avgExecutionSeconds = t.execution.value();
        o.timedFirstAttempts = std::max(t.queue.count, t.execution.count);
        out.push_back(std::move(o));
    }
    std::sort(out.begin(), out.end(), worse);
    return out;
}

} // namespace relayhud::verdict
