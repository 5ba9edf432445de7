#include "sim_runs.h"

#include "sim_format.h"
#include "sim_job_run.h"
#include "sim_outcome_survey.h"
#include "sim_random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

namespace relayhud::sim {
namespace {

constexpr EpochSeconds kNever = std::numeric_limits<EpochSeconds>::max();
constexpr int kMaxAttempts = 3;
// The relay's zombie sweeper (pytorch/test-infra aws/lambda/cross_repo_ci_relay/
// callback/cleanup_handler.py, utils/config.py ZOMBIE_TIMEOUT_SECONDS @61a77570)
// marks a job timed_out once it has been in_progress for 6 h. It runs from an
// EventBridge cron whose period is not in the repository: assumed 15 min.
constexpr EpochSeconds kZombieTimeout = 6 * 3600;
constexpr EpochSeconds kSweepPeriod = 15 * 60;
// A job's timeout-minutes: GitHub cancels it, and its `if: always()` report
// step says cancelled (nightlies, which have no in_progress to sweep).
constexpr EpochSeconds kJobTimeout = 4 * 3600;

// One execution of a job (attempt n of its workflow run).
struct Attempt {
    int number = 1;
    EpochSeconds start = 0;
    EpochSeconds end = 0;
    bool zombie = false;      // never reports completion, and the sweeper missed it
    bool swept = false;       // never reported completion: the sweeper timed it out
    bool reportsTests = true; // infra failures and cancellations report no counts
    Conclusion conclusion = Conclusion::Success;
    std::vector<CausedTest> failures; // each failing test with its cause
    std::optional<double> queueTime;

    std::vector<std::string> failedTests() const
    {
        std::vector<std::string> out;
        for (const CausedTest& f : failures)
            out.push_back(f.test);
        return out;
    }
    std::int64_t xpassStrict() const
    {
        return std::count_if(failures.begin(), failures.end(),
                             [](const CausedTest& f) { return f.xpassStrict; });
    }
};

// The truth line a job gets when its artifact does not show its failing
// tests: the cause that weighs most (a deterministic one before noise).
const CausedTest& weightiest(const std::vector<CausedTest>& failures)
{
    static constexpr SimCause kOrder[] = {SimCause::ThisPr,  SimCause::BrokenTrunk,
                                          SimCause::Backend, SimCause::UnexpectedPass,
                                          SimCause::Infra,   SimCause::Flaky};
    for (SimCause cause : kOrder)
        for (const CausedTest& f : failures)
            if (f.cause == cause)
                return f;
    return failures.front();
}

struct RunContext {
    std::size_t backend = 0;
    std::size_t commit = 0;
    std::size_t workflow = 0;
    EpochSeconds dispatch = 0; // when the relay dispatched (nightly: scheduled start)
    bool cancelled = false;    // the story's cancelled run
    bool outage = false;
    SplitMix64 rng{0};
    EpochSeconds cancelAt = kNever;
    int redispatch = 0; // 0: the head's own dispatch; 1: its PR closed; 2: reopened
};

double millis(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

std::string deliveryId(std::uint64_t seed, std::size_t commit, int dispatch)
{
    SplitMix64 rng(dispatch == 0
                       ? mixSeed({seed, 0xDE11ULL, commit})
                       : mixSeed({seed, 0xDE11ULL, commit, static_cast<std::uint64_t>(dispatch)}));
    const std::string hex = rng.hex(32);
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-"
           + hex.substr(16, 4) + "-" + hex.substr(20);
}

// torch-spyre's gate (real-backends.md 3.1; torch-spyre
// push-pytorch-dispatch-to-clickhouse.yaml @0225ff97): a PR's `closed`
// dispatch builds when it merged; what it builds is `git ls-remote` of the
// base branch's HEAD at gate time, not the PR head nor its merge commit as
// such. Main's HEAD at an instant is the merge commit of the last PR merged
// by then.
class MergedPulls {
public:
    explicit MergedPulls(const std::vector<SimPullRequest>& pulls)
    {
        for (const SimPullRequest& pr : pulls) {
            if (!pr.merged() || pr.heads.empty())
                continue;
            m_byLastHead.emplace(pr.heads.back().sha.value, &pr);
            m_merges.emplace_back(pr.mergedAt, &pr);
        }
        std::sort(m_merges.begin(), m_merges.end(),
                  [](const auto& a, const auto& b) { return a.first < b.first; });
    }

    // The merged PR whose last head this is, or nullptr.
    const SimPullRequest* mergedWithLastHead(const Sha& sha) const
    {
        const auto it = m_byLastHead.find(sha.value);
        return it == m_byLastHead.end() ? nullptr : it->second;
    }

    Sha mainHeadAt(EpochSeconds at, const SimPullRequest& fallback) const
    {
        const auto it = std::upper_bound(m_merges.begin(), m_merges.end(), at,
                                         [](EpochSeconds t, const auto& m) { return t < m.first; });
        return it == m_merges.begin() ? fallback.mergeCommitSha
                                      : std::prev(it)->second->mergeCommitSha;
    }

private:
    std::map<std::string, const SimPullRequest*> m_byLastHead;
    std::vector<std::pair<EpochSeconds, const SimPullRequest*>> m_merges;
};

class RunGenerator {
public:
    RunGenerator(const SimConfig& config, const std::vector<BackendSpec>& backends,
                 const std::vector<UpstreamCommit>& commits,
                 const std::vector<SimPullRequest>& pulls, const StoryPlan& plan,
                 TestCatalog& tests)
        : m_config(config), m_backends(backends), m_commits(commits), m_merged(pulls), m_plan(plan),
          m_tests(tests)
    {
    }

    std::vector<PendingRow> generate()
    {
        for (std::size_t c = 0; c < m_commits.size(); ++c)
            for (std::size_t b = 0; b < m_backends.size(); ++b)
                if (m_backends[b].reports())
                    generateFor(b, c);
        return std::move(m_rows);
    }

private:
    bool nightly(const RunContext& ctx) const
    {
        return m_commits[ctx.commit].eventType == EventType::Nightly;
    }

    bool runsOn(std::size_t b, std::size_t c, SplitMix64& rng) const
    {
        const BackendSpec& spec = m_backends[b];
        if (spec.removedDaysAgo > 0
            && m_commits[c].time >= m_config.now - spec.removedDaysAgo * EpochSeconds{86400})
            return false; // no longer in the allowlist: the relay stopped dispatching
        if (m_commits[c].eventType == EventType::Nightly)
            return m_backends[b].nightly;
        if (spec.reporter == Reporter::TorchSpyre)
            return m_commits[c].eventType == EventType::PullRequest
                   && m_merged.mergedWithLastHead(m_commits[c].sha) != nullptr;
        return m_plan.forcesRun(b, c) || rng.chance(m_backends[b].coverage);
    }

    // A torch-spyre-shaped run starts from the PR's `closed` dispatch.
    const SimPullRequest* spyreMerge(std::size_t b, std::size_t c) const
    {
        if (m_backends[b].reporter != Reporter::TorchSpyre
            || m_commits[c].eventType != EventType::PullRequest)
            return nullptr;
        return m_merged.mergedWithLastHead(m_commits[c].sha);
    }

    void generateFor(std::size_t b, std::size_t c)
    {
        SplitMix64 rng(mixSeed({m_config.seed, 0xB0ULL, b, c}));
        if (!runsOn(b, c, rng))
            return;
        const bool isNightly = m_commits[c].eventType == EventType::Nightly;
        const EpochSeconds delay = isNightly ? rng.range(3600, 3 * 3600) : rng.range(5, 90);
        if (const SimPullRequest* merged = spyreMerge(b, c)) {
            for (std::size_t w = 0; w < m_backends[b].workflows.size(); ++w) {
                RunContext ctx{
                    b, c, w, merged->mergedAt + delay, false, false, SplitMix64(rng.next())};
                ctx.redispatch = 1; // the `closed` action's delivery
                generateWorkflow(ctx);
            }
            return;
        }
        for (std::size_t w = 0; w < m_backends[b].workflows.size(); ++w) {
            const bool cancelled = c == m_plan.cancelledCommit && b == m_plan.cancelledBackend;
            RunContext ctx{b,
                           c,
                           w,
                           m_commits[c].time + delay,
                           cancelled,
                           m_plan.inOutage(b, c),
                           SplitMix64(rng.next())};
            generateWorkflow(ctx);
        }
        if (const EpochSeconds closed = closedAt(c); closed != 0) {
            // The relay dispatches the PR's `closed` and `reopened` actions too
            // (webhook/event_handler.py:22, pytorch/test-infra @61a77570): the
            // same head SHA, a new delivery, new workflow runs at attempt 1.
            const EpochSeconds reopened = closed + rng.range(5 * 60, 90 * 60);
            for (int d = 1; d <= 2; ++d)
                for (std::size_t w = 0; w < m_backends[b].workflows.size(); ++w) {
                    RunContext ctx{b,
                                   c,
                                   w,
                                   (d == 1 ? closed : reopened) + delay,
                                   false,
                                   false,
                                   SplitMix64(rng.next())};
                    ctx.redispatch = d;
                    generateWorkflow(ctx);
                }
        }
    }

    // A few PR heads are closed and reopened some hours later (0 = not).
    // Drawn from a stream of their own; story commits and PRs are left alone.
    EpochSeconds closedAt(std::size_t c) const
    {
        const UpstreamCommit& commit = m_commits[c];
        if (commit.eventType != EventType::PullRequest || m_plan.outageCommits.count(c) != 0
            || m_plan.hiddenCommits.count(c) != 0 || m_plan.incompleteCommits.count(c) != 0
            || c == m_plan.cancelledCommit || c == m_plan.zombieCommit
            || c == m_plan.regressionCommit || storyPr(commit.prNumber))
            return 0;
        SplitMix64 rng(mixSeed({m_config.seed, 0xC105EDULL, c}));
        if (!rng.chance(0.04))
            return 0;
        const EpochSeconds at = commit.time + rng.range(2 * 3600, 20 * 3600);
        return at < m_config.now ? at : 0;
    }

    bool storyPr(PrNumber pr) const
    {
        const SimStories& s = m_plan.stories;
        if (pr == s.culpritPr)
            return true;
        for (const SimBrokenTrunk& b : s.brokenTrunk)
            if (pr == b.culpritPr || pr == b.fixPr)
                return true;
        for (const SimPrBreak& b : s.prBreaks)
            if (pr == b.pr)
                return true;
        return false;
    }

    // The build job runs first; test legs start when it is done.
    void generateWorkflow(RunContext& ctx)
    {
        EpochSeconds testsFrom = ctx.dispatch + ctx.rng.range(10, 600);
        // Cancelled while the build is still running: no test leg ever starts.
        if (ctx.cancelled)
            ctx.cancelAt = testsFrom + ctx.rng.range(5 * 60, 10 * 60);
        for (std::size_t j = 0; j < workflowSpec(ctx).jobs.size(); ++j) {
            const JobSpec& job = workflowSpec(ctx).jobs[j];
            const EpochSeconds start =
                job.kind == JobKind::Build ? testsFrom : testsFrom + ctx.rng.range(5, 240);
            if (start >= ctx.cancelAt)
                continue; // cancelled before this leg was picked up
            Attempt attempt = firstAttempt(ctx, j, start);
            if (job.kind == JobKind::Build)
                testsFrom = attempt.end;
            emitWithReruns(ctx, j, std::move(attempt));
        }
    }

    void emitWithReruns(RunContext& ctx, std::size_t j, Attempt attempt)
    {
        emit(ctx, j, attempt);
        while (auto next = rerun(ctx, j, attempt)) {
            attempt = std::move(*next);
            emit(ctx, j, attempt);
        }
    }

    const WorkflowSpec& workflowSpec(const RunContext& ctx) const
    {
        return m_backends[ctx.backend].workflows[ctx.workflow];
    }

    bool hidesFailures(const RunContext& ctx, std::size_t j) const
    {
        return m_plan.hidden.is(ctx.backend, ctx.workflow, j)
               && m_plan.hiddenCommits.count(ctx.commit) != 0;
    }

    // How likely someone presses "Re-run failed jobs" after this attempt.
    double rerunChance(const RunContext& ctx, const Attempt& a) const
    {
        // torch-spyre's runs are not rerun here: its artifacts keep their
        // names across attempts (real-backends.md 3.3), so a rerun's reports
        // could not be told from the first attempt's.
        if (a.conclusion == Conclusion::Success || a.zombie || ctx.cancelled
            || a.conclusion == Conclusion::TimedOut || m_backends[ctx.backend].probe
            || m_backends[ctx.backend].reporter == Reporter::TorchSpyre)
            return 0.0;
        if (ctx.outage && a.number == 1)
            return 0.6;
        bool flaky = false;
        bool flakyStory = false;
        for (const CausedTest& f : a.failures) {
            if (f.cause != SimCause::Flaky && f.cause != SimCause::Infra)
                return 0.3; // a real break: someone tries once in a while
            flaky = flaky || f.cause == SimCause::Flaky;
            flakyStory = flakyStory || f.test == m_plan.stories.flakyTest;
        }
        return flakyStory ? 1.0 : flaky ? 0.5 : 0.6;
    }

    RunEvent eventOf(const RunContext& ctx) const
    {
        const UpstreamCommit& c = m_commits[ctx.commit];
        const bool mainBased = ctx.commit < m_plan.causes.mainBased.size()
                                   ? m_plan.causes.mainBased[ctx.commit]
                                   : true;
        const bool ownHead = !(m_backends[ctx.backend].checksOutDefaultBranch
                               && c.eventType == EventType::PullRequest);
        return RunEvent{ctx.commit, c.time, c.eventType, c.prNumber, mainBased, ownHead};
    }

    EpochSeconds duration(RunContext& ctx, const JobSpec& job)
    {
        return ctx.rng.range(job.minMinutes * 60, job.maxMinutes * 60);
    }

    Attempt firstAttempt(RunContext& ctx, std::size_t j, EpochSeconds start)
    {
        const JobSpec& job = workflowSpec(ctx).jobs[j];
        Attempt a;
        a.start = start;
        a.end = start + duration(ctx, job);
        a.queueTime = millis(static_cast<double>(start - ctx.dispatch) + ctx.rng.unit());
        a.reportsTests = job.kind == JobKind::Test;
        const EpochSeconds plannedEnd = a.end;
        if (ctx.cancelled) {
            if (a.end > ctx.cancelAt)
                cancel(a, ctx.cancelAt);
        } else if (ctx.outage)
            failOnInfrastructure(ctx, a);
        else if (m_plan.zombieCommit == ctx.commit && ctx.redispatch == 0
                 && m_plan.zombie.is(ctx.backend, ctx.workflow, j))
            a.zombie = true;
        else if (m_backends[ctx.backend].probe)
            probeOutcome(ctx, j, a);
        else
            decideOutcome(ctx, j, a);
        if (m_plan.dropsFile(ctx.backend, ctx.workflow, j, ctx.commit))
            keepGreen(a, plannedEnd);
        return a;
    }

    // The incomplete-green story's job reports success whatever the draws
    // said; they are still drawn, so the workflow's other jobs stay as they were.
    static void keepGreen(Attempt& a, EpochSeconds end)
    {
        if (a.conclusion == Conclusion::TimedOut)
            a.end = end;
        a.conclusion = Conclusion::Success;
        a.failures.clear();
        a.reportsTests = true;
    }

    static void cancel(Attempt& a, EpochSeconds at)
    {
        a.conclusion = Conclusion::Cancelled;
        a.end = std::max(a.start + 20, at);
        a.reportsTests = false;
    }

    void failOnInfrastructure(RunContext& ctx, Attempt& a)
    {
        a.conclusion = ctx.rng.chance(0.6) ? Conclusion::Failure : Conclusion::Cancelled;
        a.end = a.start + ctx.rng.range(30, 240);
        a.reportsTests = false;
    }

    // pytorch/crcr-test's probes do what their names say. A PR probe that
    // should time out never reports completion, so the sweeper times it out;
    // a nightly one (no in_progress to sweep) reports timed_out itself.
    void probeOutcome(const RunContext& ctx, std::size_t j, Attempt& a) const
    {
        const std::string& name = workflowSpec(ctx).jobs[j].name;
        a.reportsTests = false;
        if (name.find("xfail") != std::string::npos)
            a.conclusion = Conclusion::Failure;
        else if (name.find("xcancel") != std::string::npos)
            a.conclusion = Conclusion::Cancelled;
        else if (name.find("xtimeout") != std::string::npos) {
            a.conclusion = Conclusion::TimedOut;
            if (!nightly(ctx)) {
                a.swept = true;
                const EpochSeconds due = a.start + kZombieTimeout;
                a.end = (due + kSweepPeriod - 1) / kSweepPeriod * kSweepPeriod;
            }
        }
    }

    // Every failing test has its cause: the standing ones (this PR, broken
    // trunk, the backend, a strict XPASS) hold on each attempt; flaky tests and
    // the device-busy hour are drawn per attempt. A job with none may time out.
    void decideOutcome(RunContext& ctx, std::size_t j, Attempt& a)
    {
        const JobSpec& job = workflowSpec(ctx).jobs[j];
        if (job.kind == JobKind::Build || hidesFailures(ctx, j))
            return; // the hidden failures story reports green whatever pytest says
        const JobRef ref{ctx.backend, ctx.workflow, j};
        std::vector<CausedTest> failures;
        m_plan.causes.standing(eventOf(ctx), ref, failures);
        if (a.number == 1 && m_plan.flaky.is(ctx.backend, ctx.workflow, j) && ctx.rng.chance(0.3))
            addFailure(failures, {m_plan.stories.flakyTest, SimCause::Flaky, 0, false});
        m_plan.causes.drawn(ref, a.start, ctx.rng, failures);
        if (m_backends[ctx.backend].reporter == Reporter::TorchSpyre)
            drawSpyreBackendFailures(ctx, job, failures);
        if (!failures.empty()) {
            a.conclusion = Conclusion::Failure;
            a.failures = std::move(failures);
        } else if (a.number == 1 && !m_plan.causes.isCulpritJob(ctx.backend, ctx.workflow, j)
                   && ctx.rng.chance(0.006)) {
            a.reportsTests = false;
            if (nightly(ctx)) {
                a.conclusion = Conclusion::Cancelled;
                a.end = a.start + kJobTimeout;
            } else {
                // Its runner is lost: no completed callback ever comes, and the
                // sweeper's first pass after 6 h in_progress times it out.
                a.conclusion = Conclusion::TimedOut;
                a.swept = true;
                const EpochSeconds due = a.start + kZombieTimeout;
                a.end = (due + kSweepPeriod - 1) / kSweepPeriod * kSweepPeriod;
            }
        }
    }

    // torch-spyre's suites fail a few mandatory tests now and then (its
    // validate-mode runs report them and go on): drawn per run from the
    // pass-stable cases its JUnit holds, so flaky by the truth.
    void drawSpyreBackendFailures(RunContext& ctx, const JobSpec& job,
                                  std::vector<CausedTest>& failures)
    {
        if (!ctx.rng.chance(0.4))
            return;
        const TestUniverse& u = m_tests.universe(m_backends[ctx.backend], job.config);
        const auto total =
            std::min<std::uint64_t>(u.size(), static_cast<std::uint64_t>(job.testsTotal));
        const int count = 1 + static_cast<int>(ctx.rng.below(3));
        for (int i = 0; i < count && total > 0; ++i) {
            const std::uint64_t index = u.indexAt(job.shard, job.numShards, ctx.rng.below(total));
            // A case whose failure reads as a busy device is an infra
            // failure by its own message (the device-busy hour's): these
            // draws are the suite's random misses, flaky by the truth.
            if (u.outcome(index) == StableOutcome::Pass
                && u.failureKind(index) != FailureKind::SetupError)
                addFailure(failures, {u.nodeId(u.caseAt(index)), SimCause::Flaky, 0, false});
        }
    }

    // Someone pressed "Re-run failed jobs": same run_id, next run_attempt.
    std::optional<Attempt> rerun(RunContext& ctx, std::size_t j, const Attempt& prev)
    {
        const double p = rerunChance(ctx, prev);
        if (p <= 0.0 || prev.number >= kMaxAttempts || !ctx.rng.chance(p))
            return std::nullopt;
        const JobSpec& job = workflowSpec(ctx).jobs[j];
        Attempt a;
        a.number = prev.number + 1;
        a.start = prev.end + ctx.rng.range(10 * 60, 90 * 60);
        a.end = a.start + duration(ctx, job);
        a.reportsTests = job.kind == JobKind::Test;
        // The relay measures every in_progress callback's queue_time from the
        // original dispatch (callback_handler.py:177-182 @61a77570), so a
        // rerun carries hours.
        a.queueTime = millis(static_cast<double>(a.start - ctx.dispatch)
                             + static_cast<double>(micros(ctx, j, a.number, 3)) / 1e6);
        decideOutcome(ctx, j, a);
        return a;
    }

    // The counts of the JUnit the job writes: its shard's first `total`
    // cases, skips and xfails as the universe has them, the failed tests
    // failing (a strict XPASS fails a test that is otherwise xfailed).
    std::optional<TestCounts> counts(RunContext& ctx, const JobSpec& job, const Attempt& a)
    {
        if (!a.reportsTests || job.testsTotal == 0)
            return std::nullopt;
        const BackendSpec& backend = m_backends[ctx.backend];
        const TestUniverse& universe = m_tests.universe(backend, job.config);
        TestCounts t;
        const std::int64_t upstream = jobTotalOn(job, universe, ctx.commit);
        const std::size_t j = jobIndexOf(ctx, job);
        if (m_plan.dropsFile(ctx.backend, ctx.workflow, j, ctx.commit))
            return countsWithoutFile(universe, job, upstream);
        // A PR adding a test runs it besides upstream's.
        t.total =
            upstream + (m_plan.causes.hasNewTest(ctx.backend, ctx.workflow, j, ctx.commit) ? 1 : 0);
        t.skipped = m_tests.skippedAmong(backend, job, upstream) - a.xpassStrict();
        t.failed = static_cast<std::int64_t>(a.failures.size());
        t.passed = t.total - t.skipped - t.failed;
        return t;
    }

    std::size_t jobIndexOf(const RunContext& ctx, const JobSpec& job) const
    {
        return static_cast<std::size_t>(&job - workflowSpec(ctx).jobs.data());
    }

    // The story's counts: what its JUnit holds once the file is gone.
    TestCounts countsWithoutFile(const TestUniverse& universe, const JobSpec& job,
                                 std::int64_t total) const
    {
        JobRun run = runJob(universe, job, total, {});
        dropFile(run, m_plan.stories.incompleteGreenFile);
        TestCounts t;
        t.total = run.totals.tests;
        t.skipped = run.totals.junitSkipped();
        t.passed = t.total - t.skipped;
        return t;
    }

    // Sub-second digits of the callbacks' wall-clock times: a hash, so the
    // draws of everything else stay as they were.
    int micros(const RunContext& ctx, std::size_t j, int attempt, std::uint64_t which) const
    {
        SplitMix64 rng(mixSeed({m_config.seed, 0x05ECULL, ctx.backend, ctx.commit, ctx.workflow, j,
                                static_cast<std::uint64_t>(attempt), which}));
        return static_cast<int>(rng.below(1000000));
    }

    // What the relay dispatched and the HUD keyed the row by: the webhook's
    // delivery GUID; for a nightly, the downstream's delivery-id input (the
    // nightly SHA, or free text for a backend that sends something else).
    std::string deliveryOf(const RunContext& ctx) const
    {
        const UpstreamCommit& commit = m_commits[ctx.commit];
        if (!nightly(ctx))
            return deliveryId(m_config.seed, ctx.commit, ctx.redispatch);
        if (m_backends[ctx.backend].nightlyKeyFreeText)
            return "nightly-" + isoDate(commit.time);
        return commit.sha.value;
    }

    void emit(RunContext& ctx, std::size_t j, const Attempt& a)
    {
        const bool done = !a.zombie && a.end <= m_config.now;
        // Nightlies send only a completed callback: nothing shows until then.
        if (a.start >= m_config.now || (nightly(ctx) && !done))
            return;
        const BackendSpec& backend = m_backends[ctx.backend];
        const UpstreamCommit& commit = m_commits[ctx.commit];
        PendingRow out{SimRow{}, ctx.backend, ctx.commit, ctx.workflow, ctx.redispatch, false, {}};
        out.row.run = checkRun(ctx, j, a, done);
        out.row.testedSha = commit.sha;
        if (const SimPullRequest* merged = spyreMerge(ctx.backend, ctx.commit))
            out.row.testedSha = m_merged.mainHeadAt(ctx.dispatch, *merged);
        if (backend.reporter == Reporter::TorchSpyre && done)
            shapeSpyreEvidence(ctx, a, out.row);
        out.row.specJob = workflowSpec(ctx).jobs[j].name;
        out.row.deliveryId = deliveryOf(ctx);
        out.row.eventTypeText = std::string(wireEventType(commit.eventType));
        storeAsTheHudDoes(ctx, j, a, out.row);
        if (done && !a.failures.empty())
            out.row.failedTestsJson = nlohmann::json(a.failedTests()).dump();
        out.row.environmentJson =
            nlohmann::json{{"sdk", backend.sdk}, {"device", backend.device}}.dump();
        const bool uploads = ctx.rng.chance(backend.artifactShare) || hidesFailures(ctx, j)
                             || m_plan.dropsFile(ctx.backend, ctx.workflow, j, ctx.commit);
        out.uploadsArtifacts = done && out.row.run.reported.tests && uploads;
        // Every row its HUD API serves: PR heads and nightlies (push rows
        // have pr_number 0 and no row query returns them).
        const bool readable =
            backend.reporter == Reporter::TorchSpyre
                ? out.row.evidence.suites > 0
                      && out.row.evidence.suitesAt + 90 * kSecondsPerDay > m_config.now
                : out.uploadsArtifacts && !backend.artifactExpired(a.end, m_config.now);
        if (done && !backend.probe
            && (commit.eventType == EventType::PullRequest
                || commit.eventType == EventType::Nightly))
            out.truth = truthOf(ctx, j, a, readable);
        m_rows.push_back(std::move(out));
    }

    // torch-spyre's two shapes (real-backends.md 3.2): variant A runs the
    // matrix in its own run and sends counts with a count-derived conclusion;
    // variant B dispatches the matrix as a child run in validate mode and
    // sends the child's conclusion with no counts: success while tests failed.
    // Its report job uploads the merged reports after the callback, and now
    // and then not at all (a failed download step). Nightlies send counts
    // after the upload (`report` job, schedule path).
    void shapeSpyreEvidence(RunContext& ctx, const Attempt& a, SimRow& row)
    {
        SimEvidence& e = row.evidence;
        const bool dispatched = !nightly(ctx) && ctx.rng.chance(0.5);
        e.shape = dispatched ? SimEvidenceShape::Dispatched : SimEvidenceShape::InRun;
        e.wheelsAt = a.start - ctx.rng.range(10 * 60, 40 * 60);
        if (!a.reportsTests)
            return; // the build broke or the run was cancelled: no suite ran
        e.suites = 4;
        e.suitesAt = a.end - ctx.rng.range(60, 600);
        if (!dispatched) {
            e.mergedReportsAt = a.end - ctx.rng.range(20, 120);
            e.junitTotal = row.run.reported.tests ? row.run.reported.tests->total : 0;
            return;
        }
        e.mergedReportsAt = ctx.rng.chance(0.3) ? 0 : a.end + ctx.rng.range(3 * 60, 25 * 60);
        CheckRun& run = row.run;
        e.junitTotal = run.reported.tests ? run.reported.tests->total : 0;
        run.reported.tests.reset();
        if (run.reported.conclusion == Conclusion::Failure)
            run.reported.conclusion = Conclusion::Success; // validate mode
    }

    // What the HUD's user sees failing, and why: the tests of the artifact's
    // JUnit, or the job when no readable artifact shows them. Cancelled runs
    // have none.
    std::vector<SimTruthLine> truthOf(const RunContext& ctx, std::size_t j, const Attempt& a,
                                      bool uploads) const
    {
        if (a.conclusion == Conclusion::Cancelled)
            return {};
        std::vector<CausedTest> failing = a.failures;
        if (hidesFailures(ctx, j))
            for (const std::string& test : m_plan.stories.hiddenFailureTests)
                addFailure(failing, {test, SimCause::Backend, 0, false});
        std::vector<SimTruthLine> out;
        if (uploads && !failing.empty()) {
            for (const CausedTest& f : failing)
                out.push_back({CheckRunId{}, f.test, f.cause, f.culpritPr});
        } else if (!failing.empty()) {
            const CausedTest& f = weightiest(failing);
            out.push_back({CheckRunId{}, std::string(), f.cause, f.culpritPr});
        } else if (a.conclusion == Conclusion::Failure || a.conclusion == Conclusion::TimedOut)
            out.push_back({CheckRunId{}, std::string(), SimCause::Infra, 0});
        return out;
    }

    // pytorch/test-infra torchci/lib/crcr/crcrUtils.ts extractDynamoRecord
    // (@61a77570): pr_number = pull_request?.number ?? 0 and pytorch_head_sha
    // = pull_request.head.sha ?? payload.head_sha ?? delivery_id. A push
    // payload (ciflow tags included) has no pull_request and no head_sha; a
    // nightly's self-report sets head_sha = delivery-id (report_callback.py).
    // Timestamps are the callbacks' wall clock with microseconds
    // (report_callback.py:86); a nightly sends one completed callback, so
    // started_at == completed_at, and bypasses the state machine, so queue
    // and execution time are null (callback_handler.py:255-288). The sweeper
    // writes completed_at in whole seconds (cleanup_handler.py:222).
    void storeAsTheHudDoes(const RunContext& ctx, std::size_t j, const Attempt& a,
                           SimRow& row) const
    {
        CheckRun& run = row.run;
        row.startedMicros = micros(ctx, j, a.number, 1);
        row.completedMicros = a.swept ? 0 : micros(ctx, j, a.number, 2);
        if (m_commits[ctx.commit].eventType == EventType::Push) {
            run.prNumber = PrNumber{};
            run.upstreamSha = Sha{row.deliveryId};
        }
        if (nightly(ctx)) {
            run.upstreamSha = Sha{row.deliveryId};
            run.reported.startedAt = run.reported.completedAt;
            row.startedMicros = row.completedMicros;
            run.trusted.queueTimeSeconds.reset();
            run.trusted.executionTimeSeconds.reset();
        }
        if (a.swept && run.trusted.executionTimeSeconds)
            run.trusted.executionTimeSeconds =
                millis(static_cast<double>(a.end - a.start)
                       - static_cast<double>(row.startedMicros) / 1e6);
    }

    // The row as the HUD holds it at `now`; GitHub ids and URLs come later.
    CheckRun checkRun(RunContext& ctx, std::size_t j, const Attempt& a, bool done)
    {
        const UpstreamCommit& commit = m_commits[ctx.commit];
        CheckRun run;
        run.downstreamRepo = m_backends[ctx.backend].backend.repo;
        run.upstreamSha = commit.sha;
        run.prNumber = commit.prNumber;
        run.eventType = commit.eventType;
        run.workflow = workflowSpec(ctx).name;
        const JobSpec& spec = workflowSpec(ctx).jobs[j];
        const std::string& shared = m_backends[ctx.backend].sharedTestJobName;
        run.jobName = spec.kind == JobKind::Test && !shared.empty() ? shared : spec.name;
        run.runAttempt = a.number;
        run.reported.status = done ? RunStatus::Completed : RunStatus::InProgress;
        run.reported.conclusion = done ? a.conclusion : Conclusion::None;
        run.reported.startedAt = a.start;
        run.trusted.level = m_backends[ctx.backend].rowLevel();
        run.trusted.queueTimeSeconds = a.queueTime;
        if (!done)
            return run;
        run.reported.completedAt = a.end;
        run.reported.tests = counts(ctx, workflowSpec(ctx).jobs[j], a);
        run.trusted.executionTimeSeconds =
            millis(static_cast<double>(a.end - a.start) + ctx.rng.unit() * 2.0);
        return run;
    }

    const SimConfig& m_config;
    const std::vector<BackendSpec>& m_backends;
    const std::vector<UpstreamCommit>& m_commits;
    MergedPulls m_merged;
    const StoryPlan& m_plan;
    TestCatalog& m_tests;
    std::vector<PendingRow> m_rows;
};

} // namespace

std::vector<PendingRow> generateRuns(const SimConfig& config,
                                     const std::vector<BackendSpec>& backends,
                                     const std::vector<UpstreamCommit>& commits,
                                     const std::vector<SimPullRequest>& pulls,
                                     const StoryPlan& plan, TestCatalog& tests)
{
    return RunGenerator(config, backends, commits, pulls, plan, tests).generate();
}

} // namespace relayhud::sim
