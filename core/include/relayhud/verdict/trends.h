#pragma once
// The numbers behind the trend charts (issue 7, "Charts"), as plain points:
// pass rate per backend or job over commits and days, failures by class per
// day, relay-measured queue and execution times, tests executed per run of a
// job, and duration per job. Every function reads TrendRuns
// (TrendStore::trendRuns: the newest attempt of each job on each upstream SHA);
// only the failure classes need the cache again (tags and suggestions).
#include "relayhud/model/failure_class.h"
#include "relayhud/store/trend_runs.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::verdict {

using relayhud::kSecondsPerDay;

// A job across the cache: downstream repository, workflow and job name.
struct JobKey {
    std::string repo;
    std::string workflow;
    std::string job;

    // "workflow / job", with the repository first when `withRepo`.
    std::string label(bool withRepo) const;
    auto operator<=>(const JobKey&) const = default;
};
JobKey jobKeyOf(const TrendRun& run);

// Midnight UTC of the day `t` falls in.
EpochSeconds dayStart(EpochSeconds t);
// When a run happened: its start where known, else its upstream commit's time.
EpochSeconds runTime(const TrendRun& run);
// The runs of one backend ("" keeps all) and one job (none keeps all).
std::vector<TrendRun> selectRuns(const std::vector<TrendRun>& runs, const std::string& repo,
                                 const std::optional<JobKey>& job);
// Every backend and job in the runs, sorted.
std::vector<std::string> backendsIn(const std::vector<TrendRun>& runs);
std::vector<JobKey> jobsIn(const std::vector<TrendRun>& runs);

// --- 1. Pass rate ---
// Only finished runs with a verdict count: success against failure,
// cancelled and timed out. Skipped and neutral runs say nothing about health.
struct PassRatePoint {
    Sha sha;               // the commit; empty for a day
    EpochSeconds time = 0; // commit time, or the day's midnight UTC
    int completed = 0;
    int succeeded = 0;
    double rate() const { return completed == 0 ? 0.0 : double(succeeded) / completed; }
};

struct PassRateSeries {
    std::string name;                    // backend, or job label
    std::vector<PassRatePoint> byCommit; // oldest first
    std::vector<PassRatePoint> byDay;    // oldest first
};

// One series per backend, or per job when `repo` names one backend.
std::vector<PassRateSeries> passRates(const std::vector<TrendRun>& runs, const std::string& repo);

// --- 2. Failures by class per day ---
// Each failure (a failing test, or a failed job without one) counts once on
// the day of its run: the class a person tagged it with, else the one the
// suggestion engine gives. Expected failures (xfailed) are not counted.
struct FailureClassDays {
    std::vector<EpochSeconds> days;            // midnight UTC, oldest first, every day
    std::vector<triage::FailureClass> classes; // those that occur, in enum order
    std::vector<std::vector<int>> counts;      // [class][day]
    int tagged = 0;                            // failures whose class is a person's
    int suggested = 0;                         // failures whose class is the engine's
};

// `since`/`until` bound the days listed (so quiet days show as zero); an
// error when the cache cannot be read.
Result<FailureClassDays> failuresByClass(const Database& cache, const std::vector<TrendRun>& runs,
                                         EpochSeconds since, EpochSeconds until);

// --- 3. Queue and execution time ---
struct TimingPoint {
    CheckRunRow checkRunRow;
    Sha sha;
    EpochSeconds time = 0; // runTime()
    JobKey job;
    std::optional<double> queueSeconds; // relay-measured; first attempts only (R9)
    std::optional<double> executionSeconds;
};

// Runs with at least one relay-measured time, by time.
std::vector<TimingPoint> timings(const std::vector<TrendRun>& runs);

// --- 4. Tests executed per run of one job ---
enum class CountSource : std::uint8_t { Artifacts, SelfReported };

struct ExecutedPoint {
    CheckRunRow checkRunRow;
    Sha sha;
    EpochSeconds commitTime = 0;
    std::int64_t executed = 0;
    CountSource source = CountSource::Artifacts;
    // Fewer than (1 - shrinkThreshold) of the previous point's count.
    bool shrank = false;
};

// The job's runs, by commit, that have a count: the stored artifacts' when
// there are any (evidence), else the self-reported total less skipped where
// those counts are test cases or of an unknown kind (never commands or
// health checks: model/count_kind.h).
std::vector<ExecutedPoint> testsExecuted(const std::vector<TrendRun>& runs, const JobKey& job,
                                         double shrinkThreshold = 0.1);

// --- 5. Duration per job ---
struct JobDuration {
    JobKey job;
    int runs = 0;
    double medianSeconds = 0;
    double p90Seconds = 0;
    double maxSeconds = 0;
};

// A run's duration: the relay-measured execution time, else (the
// downstream's own) completed - started; none for an unfinished run.
std::optional<double> runDuration(const TrendRun& run);
// Nearest-rank percentile (0..1) of unsorted values; 0 for none.
double percentile(std::vector<double> values, double p);
// Per job with at least one duration, longest p90 first.
std::vector<JobDuration> durationsByJob(const std::vector<TrendRun>& runs);

} // namespace relayhud::verdict
