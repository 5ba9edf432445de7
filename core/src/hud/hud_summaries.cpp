#include "relayhud/hud/hud_summaries.h"

#include "hud/json_fields.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace relayhud {

using hud::intField;
using hud::optDoubleField;
using hud::optTimeField;
using hud::stringField;
using hud::take;
using nlohmann::json;

namespace {

// Maps each row of a saved query's answer with `read`; the first bad row
// fails the whole answer with its number (these answers are small aggregates).
template <class T, class Read>
Result<std::vector<T>> mapAll(const json& rows, const char* query, Read read)
{
    if (!rows.is_array())
        return makeError(std::string(query) + ": expected a JSON array of rows");
    std::vector<T> out;
    out.reserve(rows.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        if (!rows[i].is_object())
            return makeError(std::string(query) + " row " + std::to_string(i + 1)
                             + " is not a JSON object");
        T value;
        std::optional<Error> error;
        read(rows[i], value, error);
        if (error)
            return makeError(std::string(query) + " row " + std::to_string(i + 1) + ": "
                             + error->message);
        out.push_back(std::move(value));
    }
    return out;
}

double rateOf(const json& row, const char* name, std::optional<Error>& error)
{
    std::optional<double> rate;
    take(optDoubleField(row, name), rate, error);
    return rate.value_or(0.0);
}

} // namespace

bool isProbeRepo(const std::string& repo) { return repo == kProbeRepo; }

bool isExpectedProbeOutcome(const std::string& jobName, Conclusion conclusion)
{
    // SQL LIKE '%xfail%' and JavaScript includes("xfail"): case-sensitive substrings.
    return conclusion == Conclusion::Success
           || (jobName.find("xfail") != std::string::npos && conclusion == Conclusion::Failure)
           || (jobName.find("xcancel") != std::string::npos && conclusion == Conclusion::Cancelled)
           || (jobName.find("xtimeout") != std::string::npos && conclusion == Conclusion::TimedOut);
}

Result<std::vector<RepoSummary>> mapRepoSummaries(const json& rows)
{
    return mapAll<RepoSummary>(
        rows, "crcr_summary", [](const json& row, RepoSummary& s, std::optional<Error>& error) {
            std::string level;
            take(stringField(row, "repo"), s.repo, error);
            take(stringField(row, "downstream_repo_level"), level, error);
            take(intField(row, "successes"), s.successes, error);
            take(intField(row, "failures"), s.failures, error);
            take(intField(row, "timed_out"), s.timedOut, error);
            take(intField(row, "total"), s.total, error);
            s.passRate = rateOf(row, "pass_rate", error);
            take(optDoubleField(row, "avg_duration_s"), s.avgDurationSeconds, error);
            take(optTimeField(row, "last_run"), s.lastRun, error);
            s.level = levelFromString(level);
            if (!error && s.repo.find('/') == std::string::npos)
                error = makeError("repo '" + s.repo.substr(0, 60) + "' is not org/repo");
        });
}

Result<std::vector<NightlySummary>> mapNightlySummaries(const json& rows)
{
    return mapAll<NightlySummary>(
        rows, "crcr_nightly_summary",
        [](const json& row, NightlySummary& s, std::optional<Error>& error) {
            std::string level;
            take(stringField(row, "repo"), s.repo, error);
            take(stringField(row, "downstream_repo_level"), level, error);
            take(intField(row, "successes"), s.successes, error);
            take(intField(row, "failures"), s.failures, error);
            take(intField(row, "timed_out"), s.timedOut, error);
            take(intField(row, "total"), s.total, error);
            s.passRate = rateOf(row, "pass_rate", error);
            take(optDoubleField(row, "avg_duration_s"), s.avgDurationSeconds, error);
            take(optTimeField(row, "last_run"), s.lastRun, error);
            take(stringField(row, "latest_sha"), s.latestSha, error);
            s.level = levelFromString(level);
            if (!error && s.repo.find('/') == std::string::npos)
                error = makeError("repo '" + s.repo.substr(0, 60) + "' is not org/repo");
        });
}

Result<std::vector<DailyRate>> mapDailyRates(const json& rows)
{
    return mapAll<DailyRate>(rows, "crcr_success_rate",
                             [](const json& row, DailyRate& d, std::optional<Error>& error) {
                                 take(stringField(row, "day"), d.day, error);
                                 take(stringField(row, "repo"), d.repo, error);
                                 take(intField(row, "successes"), d.successes, error);
                                 take(intField(row, "failures"), d.failures, error);
                                 take(intField(row, "timed_out"), d.timedOut, error);
                                 take(intField(row, "total"), d.total, error);
                                 d.passRate = rateOf(row, "pass_rate", error);
                                 if (!error && d.day.size() > 10)
                                     d.day.resize(10); // a DateTime-typed day: keep the date
                             });
}

Result<std::vector<ProbePr>> mapProbePrs(const json& rows)
{
    return mapAll<ProbePr>(rows, "crcr_health_last_prs",
                           [](const json& row, ProbePr& p, std::optional<Error>& error) {
                               take(intField(row, "pr_number"), p.prNumber.value, error);
                               take(optTimeField(row, "last_run"), p.lastRun, error);
                               take(intField(row, "successes"), p.successes, error);
                               take(intField(row, "total"), p.total, error);
                               p.passRate = rateOf(row, "pass_rate", error);
                           });
}

Result<std::vector<DispatchLevel>> mapRunLevels(const json& rows)
{
    return mapAll<DispatchLevel>(
        rows, "crcr_hud_results",
        [](const json& row, DispatchLevel& r, std::optional<Error>& error) {
            std::string level;
            std::int64_t attempt = 1;
            take(stringField(row, "check_run_id"), r.checkRunId.value, error);
            take(intField(row, "run_attempt", 1), attempt, error);
            take(stringField(row, "downstream_repo_level"), level, error);
            r.runAttempt = static_cast<int>(std::clamp<std::int64_t>(attempt, 1, 1000));
            r.level = levelFromString(level);
        });
}

std::string_view toString(HealthState state)
{
    switch (state) {
    case HealthState::Healthy: return "healthy";
    case HealthState::Degraded: return "degraded";
    case HealthState::NoData: break;
    }
    return "no data";
}

HealthState RelayHealth::overall() const
{
    if (prs == HealthState::Degraded || nightlies == HealthState::Degraded)
        return HealthState::Degraded;
    if (prs == HealthState::Healthy || nightlies == HealthState::Healthy)
        return HealthState::Healthy;
    return HealthState::NoData;
}

std::string RelayHealth::summary() const
{
    std::string text(toString(overall()));
    if (overall() == HealthState::NoData)
        return "relay health: no probe results from " + std::string(kProbeRepo);
    text = "relay " + text + ": ";
    text += prsJudged ? std::to_string(prsPassed) + "/" + std::to_string(prsJudged) + " probe PRs"
                      : "no probe PRs";
    text += ", ";
    text += nightliesJudged ? std::to_string(nightliesPassed) + "/"
                                  + std::to_string(nightliesJudged) + " probe nightlies"
                            : "no probe nightlies";
    return text + " as expected";
}

RelayHealth judgeRelayHealth(const std::vector<ProbePr>& prs,
                             const std::vector<CheckRun>& nightlyRuns)
{
    RelayHealth health;
    // The query already keeps the newest `count` PRs; the card judges them all.
    for (const auto& pr : prs) {
        ++health.prsJudged;
        if (pr.passRate >= 1.0)
            ++health.prsPassed;
    }
    if (health.prsJudged)
        health.prs =
            health.prsPassed == health.prsJudged ? HealthState::Healthy : HealthState::Degraded;
    struct Nightly {
        EpochSeconds latest = 0;
        bool passed = true;
    };
    std::map<std::string, Nightly> bySha;
    for (const auto& run : nightlyRuns) {
        if (run.upstreamSha.value.empty())
            continue;
        Nightly& s = bySha[run.upstreamSha.value];
        s.latest = std::max(s.latest, run.reported.startedAt.value_or(0));
        s.passed = s.passed && run.reported.status == RunStatus::Completed
                   && isExpectedProbeOutcome(run.jobName, run.reported.conclusion);
    }
    std::vector<Nightly> newest;
    for (const auto& [sha, s] : bySha)
        newest.push_back(s);
    std::sort(newest.begin(), newest.end(),
              [](const Nightly& a, const Nightly& b) { return a.latest > b.latest; });
    if (newest.size() > static_cast<std::size_t>(kProbeHealthCount))
        newest.resize(kProbeHealthCount);
    for (const auto& s : newest) {
        ++health.nightliesJudged;
        health.nightliesPassed += s.passed ? 1 : 0;
    }
    if (health.nightliesJudged)
        health.nightlies = health.nightliesPassed == health.nightliesJudged ? HealthState::Healthy
                                                                            : HealthState::Degraded;
    return health;
}

} // namespace relayhud
