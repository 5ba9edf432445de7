#include "sim_runs.h"

#include "sim_format.h"
#include "sim_job_run.h"
#include "sim_outcome_survey.h"
#include "sim_random.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

namespace relayhud::sim {
namespace {

constexpr EpochSeconds kNever = std::numeric_limits<EpochSeconds>::max();
constexpr int kMaxAttempts = 3;

// One execution of a job (attempt n of its workflow run).
struct Attempt {
    int number = 1;
    EpochSeconds start = 0;
    EpochSeconds end = 0;
    bool zombie = false;      // never reports completion
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
};

double millis(double seconds) { return std::round(seconds * 1000.0) / 1000.0; }

std::string deliveryId(std::uint64_t seed, std::size_t commit)
{
    SplitMix64 rng(mixSeed({seed, 0xDE11ULL, commit}));
    const std::string hex = rng.hex(32);
    return hex.substr(0, 8) + "-" + hex.substr(8, 4) + "-" + hex.substr(12, 4) + "-"
           + hex.substr(16, 4) + "-" + hex.substr(20);
}

class RunGenerator {
public:
    RunGenerator(const SimConfig& config, const std::vector<BackendSpec>& backends,
                 const std::vector<UpstreamCommit>& commits, const StoryPlan& plan,
                 TestCatalog& tests)
        : m_config(config), m_backends(backends), m_commits(commits), m_plan(plan), m_tests(tests)
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
        if (m_commits[c].eventType == EventType::Nightly)
            return m_backends[b].nightly;
        return m_plan.forcesRun(b, c) || rng.chance(m_backends[b].coverage);
    }

    void generateFor(std::size_t b, std::size_t c)
    {
        SplitMix64 rng(mixSeed({m_config.seed, 0xB0ULL, b, c}));
        if (!runsOn(b, c, rng))
            return;
        const bool isNightly = m_commits[c].eventType == EventType::Nightly;
        const EpochSeconds delay = isNightly ? rng.range(3600, 3 * 3600) : rng.range(5, 90);
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
        if (a.conclusion == Conclusion::Success || a.zombie || ctx.cancelled
            || a.conclusion == Conclusion::TimedOut)
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
        return RunEvent{ctx.commit, c.time, c.eventType, c.prNumber, mainBased};
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
        else if (m_plan.zombieCommit == ctx.commit
                 && m_plan.zombie.is(ctx.backend, ctx.workflow, j))
            a.zombie = true;
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
        if (!failures.empty()) {
            a.conclusion = Conclusion::Failure;
            a.failures = std::move(failures);
        } else if (a.number == 1 && !m_plan.causes.isCulpritJob(ctx.backend, ctx.workflow, j)
                   && ctx.rng.chance(0.006)) {
            a.conclusion = Conclusion::TimedOut;
            a.end = a.start + 4 * 3600; // the job's timeout-minutes
            a.reportsTests = false;
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

    void emit(RunContext& ctx, std::size_t j, const Attempt& a)
    {
        const bool done = !a.zombie && a.end <= m_config.now;
        // Nightlies send only a completed callback: nothing shows until then.
        if (a.start >= m_config.now || (nightly(ctx) && !done))
            return;
        const BackendSpec& backend = m_backends[ctx.backend];
        const UpstreamCommit& commit = m_commits[ctx.commit];
        PendingRow out{SimRow{}, ctx.backend, ctx.commit, ctx.workflow, false, {}};
        out.row.run = checkRun(ctx, j, a, done);
        out.row.deliveryId =
            nightly(ctx) ? commit.sha.value : deliveryId(m_config.seed, ctx.commit);
        out.row.eventTypeText = std::string(wireEventType(commit.eventType));
        if (done && !a.failures.empty())
            out.row.failedTestsJson = nlohmann::json(a.failedTests()).dump();
        out.row.environmentJson =
            nlohmann::json{{"sdk", backend.sdk}, {"device", backend.device}}.dump();
        const bool uploads = ctx.rng.chance(backend.artifactShare) || hidesFailures(ctx, j)
                             || m_plan.dropsFile(ctx.backend, ctx.workflow, j, ctx.commit);
        out.uploadsArtifacts = done && out.row.run.reported.tests && uploads;
        // Every row its HUD API serves: PR heads, nightlies, and (a known
        // difference from the real HUD, specs/hud-read-api.md S1) ciflow
        // tag pushes with their PR number.
        if (done && commit.eventType != EventType::Periodic)
            out.truth = truthOf(
                ctx, j, a, out.uploadsArtifacts && !backend.artifactExpired(a.end, m_config.now));
        m_rows.push_back(std::move(out));
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
        run.jobName = workflowSpec(ctx).jobs[j].name;
        run.runAttempt = a.number;
        run.reported.status = done ? RunStatus::Completed : RunStatus::InProgress;
        run.reported.conclusion = done ? a.conclusion : Conclusion::None;
        run.reported.startedAt = a.start;
        run.trusted.level = m_backends[ctx.backend].backend.level;
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
    const StoryPlan& m_plan;
    TestCatalog& m_tests;
    std::vector<PendingRow> m_rows;
};

} // namespace

std::vector<PendingRow> generateRuns(const SimConfig& config,
                                     const std::vector<BackendSpec>& backends,
                                     const std::vector<UpstreamCommit>& commits,
                                     const StoryPlan& plan, TestCatalog& tests)
{
    return RunGenerator(config, backends, commits, plan, tests).generate();
}

} // namespace relayhud::sim
