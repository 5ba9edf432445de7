#include "relayhud/sim/sim_artifacts.h"

#include "sim_artifact_index.h"
#include "sim_artifact_names.h"
#include "sim_catalog.h"
#include "sim_causes.h"
#include "sim_junit.h"
#include "sim_logs.h"
#include "sim_outcome_survey.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace relayhud::sim {
namespace {

// The cases a row's JUnit holds: its self-reported total, or, for a
// torch-spyre variant B row (which reports no counts), what its suites ran.
std::int64_t junitTotalOf(const SimRow& row)
{
    if (row.run.reported.tests)
        return row.run.reported.tests->total;
    return row.evidence.junitTotal;
}

const char* testTypeOf(std::string_view config)
{
    switch (suiteOfConfig(config)) {
    case Suite::Core: return "upstream";
    case Suite::Compile: return "inductor";
    case Suite::Distributed: return "distributed";
    default: break;
    }
    return "e2e";
}

std::vector<std::string> parseFailedTests(const std::string& json)
{
    std::vector<std::string> out;
    const auto doc = nlohmann::json::parse(json, nullptr, false);
    if (!doc.is_array())
        return out;
    for (const auto& item : doc)
        if (item.is_string())
            out.push_back(item.get<std::string>());
    return out;
}

} // namespace

SimStore simStoreOf(std::string_view repo)
{
    static const std::vector<BackendSpec> catalog = backendCatalog(1);
    const BackendSpec* spec = findBackend(catalog, repo);
    return spec ? spec->store : SimStore::None;
}

struct SimArtifacts::Impl {
    explicit Impl(const SimDataset& dataset)
        : data(dataset), catalog(backendCatalog(dataset.config.jobsScale)),
          tests(dataset.config.seed)
    {
    }

    struct Resolved {
        const BackendSpec* backend = nullptr;
        const JobSpec* job = nullptr;
    };

    Resolved resolve(const SimRow& row) const
    {
        const BackendSpec* backend = findBackend(catalog, row.run.downstreamRepo);
        if (!backend)
            return {};
        return {backend, findJob(*backend, row.run.workflow, row.specJob)};
    }

    bool hidesFailures(const SimRow& row) const
    {
        const SimStories& s = data.stories;
        const auto& shas = s.hiddenFailureShas;
        return row.run.downstreamRepo == s.hiddenFailureBackend
               && row.run.workflow == s.hiddenFailureWorkflow
               && row.run.jobName == s.hiddenFailureJob
               && std::find(shas.begin(), shas.end(), row.testedSha) != shas.end();
    }

    std::size_t commitIndex(const SimRow& row) const
    {
        const auto& commits = data.commits;
        const auto it = std::find_if(commits.begin(), commits.end(), [&](const UpstreamCommit& c) {
            return c.sha == row.testedSha;
        });
        return static_cast<std::size_t>(it - commits.begin());
    }

    bool dropsFile(const SimRow& row) const
    {
        const SimStories& s = data.stories;
        const auto& shas = s.incompleteGreenShas;
        return row.run.downstreamRepo == s.incompleteGreenBackend
               && row.run.workflow == s.incompleteGreenWorkflow
               && row.run.jobName == s.incompleteGreenJob
               && std::find(shas.begin(), shas.end(), row.testedSha) != shas.end();
    }

    // The PR's new test: the story, when this row runs it.
    const SimPrBreak* newTestOf(const SimRow& row) const
    {
        for (const SimPrBreak& b : data.stories.prBreaks) {
            if (!b.newTest || row.run.prNumber != b.pr
                || row.run.eventType != EventType::PullRequest
                || row.run.downstreamRepo != b.backend || row.run.workflow != b.workflow
                || row.run.jobName != b.job)
                continue;
            const auto& shas = b.failingShas;
            if (std::find(shas.begin(), shas.end(), row.testedSha) != shas.end())
                return &b;
        }
        return nullptr;
    }

    std::vector<std::string> failing(const SimRow& row) const
    {
        std::vector<std::string> out = parseFailedTests(row.failedTestsJson);
        if (hidesFailures(row))
            out.insert(out.end(), data.stories.hiddenFailureTests.begin(),
                       data.stories.hiddenFailureTests.end());
        return out;
    }

    // The pytest session of a finished test job; empty for any other row.
    // `total` is the row's own count unless `explicitTotal`.
    JobRun run(const SimRow& row, std::int64_t total, bool explicitTotal = false) const
    {
        const Resolved r = resolve(row);
        if (!r.job || jobShape(row, *r.job) != JobShape::Tests)
            return {};
        const TestUniverse& universe = tests.universe(*r.backend, r.job->config);
        if (!explicitTotal && newTestOf(row)) {
            // The row counts the new test besides upstream's cases.
            const auto index = newTestCase(universe, *r.job, data.commits.size());
            JobRun out = runJob(universe, *r.job, index ? total - 1 : total, failing(row));
            if (index)
                addCase(out, universe.caseAt(*index), failing(row));
            return out;
        }
        if (!dropsFile(row))
            return runJob(universe, *r.job, total, failing(row));
        // The row counts what is left once the file is gone; the shard
        // itself still has the commit's full share of cases.
        const std::int64_t cases =
            explicitTotal ? total : jobTotalOn(*r.job, universe, commitIndex(row));
        JobRun out = runJob(universe, *r.job, cases, failing(row));
        dropFile(out, data.stories.incompleteGreenFile);
        return out;
    }

    std::vector<SimReport> reports(const SimRow& row, const JobRun& run) const
    {
        if (run.cases.empty())
            return {};
        const Resolved r = resolve(row);
        // torch-spyre's suites each write `<config stem>.xml` (real-backends.md 3.3).
        const bool suites = row.evidence.suites > 0;
        const bool split =
            (r.backend->store == SimStore::S3Bucket || suites) && run.cases.size() > 1;
        const std::size_t parts =
            suites  ? std::min(static_cast<std::size_t>(row.evidence.suites), run.cases.size())
            : split ? 2
                    : 1;
        ReportContext context;
        context.hostname = runnerHostName(*r.job, rowHash(data.config.seed, row.run));
        context.startedAt =
            row.run.reported.startedAt.value_or(0) + std::max<EpochSeconds>(1, durationOf(row) / 6);
        context.testType = testTypeOf(r.job->config);
        std::vector<SimReport> out;
        const std::size_t size = run.cases.size();
        for (std::size_t part = 0; part < parts; ++part) {
            context.name = suites ? suiteStem(part) + ".xml"
                                  : r.job->config
                                        + (split ? "-" + std::to_string(part + 1) : std::string())
                                        + ".xml";
            out.push_back(
                writeJunitReport(run, size * part / parts, size * (part + 1) / parts, context));
        }
        return out;
    }

    static EpochSeconds durationOf(const SimRow& row)
    {
        const auto& r = row.run.reported;
        return r.completedAt && r.startedAt ? *r.completedAt - *r.startedAt : 0;
    }

    std::string artifactName(const SimRow& row) const
    {
        const Resolved r = resolve(row);
        if (!r.job)
            return {};
        switch (r.backend->store) {
        case SimStore::GitHubArtifacts: return githubArtifactName(row.run, *r.job);
        case SimStore::S3Bucket: return s3Prefix(row.run);
        case SimStore::HttpsReportGz:
        case SimStore::HttpsTarball: return filesPath(row.run, r.backend->store);
        case SimStore::None: break;
        }
        return {};
    }

    std::string log(const SimRow& row) const
    {
        const Resolved r = resolve(row);
        if (!r.job || row.run.reported.status != RunStatus::Completed)
            return {};
        const bool uploads = !row.run.reported.artifactUrl.empty();
        const JobRun session = run(row, junitTotalOf(row));
        LogContext context;
        context.row = &row;
        context.backend = r.backend;
        context.job = r.job;
        context.steps = planSteps(row, *r.job, uploads, data.config.now);
        context.run = session.cases.empty() ? nullptr : &session;
        context.continueOnError = hidesFailures(row);
        context.artifactName = uploads ? artifactName(row) : std::string();
        context.downstreamSha = downstreamSha(data.config.seed, row.run);
        if (r.backend->checksOutDefaultBranch && row.run.eventType == EventType::PullRequest)
            context.defaultBranchTip = mainTipAt(row.run.reported.startedAt.value_or(0));
        context.hash = rowHash(data.config.seed, row.run);
        context.childRunId = childRunIdOf(row);
        return writeJobLog(context);
    }

    // The newest push to main at `time` (a pull request's run checking out
    // the default branch gets it); the oldest push when none came before.
    std::string mainTipAt(EpochSeconds time) const
    {
        const UpstreamCommit* tip = nullptr;
        const UpstreamCommit* oldest = nullptr;
        for (const UpstreamCommit& c : data.commits) {
            if (c.eventType != EventType::Push)
                continue;
            if (!oldest || c.time < oldest->time)
                oldest = &c;
            if (c.time <= time && (!tip || c.time > tip->time))
                tip = &c;
        }
        tip = tip ? tip : oldest;
        return tip ? tip->sha.value : std::string(40, '0');
    }

    const SimDataset& data;
    std::vector<BackendSpec> catalog;
    mutable TestCatalog tests;
};

SimArtifacts::SimArtifacts(const SimDataset& dataset) : m_impl(std::make_unique<Impl>(dataset)) {}

SimArtifacts::~SimArtifacts() = default;

const SimDataset& SimArtifacts::dataset() const { return m_impl->data; }

SimStore SimArtifacts::storeOf(const SimRow& row) const
{
    const auto r = m_impl->resolve(row);
    return r.backend ? r.backend->store : SimStore::None;
}

bool SimArtifacts::artifactExpired(const SimRow& row) const
{
    const auto r = m_impl->resolve(row);
    return r.backend
           && r.backend->artifactExpired(row.run.reported.completedAt.value_or(0),
                                         dataset().config.now);
}

std::vector<SimReport> SimArtifacts::reports(const SimRow& row) const
{
    return m_impl->reports(row, m_impl->run(row, junitTotalOf(row)));
}

std::vector<SimReport> SimArtifacts::reportsWithTotal(const SimRow& row, std::int64_t total) const
{
    return m_impl->reports(row, m_impl->run(row, total, true));
}

std::string SimArtifacts::jobLog(const SimRow& row) const { return m_impl->log(row); }

std::vector<std::string> SimArtifacts::failingTests(const SimRow& row) const
{
    const JobRun run = m_impl->run(row, junitTotalOf(row));
    std::vector<std::string> out;
    for (const JobCase& c : run.cases)
        if (isFailing(c.result))
            out.push_back(run.universe->nodeId(c.ref));
    return out;
}

std::string SimArtifacts::artifactName(const SimRow& row) const
{
    return m_impl->artifactName(row);
}

} // namespace relayhud::sim
