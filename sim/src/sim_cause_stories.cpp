// The stories whose failures have known causes: broken-trunk culprits, PRs
// that break their own tests (or add a failing one), a backend-side break, a
// device-busy hour, flaky tests and strict XPASSes. Each draws from a stream
// of its own, so adding or changing one leaves the others as they were.
#include "sim_commits.h"
#include "sim_outcome_survey.h"
#include "sim_pulls.h"
#include "sim_random.h"
#include "sim_stories.h"

#include <algorithm>
#include <map>
#include <set>

namespace relayhud::sim {
namespace {

constexpr double kPrBreakShare = 0.08;

std::map<std::string, std::size_t> commitIndexBySha(const std::vector<UpstreamCommit>& commits)
{
    std::map<std::string, std::size_t> out;
    for (std::size_t i = 0; i < commits.size(); ++i)
        out.emplace(commits[i].sha.value, i);
    return out;
}

// A test among the job's first testsTotal cases (so every run has it) that
// `accept`s the case's stable outcome and failure kind; "" when none is found.
template <class Accept>
std::string pickCase(SplitMix64& rng, const TestUniverse& u, const JobSpec& job, Accept accept)
{
    const auto limit = std::max<std::uint64_t>(
        1, std::min<std::uint64_t>(u.size(), static_cast<std::uint64_t>(job.testsTotal)));
    for (int attempt = 0; attempt < 2000; ++attempt) {
        const std::uint64_t index = u.indexAt(job.shard, job.numShards, rng.below(limit));
        if (accept(u.outcome(index), u.failureKind(index)))
            return u.nodeId(u.caseAt(index));
    }
    return {};
}

bool ordinaryFailure(StableOutcome o, FailureKind k)
{
    return o == StableOutcome::Pass
           && (k == FailureKind::Assertion || k == FailureKind::BackendError);
}

class CauseStoryPlanner {
public:
    CauseStoryPlanner(const StoryWorld& world, StoryPlan& plan)
        : m_world(world), m_plan(plan), m_shas(commitIndexBySha(world.commits)),
          m_start(world.config.now - kHistorySeconds)
    {
    }

    void planBrokenTrunk()
    {
        SplitMix64 rng(mixSeed({seed(), 0xB70CE4ULL}));
        const std::size_t backend = fullCoverageBackend();
        std::vector<JobRef> jobs = testJobsOf(m_world.backends, backend);
        if (jobs.empty())
            return;
        const int count = rng.chance(0.5) ? 2 : 1;
        const double windows[2][2] = {{0.35, 0.2}, {0.6, 0.15}};
        for (int k = 0; k < count && !jobs.empty(); ++k) {
            const std::size_t at = rng.index(jobs.size());
            const JobRef job = jobs[at];
            jobs.erase(jobs.begin() + static_cast<std::ptrdiff_t>(at));
            planCulprit(rng, job, windows[k][0], windows[k][1]);
        }
    }

    void remember(std::set<PrNumber> prs) { m_used = std::move(prs); }

    void planCauseStories()
    {
        planPrBreaks();
        planNewTest();
        planBackendBreak();
        planDeviceBusy();
        planFlakyTests();
        planStrictXpasses();
    }

private:
    std::uint64_t seed() const { return m_world.config.seed; }
    const std::vector<BackendSpec>& backends() const { return m_world.backends; }

    std::size_t fullCoverageBackend() const
    {
        const auto reporting = reportingBackends(backends());
        for (std::size_t i : reporting)
            if (backends()[i].coverage >= 1.0)
                return i;
        return reporting.front();
    }

    EpochSeconds at(double fraction) const
    {
        return m_start + static_cast<EpochSeconds>(fraction * static_cast<double>(kHistorySeconds));
    }

    const TestUniverse& universeOf(const JobRef& job)
    {
        return m_world.tests.universe(backends()[job.backend], jobSpecOf(backends(), job).config);
    }

    std::string ordinaryTest(SplitMix64& rng, const JobRef& job)
    {
        return pickCase(rng, universeOf(job), jobSpecOf(backends(), job), ordinaryFailure);
    }

    std::size_t commitOf(const Sha& sha) const { return m_shas.at(sha.value); }

    bool busyPr(PrNumber number) const { return m_used.count(number) != 0; }

    // A main-based PR whose last head lands in the window, not yet in a story.
    SimPullRequest* pickPr(SplitMix64& rng, EpochSeconds from, EpochSeconds until,
                           std::size_t minHeads)
    {
        std::vector<SimPullRequest*> candidates;
        for (SimPullRequest& pr : m_world.pulls)
            if (pr.baseRef == "main" && pr.heads.size() >= minHeads && !busyPr(pr.number)
                && lastHeadTime(pr) >= from && lastHeadTime(pr) < until)
                candidates.push_back(&pr);
        return candidates.empty() ? nullptr : candidates[rng.index(candidates.size())];
    }

    void planCulprit(SplitMix64& rng, const JobRef& job, double lo, double width)
    {
        SimPullRequest* culprit = pickPr(rng, at(lo), at(lo + width), 2);
        if (!culprit)
            culprit = pickPr(rng, at(lo), at(lo + width), 1);
        const std::string test = ordinaryTest(rng, job);
        if (!culprit || test.empty())
            return;
        m_used.insert(culprit->number);
        const EpochSeconds mergedAt =
            lastHeadTime(*culprit) + rng.range(kSecondsPerHour, 6 * kSecondsPerHour);
        const EpochSeconds fixedAt =
            mergedAt + rng.range(24 * kSecondsPerHour, 48 * kSecondsPerHour);
        mergePull(*culprit, mergedAt, seed());
        SimPullRequest* fix = pickPr(rng, mergedAt, fixedAt, 1);
        if (fix && fixedAt < m_world.config.now) {
            m_used.insert(fix->number);
            mergePull(*fix, fixedAt, seed());
        } else
            fix = nullptr;
        m_plan.causes.culpritJobs.push_back(job);
        addPrBreak(*culprit, job, {test}, 0, culprit->heads.size(), false);
        m_plan.causes.windows.push_back(WindowPlan{job, test, mergedAt, fixedAt,
                                                   SimCause::BrokenTrunk, culprit->number, true,
                                                   fix ? fix->number : PrNumber{}});
        SimBrokenTrunk story{
            culprit->number, mergedAt, fixedAt, fix ? fix->number : PrNumber{}, {}, {}, {}, test};
        nameJob(backends(), job, story.backend, story.workflow, story.job);
        SimStories& s = m_plan.stories;
        if (s.brokenTrunk.empty()) {
            m_plan.regression = job;
            m_plan.regressionCommit = commitOf(culprit->heads.front().sha);
            s.regressionBackend = story.backend;
            s.regressionWorkflow = story.workflow;
            s.regressionJob = story.job;
            s.regressionFirstBadSha = culprit->heads.front().sha;
            s.regressionTests = {test};
            s.culpritPr = culprit->number;
        }
        s.brokenTrunk.push_back(std::move(story));
    }

    // Heads [from, until) of the PR fail `tests` on `job`.
    void addPrBreak(const SimPullRequest& pr, const JobRef& job, std::vector<std::string> tests,
                    std::size_t from, std::size_t until, bool newTest)
    {
        SimPrBreak story{pr.number, {}, {}, {}, tests, {}, newTest};
        nameJob(backends(), job, story.backend, story.workflow, story.job);
        PrBreakPlan plan{pr.number, job, std::move(tests), {}};
        for (std::size_t h = from; h < until && h < pr.heads.size(); ++h) {
            plan.commits.insert(commitOf(pr.heads[h].sha));
            story.failingShas.push_back(pr.heads[h].sha);
        }
        if (newTest) {
            m_plan.causes.newTest.commits = plan.commits;
            m_plan.causes.newTest.pr = pr.number;
        } else
            m_plan.causes.prBreaks.push_back(std::move(plan));
        m_plan.stories.prBreaks.push_back(std::move(story));
    }

    // Jobs no other story holds: the culprits', the hidden and incomplete greens'.
    std::vector<JobRef> freeTestJobs(std::size_t backend) const
    {
        std::vector<JobRef> out;
        for (const JobRef& job : testJobsOf(backends(), backend))
            if (!m_plan.causes.isCulpritJob(job.backend, job.workflow, job.job)
                && !(job == m_plan.hidden) && !(job == m_plan.incomplete))
                out.push_back(job);
        return out;
    }

    void planPrBreaks()
    {
        const auto reporting = reportingBackends(backends());
        for (const SimPullRequest& pr : m_world.pulls) {
            SplitMix64 rng(
                mixSeed({seed(), 0x7415ULL, static_cast<std::uint64_t>(pr.number.value)}));
            if (pr.heads.empty() || busyPr(pr.number) || !rng.chance(kPrBreakShare))
                continue;
            std::vector<JobRef> jobs = freeTestJobs(rng.pick(reporting));
            if (jobs.empty())
                continue;
            const std::size_t n = pr.heads.size();
            const std::size_t from = n > 1 && rng.chance(0.3) ? 1 + rng.index(n - 1) : 0;
            const std::size_t until =
                n - from >= 2 && rng.chance(0.25) ? from + 1 + rng.index(n - from - 1) : n;
            const int jobCount = jobs.size() > 1 && rng.chance(0.3) ? 2 : 1;
            for (int k = 0; k < jobCount; ++k) {
                const std::size_t pick = rng.index(jobs.size());
                const JobRef job = jobs[pick];
                jobs.erase(jobs.begin() + static_cast<std::ptrdiff_t>(pick));
                std::vector<std::string> tests;
                const auto count = rng.range(1, 2);
                for (std::int64_t t = 0; t < count; ++t) {
                    std::string test = ordinaryTest(rng, job);
                    if (!test.empty() && std::find(tests.begin(), tests.end(), test) == tests.end())
                        tests.push_back(std::move(test));
                }
                addPrBreak(pr, job, std::move(tests), from, until, false);
            }
            m_used.insert(pr.number);
        }
    }

    // A PR adds an upstream test that fails on the backend: a case of the
    // job's shard past what any run of the history reaches.
    void planNewTest()
    {
        SplitMix64 rng(mixSeed({seed(), 0x4E57ULL}));
        std::vector<JobRef> jobs;
        for (std::size_t b : reportingBackends(backends()))
            if (backends()[b].artifactShare > 0.0 && backends()[b].coverage >= 0.7)
                for (const JobRef& job : freeTestJobs(b))
                    jobs.push_back(job);
        SimPullRequest* pr = pickPr(rng, at(0.3), at(0.85), 2);
        if (jobs.empty() || !pr)
            return;
        const JobRef job = rng.pick(jobs);
        const TestUniverse& u = universeOf(job);
        const auto index = newTestCase(u, jobSpecOf(backends(), job), m_world.commits.size());
        if (!index)
            return;
        m_used.insert(pr->number);
        keepUnmerged(*pr);
        m_plan.causes.newTest.job = job;
        m_plan.causes.newTest.index = *index;
        m_plan.causes.newTest.test = u.nodeId(u.caseAt(*index));
        addPrBreak(*pr, job, {m_plan.causes.newTest.test}, 0, pr->heads.size(), true);
    }

    // From a time on, a backend's job fails a test on every run for about a day.
    void planBackendBreak()
    {
        SplitMix64 rng(mixSeed({seed(), 0xBAC4EULL}));
        std::vector<JobRef> jobs;
        for (std::size_t b : reportingBackends(backends(), {m_plan.regression.backend}))
            if (backends()[b].nightly && backends()[b].coverage >= 0.6)
                for (const JobRef& job : freeTestJobs(b))
                    jobs.push_back(job);
        if (jobs.empty())
            return;
        const JobRef job = rng.pick(jobs);
        std::string test = pickCase(
            rng, universeOf(job), jobSpecOf(backends(), job), [](StableOutcome o, FailureKind k) {
                return o == StableOutcome::Pass && k == FailureKind::BackendError;
            });
        if (test.empty())
            test = ordinaryTest(rng, job);
        const EpochSeconds from = at(0.2 + 0.25 * rng.unit());
        const EpochSeconds until = from + rng.range(20 * kSecondsPerHour, 28 * kSecondsPerHour);
        m_plan.causes.windows.push_back(
            WindowPlan{job, test, from, until, SimCause::Backend, 0, false, 0});
        SimStories& s = m_plan.stories;
        nameJob(backends(), job, s.backendBreakBackend, s.backendBreakWorkflow, s.backendBreakJob);
        s.backendBreakTest = test;
        s.backendBreakFrom = from;
        s.backendBreakUntil = until;
        // Half the worlds: the change hits the job's whole family (every
        // shard of its config), each shard failing a test of its own.
        if (rng.chance(0.5))
            for (const JobRef& sibling : familyOf(job))
                if (std::string t = backendTest(rng, sibling); !t.empty())
                    m_plan.causes.windows.push_back(WindowPlan{sibling, std::move(t), from, until,
                                                               SimCause::Backend, 0, false, 0});
        planLateBackendBreak(jobs);
    }

    // Half the worlds: another backend change, on another job, starting late
    // in the history (in the last day or so, some still going at its end):
    // few runs show it yet, and the PRs just before it passed.
    void planLateBackendBreak(std::vector<JobRef> jobs)
    {
        SplitMix64 rng(mixSeed({seed(), 0xBAC4E2ULL}));
        std::erase_if(jobs, [this](const JobRef& j) {
            return std::any_of(m_plan.causes.windows.begin(), m_plan.causes.windows.end(),
                               [&](const WindowPlan& w) { return w.job == j; });
        });
        if (jobs.empty() || !rng.chance(0.5))
            return;
        const JobRef job = rng.pick(jobs);
        std::string test = backendTest(rng, job);
        if (test.empty())
            return;
        const EpochSeconds from = at(0.88 + 0.08 * rng.unit());
        const EpochSeconds until = from + rng.range(20 * kSecondsPerHour, 28 * kSecondsPerHour);
        m_plan.causes.windows.push_back(
            WindowPlan{job, std::move(test), from, until, SimCause::Backend, 0, false, 0});
    }

    std::string backendTest(SplitMix64& rng, const JobRef& job)
    {
        std::string test = pickCase(
            rng, universeOf(job), jobSpecOf(backends(), job), [](StableOutcome o, FailureKind k) {
                return o == StableOutcome::Pass && k == FailureKind::BackendError;
            });
        return test.empty() ? ordinaryTest(rng, job) : test;
    }

    // The other shards of a test job's config in its workflow, free of stories.
    std::vector<JobRef> familyOf(const JobRef& job) const
    {
        const JobSpec& spec = jobSpecOf(backends(), job);
        std::vector<JobRef> out;
        for (const JobRef& other : freeTestJobs(job.backend)) {
            const JobSpec& o = jobSpecOf(backends(), other);
            if (other.workflow == job.workflow && !(other == job) && o.config == spec.config
                && o.numShards == spec.numShards)
                out.push_back(other);
        }
        return out;
    }

    // An hour in which a backend's devices are held: tests error at setup.
    void planDeviceBusy()
    {
        SplitMix64 rng(mixSeed({seed(), 0xB5B0ULL}));
        std::vector<std::size_t> candidates;
        for (std::size_t b : reportingBackends(backends()))
            if (backends()[b].artifactShare > 0.0 && backends()[b].coverage >= 0.7)
                candidates.push_back(b);
        if (candidates.empty())
            return;
        DeviceBusyPlan& busy = m_plan.causes.busy;
        busy.backend = rng.pick(candidates);
        busy.from = busyStart(rng);
        busy.until = busy.from + kSecondsPerHour;
        for (std::size_t c = 0; c < m_world.commits.size(); ++c)
            if (m_world.commits[c].time >= busy.from - kSecondsPerHour
                && m_world.commits[c].time < busy.until)
                busy.commits.insert(c); // the backend runs them: the hour hits several PRs
        for (const JobRef& job : freeTestJobs(busy.backend)) {
            auto& pool = busy.pools[{job.workflow, job.job}];
            for (int k = 0; k < 8; ++k) {
                std::string test =
                    pickCase(rng, universeOf(job), jobSpecOf(backends(), job),
                             [](StableOutcome o, FailureKind kind) {
                                 return o == StableOutcome::Pass && kind == FailureKind::SetupError;
                             });
                if (!test.empty() && std::find(pool.begin(), pool.end(), test) == pool.end())
                    pool.push_back(std::move(test));
            }
        }
        SimStories& s = m_plan.stories;
        s.deviceBusyBackend = backends()[busy.backend].backend.repo;
        s.deviceBusyFrom = busy.from;
        s.deviceBusyUntil = busy.until;
    }

    // Just after an upstream event that another follows closely, so the
    // hour catches the test jobs of more than one PR.
    EpochSeconds busyStart(SplitMix64& rng) const
    {
        const auto& commits = m_world.commits;
        std::vector<EpochSeconds> starts;
        for (std::size_t c = 0; c + 1 < commits.size(); ++c)
            if (commits[c].time >= at(0.5) && commits[c].time < at(0.9)
                && commits[c].eventType == EventType::PullRequest
                && commits[c + 1].eventType == EventType::PullRequest
                && commits[c + 1].time - commits[c].time < 30 * 60)
                starts.push_back(commits[c].time + 5 * 60);
        return starts.empty() ? at(0.55 + 0.3 * rng.unit()) : rng.pick(starts);
    }

    void planFlakyTests()
    {
        for (std::size_t b : reportingBackends(backends()))
            for (const JobRef& job : freeTestJobs(b)) {
                SplitMix64 rng(mixSeed({seed(), 0xF1A7ULL, job.backend, job.workflow, job.job}));
                if (!rng.chance(0.25))
                    continue;
                const auto count = rng.range(1, 2);
                for (std::int64_t k = 0; k < count; ++k) {
                    double p = 0.03 + 0.09 * rng.unit();
                    // One in five fails often enough to fail twice in a row
                    // (a PR's two heads, a run and its rerun) now and then.
                    if (rng.chance(0.2))
                        p = 0.2 + 0.15 * rng.unit();
                    std::string test = ordinaryTest(rng, job);
                    if (test.empty())
                        continue;
                    m_plan.causes.flaky.push_back({job, test, p});
                    SimFlakyTest story{{}, {}, {}, std::move(test), p};
                    nameJob(backends(), job, story.backend, story.workflow, story.job);
                    m_plan.stories.flakyTests.push_back(std::move(story));
                }
            }
    }

    // Upstream fixes what a backend marked xfail(strict=True): it passes, strictly a failure.
    void planStrictXpasses()
    {
        SplitMix64 rng(mixSeed({seed(), 0x0BA55ULL}));
        std::vector<JobRef> jobs;
        for (std::size_t b : reportingBackends(backends()))
            if (backends()[b].artifactShare > 0.0)
                for (const JobRef& job : freeTestJobs(b))
                    jobs.push_back(job);
        const auto count = jobs.empty() ? 0 : rng.chance(0.3) ? 2 : 1;
        for (std::int64_t k = 0; k < count; ++k) {
            const JobRef job = rng.pick(jobs);
            std::string test =
                pickCase(rng, universeOf(job), jobSpecOf(backends(), job),
                         [](StableOutcome o, FailureKind) { return o == StableOutcome::XFail; });
            if (test.empty())
                continue;
            // Until the backend drops the xfail mark, a day or three later.
            const EpochSeconds from = at(0.3 + 0.6 * rng.unit());
            const EpochSeconds until = from + rng.range(24 * kSecondsPerHour, 72 * kSecondsPerHour);
            m_plan.causes.xpasses.push_back({job, test, from, until});
            SimStrictXpass story{{}, {}, {}, std::move(test), from, until};
            nameJob(backends(), job, story.backend, story.workflow, story.job);
            m_plan.stories.strictXpasses.push_back(std::move(story));
        }
    }

    const StoryWorld& m_world;
    StoryPlan& m_plan;
    std::map<std::string, std::size_t> m_shas;
    EpochSeconds m_start;
    std::set<PrNumber> m_used; // PRs already in a story
};

// PRs in a story are remembered across the two planning passes.
std::set<PrNumber> storyPrs(const StoryPlan& plan)
{
    std::set<PrNumber> out;
    for (const SimBrokenTrunk& b : plan.stories.brokenTrunk) {
        out.insert(b.culpritPr);
        out.insert(b.fixPr);
    }
    return out;
}

} // namespace

void planBrokenTrunk(const StoryWorld& world, StoryPlan& plan)
{
    CauseStoryPlanner(world, plan).planBrokenTrunk();
}

void planCauseStories(const StoryWorld& world, StoryPlan& plan)
{
    CauseStoryPlanner planner(world, plan);
    planner.remember(storyPrs(plan));
    planner.planCauseStories();
}

} // namespace relayhud::sim
