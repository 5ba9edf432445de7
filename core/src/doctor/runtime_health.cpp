// The integration doctor's runtime health (doctor/runtime_health.h).
#include "relayhud/doctor/runtime_health.h"

#include "relayhud/model/tested_commit.h"
#include "relayhud/util/ascii.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace relayhud::doctor {
namespace {

constexpr std::size_t kMaxRunsNamed = 200;

const std::vector<CheckInfo> kRuntimeChecks = {
    {"never-completed", "no run stays in progress past the sweeper",
     "The relay's sweeper marks a run in_progress for 6 h timed_out "
     "(callback/cleanup_handler.py; utils/config.py:158-162); it has failed at times, and what "
     "it misses shows as running on the HUD for good."},
    {"zombie-swept", "runs end with their own completed callback",
     "A timed_out run with 6 h in progress was finalised by the sweeper, not by its job: its "
     "completed callback never came (cleanup_handler.py:26-54)."},
    {"shared-job-name", "each leg reports under a job name of its own",
     "The relay keys callbacks by delivery, run, attempt and job_name (redis_helper.py:295-312): "
     "legs sharing a name collide."},
    {"reruns", "how often runs are rerun",
     "A rerun is a new attempt with new keys; its queue time is measured from the original "
     "dispatch (callback_handler.py:130-133, 177-182)."},
    {"evidence", "completed runs report test counts and an artifact URL",
     "The HUD keeps test-results' counts and artifact-url only when sent (crcrUtils.ts:158-177)."},
    {"tested-sha", "the job logs show the dispatched upstream SHA checked out",
     "actions/checkout logs `Syncing repository: OWNER/NAME` and, once checked out, the commit "
     "(`git log -1 --format=%H`; src/git-source-provider.ts, actions/checkout @0109144c); "
     "torch-spyre's checkout-pytorch logs `FETCH_REF <sha or release/X.Y>` and `git log -1 "
     "--oneline` (action.yml @4ef5062f; real-backends.md 3.5). The relay dispatches the PR's "
     "head.sha (push: after), the SHA the HUD row carries (docs/crcr-integration-facts.md); "
     "torch-spyre builds a merged PR at its base branch's HEAD instead (real-backends.md 3.1)."},
    {"callback-latency", "the relay's queue time of first attempts",
     "queue_time is the relay's time from dispatch to the in_progress callback "
     "(callback_handler.py:177-182)."},
};

bool isPrOrPush(const HealthRun& run) { return run.eventType != EventType::Nightly; }

std::string plural(std::size_t n, const std::string& one, const std::string& many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string percent(std::size_t part, std::size_t whole)
{
    return whole == 0 ? "0%" : std::to_string((part * 100 + whole / 2) / whole) + "%";
}

std::string duration(double seconds)
{
    if (seconds < 120)
        return std::to_string(static_cast<long>(std::lround(seconds))) + " s";
    if (seconds < 7200)
        return std::to_string(static_cast<long>(std::lround(seconds / 60))) + " min";
    return std::to_string(static_cast<long>(std::lround(seconds / 3600))) + " h";
}

std::optional<double> quantile(std::vector<double> values, double q)
{
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const auto at = static_cast<std::size_t>(std::ceil(q * static_cast<double>(values.size()))) - 1;
    return values[std::min(at, values.size() - 1)];
}

bool sameRepository(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return lowerAscii(x) == lowerAscii(y);
           });
}

// The dispatched SHA as the HUD keeps it (40 hex, maybe upper case) against
// what git printed (lowercase; torch-spyre's git log only an abbreviation).
bool sameCommit(const std::string& dispatched, const std::string& checkedOut)
{
    return relayhud::sameCommit(checkedOut, dispatched);
}

bool shaOnly(const std::string& ref) { return isUpstreamCommit(ref); }

std::vector<CheckRunRow> rowsOf(const std::vector<const HealthRun*>& runs)
{
    std::vector<CheckRunRow> out;
    for (const HealthRun* run : runs)
        if (out.size() < kMaxRunsNamed)
            out.push_back(run->checkRunRow);
    return out;
}

} // namespace

const std::vector<CheckInfo>& runtimeChecks() { return kRuntimeChecks; }

TestedSha testedSha(const HealthRun& run)
{
    TestedSha out;
    out.upstreamRepo = run.upstreamRepo.empty() ? "pytorch/pytorch" : run.upstreamRepo;
    if (!run.checkouts)
        return out;
    for (const LogCheckout& checkout : *run.checkouts) {
        // A checkout-pytorch of a branch whose log never printed the commit
        // says nothing about which one it was.
        if (checkout.sha.empty() || !sameRepository(checkout.repository, out.upstreamRepo))
            continue;
        if (sameCommit(run.sha.value, checkout.sha)) {
            out.evidence = ShaEvidence::Verified;
            out.checkout = &checkout;
            return out;
        }
        if (!out.checkout)
            out.checkout = &checkout;
    }
    out.evidence = out.checkout ? ShaEvidence::Mismatched : ShaEvidence::NotShown;
    return out;
}

std::size_t RuntimeHealth::count(Severity severity) const
{
    return static_cast<std::size_t>(
        std::count_if(findings.begin(), findings.end(),
                      [severity](const HealthFinding& f) { return f.severity == severity; }));
}

namespace {

using LegKey =
    std::tuple<std::string, std::string, std::string, int>; // workflow, job, run, attempt

// What judgeRuntime gathers from the runs, finding by finding.
struct RuntimeTally {
    std::vector<const HealthRun*> missed, swept;
    std::map<LegKey, std::set<std::string>> legs; // check run ids
    std::map<LegKey, std::vector<const HealthRun*>> legRuns;
    std::map<std::string, int> attempts; // by run id
    std::vector<double> queue;
    std::vector<const HealthRun*> noCounts, noUrl, mismatched, notShown;
    std::size_t fetchedBase = 0; // mismatches read from checkout-pytorch: a merged PR's base
    std::string mismatchExample;
};

// A completed PR or push run's log: did it check out the dispatched SHA?
void tallyTestedSha(const HealthRun& run, RuntimeHealth& h, RuntimeTally& t)
{
    const TestedSha tested = testedSha(run);
    const LogCheckout* other = tested.checkout;
    switch (tested.evidence) {
    case ShaEvidence::NotRead: break;
    case ShaEvidence::Verified: ++h.shaVerified; break;
    case ShaEvidence::Mismatched:
        t.mismatched.push_back(&run);
        if (!other->fetchRef.empty() && run.prNumber.value > 0)
            ++t.fetchedBase;
        if (t.mismatchExample.empty())
            t.mismatchExample =
                "'" + run.job + "' on " + run.sha.value.substr(0, 12) + ": its log checked out "
                + other->repository
                + (other->fetchRef.empty() || shaOnly(other->fetchRef) ? std::string()
                                                                       : " " + other->fetchRef)
                + " at " + other->sha.substr(0, 12) + " (line " + std::to_string(other->line) + ")";
        break;
    case ShaEvidence::NotShown: t.notShown.push_back(&run); break;
    }
}

void tallyRun(const HealthRun& run, EpochSeconds now, RuntimeHealth& h, RuntimeTally& t)
{
    t.attempts[run.runId] = std::max(t.attempts[run.runId], run.attempt);
    if (run.status == RunStatus::Completed)
        ++h.completed;
    if (!isPrOrPush(run))
        return;
    if (run.status != RunStatus::Completed && run.startedAt
        && now - *run.startedAt >= kMissedAfterSeconds)
        t.missed.push_back(&run);
    const double inProgress = run.executionSeconds.value_or(
        run.startedAt && run.completedAt ? static_cast<double>(*run.completedAt - *run.startedAt)
                                         : 0.0);
    if (run.conclusion == Conclusion::TimedOut
        && inProgress >= static_cast<double>(kSweepAfterSeconds) * 0.98)
        t.swept.push_back(&run);
    if (!run.checkRunId.empty()) {
        const auto key = std::make_tuple(run.workflow, run.job, run.runId, run.attempt);
        if (t.legs[key].insert(run.checkRunId).second)
            t.legRuns[key].push_back(&run);
    }
    if (run.attempt == 1 && run.queueSeconds)
        t.queue.push_back(*run.queueSeconds);
    if (run.status == RunStatus::Completed) {
        tallyTestedSha(run, h, t);
        ++h.completedPr;
        if (!run.reportsTests)
            t.noCounts.push_back(&run);
        if (!run.hasArtifactUrl)
            t.noUrl.push_back(&run);
    }
}

void summarize(const RuntimeTally& t, RuntimeHealth& h)
{
    h.workflowRuns = t.attempts.size();
    h.rerunRuns = static_cast<std::size_t>(std::count_if(
        t.attempts.begin(), t.attempts.end(), [](const auto& a) { return a.second > 1; }));
    h.neverCompleted = t.missed.size();
    h.swept = t.swept.size();
    h.withoutCounts = t.noCounts.size();
    h.withoutArtifactUrl = t.noUrl.size();
    h.shaMismatched = t.mismatched.size();
    h.shaNotShown = t.notShown.size();
    h.logsRead = h.shaVerified + h.shaMismatched + h.shaNotShown;
    h.queueMedianSeconds = quantile(t.queue, 0.5);
    h.queueP90Seconds = quantile(t.queue, 0.9);
}

// never-completed, shared-job-name, zombie-swept: the callbacks themselves.
void callbackFindings(const RuntimeTally& t, RuntimeHealth& h)
{
    if (!t.missed.empty())
        h.findings.push_back(
            {Severity::Error, "never-completed",
             plural(t.missed.size(), "run has", "runs have")
                 + " been in progress for more than 7 h: the relay's sweeper (6 h) missed them, "
                   "and the HUD shows them running for good",
             "make the completed callback run with `if: always()` from the job that sent "
             "in_progress (doctor: callback-always, callback-pair)",
             rowsOf(t.missed)});
    std::vector<const HealthRun*> shared;
    std::string example;
    for (const auto& [key, ids] : t.legs) {
        if (ids.size() < 2)
            continue;
        ++h.sharedNames;
        const auto& found = t.legRuns.at(key);
        shared.insert(shared.end(), found.begin(), found.end());
        if (example.empty())
            example = "'" + std::get<1>(key) + "' in run " + std::get<2>(key) + " attempt "
                      + std::to_string(std::get<3>(key)) + ": "
                      + plural(ids.size(), "check run", "check runs");
    }
    if (h.sharedNames > 0)
        h.findings.push_back(
            {Severity::Error, "shared-job-name",
             plural(h.sharedNames, "job name was", "job names were")
                 + " reported by several legs at one attempt (" + example
                 + "): the relay keys callbacks by job name, so the legs collide",
             "pass a per-leg `job-name` on every callback (doctor: matrix-job-name)",
             rowsOf(shared)});
    if (!t.swept.empty())
        h.findings.push_back(
            {Severity::Warning, "zombie-swept",
             plural(t.swept.size(), "run was", "runs were")
                 + " marked timed_out by the relay's sweeper after 6 h in progress: their "
                   "completed callback never came",
             "make the completed callback run on failure and cancellation, and keep jobs under "
             "6 h (doctor: callback-always, timeout)",
             rowsOf(t.swept)});
}

// evidence and tested-sha: what a green can be checked against.
void evidenceFindings(const RuntimeTally& t, RuntimeHealth& h)
{
    if (h.completedPr > 0 && (!t.noCounts.empty() || !t.noUrl.empty()))
        h.findings.push_back(
            {t.noCounts.size() == h.completedPr ? Severity::Warning : Severity::Info, "evidence",
             percent(t.noCounts.size(), h.completedPr) + " of "
                 + plural(h.completedPr, "completed run", "completed runs")
                 + " reported no test counts and " + percent(t.noUrl.size(), h.completedPr)
                 + " no artifact URL: their greens cannot be checked",
             "send test-results and artifact-url with the completed callback (doctor: evidence)",
             rowsOf(t.noCounts.empty() ? t.noUrl : t.noCounts)});
    if (!t.mismatched.empty() && t.fetchedBase == t.mismatched.size())
        h.findings.push_back(
            {Severity::Warning, "tested-sha",
             plural(t.mismatched.size(), "run", "runs") + " of " + std::to_string(h.logsRead)
                 + " whose job log was read built the base branch's HEAD (checkout-pytorch's "
                   "FETCH_REF), not the PR head their HUD row names ("
                 + t.mismatchExample
                 + "): a merged PR's build; RelayHUD shows and compares them by the tested commit",
             "nothing to fix in the job if it means to test merged PRs; the HUD row cannot say "
             "so, since the relay's head SHA is the PR's (real-backends.md 3.1)",
             rowsOf(t.mismatched)});
    else if (!t.mismatched.empty())
        h.findings.push_back(
            {Severity::Error, "tested-sha",
             plural(t.mismatched.size(), "run", "runs") + " of " + std::to_string(h.logsRead)
                 + " whose job log was read tested another upstream commit than the relay "
                   "dispatched ("
                 + t.mismatchExample + "): their result is not the dispatched SHA's",
             "check out `client_payload.payload.pull_request.head.sha` (push: `after`) with "
             "`ref:`, not the default branch (doctor: exact-sha)",
             rowsOf(t.mismatched)});
    else if (h.logsRead > 0)
        h.findings.push_back(
            {Severity::Info, "tested-sha",
             h.shaVerified == 0
                 ? "cannot judge: none of the " + plural(h.logsRead, "job log", "job logs")
                       + " read shows a checkout of the upstream repository (a wheel, a tarball "
                         "or a script's own clone is not shown)"
                 : std::to_string(h.shaVerified) + " of "
                       + plural(h.logsRead, "job log", "job logs")
                       + " read show the dispatched SHA checked out"
                       + (t.notShown.empty() ? std::string()
                                             : "; " + std::to_string(t.notShown.size())
                                                   + " show no checkout of it (cannot judge)"),
             "keep actions/checkout of the upstream repository in the job, so its log shows "
             "what was tested",
             rowsOf(t.notShown)});
}

// reruns and callback-latency: how the backend's CI runs, for information.
void rhythmFindings(RuntimeHealth& h)
{
    if (h.rerunRuns > 0)
        h.findings.push_back({Severity::Info,
                              "reruns",
                              plural(h.rerunRuns, "workflow run was", "workflow runs were")
                                  + " rerun, of " + std::to_string(h.workflowRuns) + " ("
                                  + percent(h.rerunRuns, h.workflowRuns) + ")",
                              "look at the flaky and infra failures behind them",
                              {}});
    if (h.queueMedianSeconds)
        h.findings.push_back({Severity::Info,
                              "callback-latency",
                              "the relay's queue time of first attempts: median "
                                  + duration(*h.queueMedianSeconds) + ", 90th percentile "
                                  + duration(*h.queueP90Seconds),
                              "send in_progress as the job starts, not after its build",
                              {}});
}

} // namespace

RuntimeHealth judgeRuntime(const std::string& repo, const std::vector<HealthRun>& runs,
                           EpochSeconds since, EpochSeconds now)
{
    RuntimeHealth h;
    h.repo = repo;
    h.since = since;
    h.now = now;
    h.runs = runs.size();
    RuntimeTally t;
    for (const HealthRun& run : runs)
        tallyRun(run, now, h, t);
    summarize(t, h);
    callbackFindings(t, h);
    evidenceFindings(t, h);
    rhythmFindings(h);
    std::stable_sort(
        h.findings.begin(), h.findings.end(),
        [](const HealthFinding& a, const HealthFinding& b) { return a.severity < b.severity; });
    return h;
}

} // namespace relayhud::doctor
