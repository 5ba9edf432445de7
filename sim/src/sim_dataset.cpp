#include "relayhud/sim/sim_dataset.h"

#include "sim_artifact_names.h"
#include "sim_catalog.h"
#include "sim_commits.h"
#include "sim_pulls.h"
#include "sim_random.h"
#include "sim_runs.h"
#include "sim_stories.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace relayhud::sim {
namespace {

EpochSeconds currentHour() { return nowSeconds() / kSecondsPerHour * kSecondsPerHour; }

bool startsBefore(const PendingRow& a, const PendingRow& b)
{
    const CheckRun& x = a.row.run;
    const CheckRun& y = b.row.run;
    return std::tie(*x.reported.startedAt, x.downstreamRepo, x.upstreamSha, x.workflow, x.jobName,
                    a.row.specJob, x.runAttempt, a.dispatch)
           < std::tie(*y.reported.startedAt, y.downstreamRepo, y.upstreamSha, y.workflow, y.jobName,
                      b.row.specJob, y.runAttempt, b.dispatch);
}

// GitHub ids grow with time: run ids per workflow run (shared by its
// attempts), check run ids per job execution. Both are strings on the HUD.
class IdAssigner {
public:
    explicit IdAssigner(std::uint64_t seed)
        : m_rng(mixSeed({seed, 0x1D5ULL})),
          m_nextRun(14'800'000'000 + static_cast<std::int64_t>(m_rng.below(400'000'000))),
          m_nextCheck(41'000'000'000 + static_cast<std::int64_t>(m_rng.below(900'000'000)))
    {
    }

    void assign(PendingRow& p, const BackendSpec& spec)
    {
        CheckRun& run = p.row.run;
        run.runId = runIdFor(p);
        m_nextCheck += m_rng.range(1, 60);
        run.checkRunId = CheckRunId{std::to_string(m_nextCheck)};
        const std::string runUrl =
            "https://github.com/" + run.downstreamRepo + "/actions/runs/" + run.runId;
        // The action always sends ${server_url}/${repository}/actions/runs/${run_id}
        // (pytorch/test-infra .github/actions/cross-repo-ci-relay-callback/
        // action.yml:97 @61a77570), never /attempts/N.
        run.reported.runUrl = runUrl;
        if (p.uploadsArtifacts)
            run.reported.artifactUrl = artifactUrlFor(spec, run);
    }

private:
    std::string runIdFor(const PendingRow& p)
    {
        const auto key = std::make_tuple(p.backend, p.commit, p.workflow, p.dispatch);
        auto it = m_runIds.find(key);
        if (it != m_runIds.end())
            return it->second;
        m_nextRun += m_rng.range(1, 250);
        return m_runIds.emplace(key, std::to_string(m_nextRun)).first->second;
    }

    SplitMix64 m_rng;
    std::int64_t m_nextRun;
    std::int64_t m_nextCheck;
    std::map<std::tuple<std::size_t, std::size_t, std::size_t, int>, std::string> m_runIds;
};

} // namespace

SimDataset buildDataset(const SimConfig& config)
{
    SimDataset out;
    out.config = config;
    if (out.config.now == 0)
        out.config.now = currentHour();
    out.config.jobsScale = std::max(1, config.jobsScale);
    const auto catalog = backendCatalog(out.config.jobsScale);
    for (const auto& spec : catalog)
        if (spec.listed)
            out.backends.push_back(spec.backend);
    out.commits = buildCommits(out.config);
    out.pulls = buildPulls(out.config, out.commits);
    TestCatalog tests(out.config.seed);
    StoryPlan plan = planStories(out.config, catalog, out.commits, tests, out.pulls);
    std::vector<PendingRow> pending =
        generateRuns(out.config, catalog, out.commits, out.pulls, plan, tests);
    std::sort(pending.begin(), pending.end(), startsBefore);
    IdAssigner ids(out.config.seed);
    out.rows.reserve(pending.size());
    for (auto& p : pending)
        ids.assign(p, catalog[p.backend]);
    // The truth is of what a user sees: the HUD's nightly query keeps only
    // the highest attempt of each (run_id, job_name) (crcr_nightly_dashboard,
    // specs/hud-read-api.md R4), so an earlier nightly attempt is no one's
    // failure to judge.
    std::map<std::pair<std::string, std::string>, int> nightlyAttempt;
    for (const auto& p : pending)
        if (p.row.eventTypeText == "nightly") {
            int& best = nightlyAttempt[{p.row.run.runId, p.row.run.jobName}];
            best = std::max(best, p.row.run.runAttempt);
        }
    for (auto& p : pending) {
        const bool hidden =
            p.row.eventTypeText == "nightly"
            && nightlyAttempt.at({p.row.run.runId, p.row.run.jobName}) != p.row.run.runAttempt;
        for (SimTruthLine& line : p.truth) {
            line.checkRunId = p.row.run.checkRunId;
            if (!hidden)
                out.truth.push_back(std::move(line));
        }
        out.rows.push_back(std::move(p.row));
    }
    out.stories = std::move(plan.stories);
    for (const auto& spec : catalog)
        if (spec.checksOutDefaultBranch)
            out.stories.wrongShaBackend = spec.backend.repo;
    return out;
}

} // namespace relayhud::sim
