// The trend charts' points (verdict/trends.h), folded from the window's runs.
#include "relayhud/verdict/trends.h"

#include "relayhud/model/count_kind.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace relayhud::verdict {
namespace {

bool hasVerdict(const TrendRun& run)
{
    if (run.status != RunStatus::Completed)
        return false;
    switch (run.conclusion) {
    case Conclusion::Success:
    case Conclusion::Failure:
    case Conclusion::Cancelled:
    case Conclusion::TimedOut: return true;
    default: return false;
    }
}

void count(PassRatePoint& point, const TrendRun& run)
{
    ++point.completed;
    if (run.conclusion == Conclusion::Success)
        ++point.succeeded;
}

// Runs arrive oldest commit first, so points are appended in order; a commit
// seen again (another job of it) adds to the last point.
void addToSeries(PassRateSeries& series, const TrendRun& run)
{
    if (series.byCommit.empty() || series.byCommit.back().sha != run.sha)
        series.byCommit.push_back({run.sha, run.commitTime, 0, 0});
    count(series.byCommit.back(), run);
    const EpochSeconds day = dayStart(run.commitTime);
    if (series.byDay.empty() || series.byDay.back().time != day)
        series.byDay.push_back({Sha{}, day, 0, 0});
    count(series.byDay.back(), run);
}

} // namespace

std::string JobKey::label(bool withRepo) const
{
    const std::string name = workflow.empty() ? job : workflow + " / " + job;
    return withRepo ? repo + ": " + name : name;
}

JobKey jobKeyOf(const TrendRun& run) { return {run.repo, run.workflow, run.job}; }

EpochSeconds dayStart(EpochSeconds t)
{
    // Floor division: a time before 1970 still lands on its own midnight.
    const EpochSeconds days = t / kSecondsPerDay - (t % kSecondsPerDay < 0 ? 1 : 0);
    return days * kSecondsPerDay;
}

EpochSeconds runTime(const TrendRun& run) { return run.startedAt.value_or(run.commitTime); }

std::vector<TrendRun> selectRuns(const std::vector<TrendRun>& runs, const std::string& repo,
                                 const std::optional<JobKey>& job)
{
    std::vector<TrendRun> out;
    std::copy_if(runs.begin(), runs.end(), std::back_inserter(out), [&](const TrendRun& r) {
        return (repo.empty() || r.repo == repo) && (!job || jobKeyOf(r) == *job);
    });
    return out;
}

std::vector<std::string> backendsIn(const std::vector<TrendRun>& runs)
{
    std::set<std::string> seen;
    for (const TrendRun& r : runs)
        seen.insert(r.repo);
    return {seen.begin(), seen.end()};
}

std::vector<JobKey> jobsIn(const std::vector<TrendRun>& runs)
{
    std::set<JobKey> seen;
    for (const TrendRun& r : runs)
        seen.insert(jobKeyOf(r));
    return {seen.begin(), seen.end()};
}

std::vector<PassRateSeries> passRates(const std::vector<TrendRun>& runs, const std::string& repo)
{
    std::map<std::string, PassRateSeries> byName;
    for (const TrendRun& run : runs) {
        if (!hasVerdict(run) || (!repo.empty() && run.repo != repo))
            continue;
        const std::string name = repo.empty() ? run.repo : jobKeyOf(run).label(false);
        PassRateSeries& series = byName[name];
        series.name = name;
        addToSeries(series, run);
    }
    std::vector<PassRateSeries> out;
    for (auto& entry : byName)
        out.push_back(std::move(entry.second));
    return out;
}

std::vector<TimingPoint> timings(const std::vector<TrendRun>& runs)
{
    std::vector<TimingPoint> out;
    for (const TrendRun& r : runs) {
        // A rerun's queue time is measured from the original dispatch
        // (test-infra callback_handler.py:177-182; relay README "Re-running
        // checks": use run_attempt to decide if trustworthy; R9): not a wait.
        const auto queue = r.attempt >= 2 ? std::nullopt : r.queueSeconds;
        if (queue || r.executionSeconds)
            out.push_back(
                {r.checkRunRow, r.sha, runTime(r), jobKeyOf(r), queue, r.executionSeconds});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const TimingPoint& a, const TimingPoint& b) { return a.time < b.time; });
    return out;
}

std::vector<ExecutedPoint> testsExecuted(const std::vector<TrendRun>& runs, const JobKey& job,
                                         double shrinkThreshold)
{
    std::vector<ExecutedPoint> out;
    for (const TrendRun& r : runs) {
        if (jobKeyOf(r) != job)
            continue;
        ExecutedPoint p{r.checkRunRow, r.sha, r.commitTime, 0, CountSource::Artifacts, false};
        if (r.storedExecuted)
            p.executed = *r.storedExecuted;
        // Commands and health checks are no test cases: not on a line of
        // JUnit cases, where a mix would read as a shrink (model/count_kind.h).
        else if (r.reportedTests && r.reportedTests->total > 0
                 && comparableWithJUnit(countKindOf(r.repo).kind)) {
            p.executed =
                std::max<std::int64_t>(0, r.reportedTests->total - r.reportedTests->skipped);
            p.source = CountSource::SelfReported;
        } else
            continue; // no count to plot: a gap, not a zero
        if (!out.empty())
            p.shrank = double(p.executed) < double(out.back().executed) * (1.0 - shrinkThreshold);
        out.push_back(std::move(p));
    }
    return out;
}

std::optional<double> runDuration(const TrendRun& run)
{
    if (run.executionSeconds)
        return run.executionSeconds;
    if (run.status == RunStatus::Completed)
        return callbackDuration(run.startedAt, run.completedAt);
    return std::nullopt;
}

double percentile(std::vector<double> values, double p)
{
    if (values.empty())
        return 0.0;
    std::sort(values.begin(), values.end());
    // Nearest rank: the smallest value with at least p of the values at or
    // below it, so a p90 is always a duration that actually happened.
    const double rank = std::ceil(std::clamp(p, 0.0, 1.0) * double(values.size()));
    const auto at = static_cast<std::size_t>(std::max(rank, 1.0)) - 1;
    return values[std::min(at, values.size() - 1)];
}

std::vector<JobDuration> durationsByJob(const std::vector<TrendRun>& runs)
{
    std::map<JobKey, std::vector<double>> byJob;
    for (const TrendRun& r : runs)
        if (auto d = runDuration(r))
            byJob[jobKeyOf(r)].push_back(*d);
    std::vector<JobDuration> out;
    for (auto& [job, values] : byJob)
        out.push_back({job, static_cast<int>(values.size()), percentile(values, 0.5),
                       percentile(values, 0.9), *std::max_element(values.begin(), values.end())});
    std::stable_sort(out.begin(), out.end(), [](const JobDuration& a, const JobDuration& b) {
        return a.p90Seconds > b.p90Seconds;
    });
    return out;
}

} // namespace relayhud::verdict
