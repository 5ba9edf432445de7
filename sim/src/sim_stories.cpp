#include "sim_stories.h"

#include "sim_outcome_survey.h"
#include "sim_pulls.h"
#include "sim_random.h"

#include <algorithm>

namespace relayhud::sim {
namespace {

// Indices of backends that report results, minus the excluded ones.
std::vector<std::size_t> reporting(const std::vector<BackendSpec>& backends,
                                   std::initializer_list<std::size_t> excluded = {})
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < backends.size(); ++i) {
        const bool skip = std::find(excluded.begin(), excluded.end(), i) != excluded.end();
        if (backends[i].reports() && !backends[i].storyFree && !skip)
            out.push_back(i);
    }
    return out;
}

JobRef pickTestJob(SplitMix64& rng, const std::vector<BackendSpec>& backends, std::size_t backend)
{
    const auto& jobs = backends[backend].workflows.front().jobs;
    std::vector<std::size_t> tests;
    for (std::size_t j = 0; j < jobs.size(); ++j)
        if (jobs[j].kind == JobKind::Test)
            tests.push_back(j);
    return JobRef{backend, 0, tests.empty() ? 0 : rng.pick(tests)};
}

// Index of the first PR head at or after `from`. Nightlies and pushes are
// skipped: a push row is stored with pr_number 0 and the delivery GUID as its
// SHA, so no row query serves it (crcrUtils.ts).
std::size_t eventAtOrAfter(const std::vector<UpstreamCommit>& commits, std::size_t from)
{
    for (std::size_t i = from; i < commits.size(); ++i)
        if (commits[i].eventType == EventType::PullRequest)
            return i;
    return kNone;
}

std::size_t fractionIndex(SplitMix64& rng, std::size_t size, double lo, double width)
{
    return static_cast<std::size_t>(static_cast<double>(size) * (lo + width * rng.unit()));
}

const JobSpec& jobSpec(const std::vector<BackendSpec>& backends, const JobRef& ref)
{
    return backends[ref.backend].workflows[ref.workflow].jobs[ref.job];
}

const std::string& jobName(const std::vector<BackendSpec>& backends, const JobRef& ref)
{
    return jobSpec(backends, ref).name;
}

void addDistinct(std::vector<std::string>& tests, std::string test)
{
    if (std::find(tests.begin(), tests.end(), test) == tests.end())
        tests.push_back(std::move(test));
}

class StoryPlanner {
public:
    explicit StoryPlanner(const StoryWorld& world)
        : m_world(world), m_config(world.config), m_backends(world.backends),
          m_commits(world.commits), m_tests(world.tests), m_rng(mixSeed({m_config.seed, 0x5707ULL}))
    {
    }

    StoryPlan plan()
    {
        m_plan.causes.mainBased = mainBasedCommits();
        if (reporting(m_backends).size() < 2 || m_commits.empty())
            return m_plan;
        planBrokenTrunk(m_world, m_plan);
        planFlaky();
        planOutage();
        planCancelled();
        planHiddenFailures();
        planZombie();
        planIncompleteGreen();
        planCauseStories(m_world, m_plan);
        return m_plan;
    }

private:
    // A PR's runs test it on its base; ciflow pushes are their PR's.
    std::vector<bool> mainBasedCommits() const
    {
        std::vector<bool> out;
        out.reserve(m_commits.size());
        for (const UpstreamCommit& c : m_commits) {
            const SimPullRequest* pr = findPull(m_world.pulls, c.prNumber);
            out.push_back(c.eventType == EventType::Nightly || !pr || pr->baseRef == "main");
        }
        return out;
    }

    void planFlaky()
    {
        std::vector<std::size_t> candidates;
        for (std::size_t i : reporting(m_backends, {m_plan.regression.backend}))
            if (m_backends[i].coverage >= 0.6)
                candidates.push_back(i);
        if (candidates.empty())
            candidates = reporting(m_backends, {m_plan.regression.backend});
        m_plan.flaky = pickTestJob(m_rng, m_backends, m_rng.pick(candidates));
        auto& s = m_plan.stories;
        s.flakyBackend = m_backends[m_plan.flaky.backend].backend.repo;
        s.flakyWorkflow = m_backends[m_plan.flaky.backend].workflows.front().name;
        s.flakyJob = jobName(m_backends, m_plan.flaky);
        s.flakyTest = pickTest(m_plan.flaky);
    }

    // An ordinary failure (assertion or backend error) in the job's tests.
    std::string pickTest(const JobRef& ref)
    {
        const JobSpec& job = jobSpec(m_backends, ref);
        const TestUniverse& universe = m_tests.universe(m_backends[ref.backend], job.config);
        return pickFailingTest(m_rng, universe, job, true).nodeId;
    }

    // Three consecutive upstream events hit 3-4 backends at once (a shared
    // runner fleet or artifact mirror going down).
    void planOutage()
    {
        std::size_t at = fractionIndex(m_rng, m_commits.size(), 0.3, 0.12);
        while (m_plan.outageCommits.size() < 3) {
            at = eventAtOrAfter(m_commits, at);
            if (at == kNone)
                break;
            m_plan.outageCommits.insert(at);
            m_plan.stories.outageShas.push_back(m_commits[at].sha);
            ++at;
        }
        auto candidates = reporting(m_backends, {m_plan.regression.backend});
        for (std::size_t i = candidates.size(); i > 1; --i)
            std::swap(candidates[i - 1], candidates[m_rng.index(i)]);
        const std::size_t count = std::min<std::size_t>(candidates.size(), 3 + m_rng.below(2));
        for (std::size_t i = 0; i < count; ++i) {
            m_plan.outageBackends.insert(candidates[i]);
            m_plan.stories.outageBackends.push_back(m_backends[candidates[i]].backend.repo);
        }
    }

    bool taken(std::size_t commit) const
    {
        return m_plan.outageCommits.count(commit) != 0 || commit == m_plan.cancelledCommit
               || commit == m_plan.regressionCommit || m_plan.hiddenCommits.count(commit) != 0;
    }

    // A backend with artifacts, other than the regression's and the flaky
    // job's, reports green on three consecutive commits while pytest failed.
    void planHiddenFailures()
    {
        std::vector<std::size_t> candidates;
        for (std::size_t i :
             reporting(m_backends, {m_plan.regression.backend, m_plan.flaky.backend}))
            if (m_backends[i].store != SimStore::None && m_backends[i].artifactShare > 0.0)
                candidates.push_back(i);
        if (candidates.empty())
            return;
        m_plan.hidden = pickTestJob(m_rng, m_backends, m_rng.pick(candidates));
        std::size_t at =
            eventAtOrAfter(m_commits, fractionIndex(m_rng, m_commits.size(), 0.45, 0.1));
        auto& s = m_plan.stories;
        while (at != kNone && m_plan.hiddenCommits.size() < 3) {
            if (!taken(at)) {
                m_plan.hiddenCommits.insert(at);
                s.hiddenFailureShas.push_back(m_commits[at].sha);
            }
            at = eventAtOrAfter(m_commits, at + 1);
        }
        s.hiddenFailureBackend = m_backends[m_plan.hidden.backend].backend.repo;
        s.hiddenFailureWorkflow = m_backends[m_plan.hidden.backend].workflows.front().name;
        s.hiddenFailureJob = jobName(m_backends, m_plan.hidden);
        while (s.hiddenFailureTests.size() < 3)
            addDistinct(s.hiddenFailureTests, pickTest(m_plan.hidden));
    }

    void planCancelled()
    {
        std::size_t at =
            eventAtOrAfter(m_commits, fractionIndex(m_rng, m_commits.size(), 0.15, 0.1));
        while (at != kNone && taken(at))
            at = eventAtOrAfter(m_commits, at + 1);
        if (at == kNone)
            return;
        m_plan.cancelledCommit = at;
        m_plan.cancelledBackend = m_rng.pick(reporting(m_backends, {m_plan.regression.backend}));
        m_plan.stories.cancelledSha = m_commits[at].sha;
        m_plan.stories.cancelledBackend = m_backends[m_plan.cancelledBackend].backend.repo;
    }

    // A job that started 8-20 h ago and never reported completion: the
    // relay's sweeper should have finalised it and did not.
    void planZombie()
    {
        std::vector<std::size_t> candidates;
        std::size_t fallback = kNone;
        for (std::size_t i = 0; i < m_commits.size(); ++i) {
            const EpochSeconds age = m_config.now - m_commits[i].time;
            if (m_commits[i].eventType != EventType::PullRequest || taken(i)
                || age < 7 * kSecondsPerHour)
                continue;
            fallback = i;
            if (age >= 8 * kSecondsPerHour && age <= 20 * kSecondsPerHour)
                candidates.push_back(i);
        }
        const std::size_t commit = candidates.empty() ? fallback : m_rng.pick(candidates);
        if (commit == kNone)
            return;
        m_plan.zombieCommit = commit;
        const std::size_t backend = m_rng.pick(reporting(m_backends, {m_plan.regression.backend}));
        m_plan.zombie = pickTestJob(m_rng, m_backends, backend);
        m_plan.stories.zombieSha = m_commits[commit].sha;
        m_plan.stories.zombieBackend = m_backends[backend].backend.repo;
        m_plan.stories.zombieJob = jobName(m_backends, m_plan.zombie);
    }

    // A job of a backend that runs on every commit (so forcing nothing
    // shifts its random draws) silently skips a test file holding
    // mandatory_success entries on three recent commits.
    // Drawn from its own stream, after the other stories: they stay as they were.
    void planIncompleteGreen()
    {
        SplitMix64 rng(mixSeed({m_config.seed, 0x1C0A917EULL}));
        for (std::size_t b : reporting(m_backends, {})) {
            const BackendSpec& spec = m_backends[b];
            if (spec.coverage < 1.0 || spec.store == SimStore::None || spec.artifactShare <= 0.0)
                continue;
            const BackendSurvey survey = surveyBackend(spec, m_tests, m_commits.size());
            const auto groups = mandatoryGroups(survey, kMandatoryMaxExceptions);
            if (groups.empty())
                continue;
            const std::string file = rng.pick(groups).file;
            JobRef job = pickTestJob(rng, m_backends, b);
            if (m_plan.causes.isCulpritJob(job.backend, job.workflow, job.job))
                job = otherTestJob(b, job);
            if (job.backend == kNone)
                continue;
            planIncompleteCommits(rng, spec);
            if (m_plan.incompleteCommits.empty())
                return;
            m_plan.incomplete = job;
            auto& s = m_plan.stories;
            s.incompleteGreenBackend = spec.backend.repo;
            s.incompleteGreenWorkflow = spec.workflows[job.workflow].name;
            s.incompleteGreenJob = jobName(m_backends, job);
            s.incompleteGreenFile = file;
            for (const MandatoryGroup& g : groups)
                if (g.file == file)
                    s.incompleteGreenMissingTests.push_back(g.pattern);
            return;
        }
    }

    JobRef otherTestJob(std::size_t backend, const JobRef& excluded) const
    {
        const auto& jobs = m_backends[backend].workflows.front().jobs;
        for (std::size_t j = 0; j < jobs.size(); ++j)
            if (jobs[j].kind == JobKind::Test && j != excluded.job
                && !m_plan.causes.isCulpritJob(backend, 0, j))
                return JobRef{backend, 0, j};
        return JobRef{};
    }

    // Recent enough that the artifacts have not expired, old enough that
    // every job of the commit has finished.
    void planIncompleteCommits(SplitMix64& rng, const BackendSpec& spec)
    {
        const EpochSeconds newest = 12 * kSecondsPerHour;
        const EpochSeconds oldest = (spec.retentionDays - 1) * 24 * kSecondsPerHour;
        std::size_t at = eventAtOrAfter(m_commits, fractionIndex(rng, m_commits.size(), 0.6, 0.25));
        while (at != kNone && m_plan.incompleteCommits.size() < 3) {
            const EpochSeconds age = m_config.now - m_commits[at].time;
            if (age > newest && age < oldest && !taken(at) && at != m_plan.zombieCommit) {
                m_plan.incompleteCommits.insert(at);
                m_plan.stories.incompleteGreenShas.push_back(m_commits[at].sha);
            }
            at = eventAtOrAfter(m_commits, at + 1);
        }
    }

    const StoryWorld& m_world;
    const SimConfig& m_config;
    const std::vector<BackendSpec>& m_backends;
    const std::vector<UpstreamCommit>& m_commits;
    TestCatalog& m_tests;
    SplitMix64 m_rng;
    StoryPlan m_plan;
};

} // namespace

bool StoryPlan::forcesRun(std::size_t backend, std::size_t commit) const
{
    return inOutage(backend, commit) || (commit == cancelledCommit && backend == cancelledBackend)
           || (commit == zombieCommit && backend == zombie.backend)
           || (commit == regressionCommit && backend == regression.backend)
           || (hiddenCommits.count(commit) != 0 && backend == hidden.backend)
           || (causes.newTest.commits.count(commit) != 0 && backend == causes.newTest.job.backend)
           || (causes.busy.commits.count(commit) != 0 && backend == causes.busy.backend);
}

StoryPlan planStories(const SimConfig& config, const std::vector<BackendSpec>& backends,
                      const std::vector<UpstreamCommit>& commits, TestCatalog& tests,
                      std::vector<SimPullRequest>& pulls)
{
    const StoryWorld world{config, backends, commits, tests, pulls};
    return StoryPlanner(world).plan();
}

std::vector<std::size_t> reportingBackends(const std::vector<BackendSpec>& backends,
                                           std::initializer_list<std::size_t> excluded)
{
    return reporting(backends, excluded);
}

std::vector<JobRef> testJobsOf(const std::vector<BackendSpec>& backends, std::size_t backend)
{
    std::vector<JobRef> out;
    const auto& jobs = backends[backend].workflows.front().jobs;
    for (std::size_t j = 0; j < jobs.size(); ++j)
        if (jobs[j].kind == JobKind::Test)
            out.push_back(JobRef{backend, 0, j});
    return out;
}

const JobSpec& jobSpecOf(const std::vector<BackendSpec>& backends, const JobRef& ref)
{
    return jobSpec(backends, ref);
}

void nameJob(const std::vector<BackendSpec>& backends, const JobRef& ref, std::string& backend,
             std::string& workflow, std::string& job)
{
    backend = backends[ref.backend].backend.repo;
    workflow = backends[ref.backend].workflows[ref.workflow].name;
    job = jobName(backends, ref);
}

} // namespace relayhud::sim
