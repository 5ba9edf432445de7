#include "sim_artifact_index.h"
#include "relayhud/util/hash.h"

#include "relayhud/sim/sim_artifacts.h"
#include "sim_artifact_names.h"
#include "sim_random.h"

#include <algorithm>
#include <tuple>

namespace relayhud::sim {
namespace {

bool uploaded(const SimRow& row) { return !row.run.reported.artifactUrl.empty(); }

EpochSeconds queuedAt(const SimRow& row)
{
    const auto& r = row.run;
    return r.reported.startedAt.value_or(0)
           - static_cast<EpochSeconds>(r.trusted.queueTimeSeconds.value_or(0.0));
}

EpochSeconds lastActivity(const SimRow& row)
{
    return row.run.reported.completedAt.value_or(row.run.reported.startedAt.value_or(0));
}

} // namespace

std::vector<const SimRow*> WorkflowRun::attempt(int number) const
{
    std::vector<const SimRow*> out;
    for (const SimRow* row : rows)
        if (row->run.runAttempt == number)
            out.push_back(row);
    return out;
}

ArtifactIndex::ArtifactIndex(const SimDataset& dataset)
    : m_catalog(backendCatalog(dataset.config.jobsScale))
{
    std::map<std::string, const UpstreamCommit*> commits;
    for (const UpstreamCommit& c : dataset.commits)
        commits.emplace(c.sha.value, &c);
    std::uint64_t nextArtifact =
        4'100'000'000ULL + SplitMix64(mixSeed({dataset.config.seed, 0xA27ULL})).below(90'000'000);
    for (const SimRow& row : dataset.rows) {
        m_jobs.emplace(row.run.checkRunId.value, &row);
        addRun(row);
        // A merged-PR run tests main's HEAD, a commit no row is keyed by: the
        // run's own commit is the row's.
        auto tested = commits.find(row.testedSha.value);
        if (tested == commits.end())
            tested = commits.find(row.run.upstreamSha.value);
        m_runs.at({row.run.downstreamRepo, row.run.runId}).commit =
            tested == commits.end() ? nullptr : tested->second;
        if (const BackendSpec* spec = backend(row.run.downstreamRepo); spec && uploaded(row))
            addArtifact(row, *spec, nextArtifact);
    }
    numberRuns();
    for (const SimRow& row : dataset.rows)
        if (row.evidence.shape != SimEvidenceShape::None)
            addSpyreEvidence(row, nextArtifact);
    std::sort(m_bucket.begin(), m_bucket.end(),
              [](const BucketObject& a, const BucketObject& b) { return a.key < b.key; });
}

// run_number counts a workflow's runs in creation order; listings are newest first.
void ArtifactIndex::numberRuns()
{
    std::map<std::string, std::vector<WorkflowRun*>> byRepo;
    for (auto& [key, run] : m_runs)
        byRepo[run.repo].push_back(&run);
    for (auto& [repo, runs] : byRepo) {
        std::sort(runs.begin(), runs.end(), [](const WorkflowRun* a, const WorkflowRun* b) {
            return std::tie(a->createdAt, a->runId) < std::tie(b->createdAt, b->runId);
        });
        std::map<std::string, int> numbers;
        for (WorkflowRun* run : runs)
            run->runNumber = ++numbers[run->workflow];
        m_runsByRepo[repo].assign(runs.rbegin(), runs.rend());
    }
}

void ArtifactIndex::addRun(const SimRow& row)
{
    const CheckRun& r = row.run;
    auto [it, fresh] = m_runs.try_emplace({r.downstreamRepo, r.runId});
    WorkflowRun& run = it->second;
    if (fresh) {
        run.repo = r.downstreamRepo;
        run.runId = r.runId;
        run.workflow = r.workflow;
        run.workflowId = static_cast<std::int64_t>(
            100'000'000 + fnv1a(r.downstreamRepo + r.workflow) % 90'000'000);
        run.createdAt = queuedAt(row);
    }
    run.rows.push_back(&row);
    run.latestAttempt = std::max(run.latestAttempt, r.runAttempt);
    if (r.runAttempt == 1)
        run.createdAt = std::min(run.createdAt, queuedAt(row));
    run.updatedAt = std::max(run.updatedAt, lastActivity(row));
}

void ArtifactIndex::addArtifact(const SimRow& row, const BackendSpec& backend,
                                std::uint64_t& nextId)
{
    const JobSpec* job = jobSpec(row);
    if (!job)
        return;
    switch (backend.store) {
    case SimStore::GitHubArtifacts: {
        GitHubArtifact a;
        a.kind = SimArtifactKind::JobReports;
        a.row = &row;
        a.runId = row.run.runId;
        a.name = githubArtifactName(row.run, *job);
        a.createdAt = row.run.reported.completedAt.value_or(0);
        a.expiresAt = a.createdAt + static_cast<EpochSeconds>(backend.retentionDays) * 86400;
        addGitHubArtifact(std::move(a), nextId);
        m_artifactIds.emplace(&row, m_githubArtifacts.back().id);
        m_artifacts.emplace(m_githubArtifacts.back().id, &row);
        break;
    }
    case SimStore::S3Bucket: {
        const std::string prefix = s3Prefix(row.run);
        const bool split = row.run.reported.tests && row.run.reported.tests->total > 1;
        for (std::size_t part = 0; part < (split ? 2U : 1U); ++part)
            m_bucket.push_back({prefix + job->config
                                    + (split ? "-" + std::to_string(part + 1) : std::string())
                                    + ".xml",
                                &row, part});
        break;
    }
    case SimStore::HttpsReportGz:
    case SimStore::HttpsTarball: m_files.emplace(filesPath(row.run, backend.store), &row); break;
    case SimStore::None: break;
    }
}

void ArtifactIndex::addGitHubArtifact(GitHubArtifact artifact, std::uint64_t& nextId)
{
    nextId += 1 + mixSeed({nextId, 7}) % 40;
    artifact.id = static_cast<std::int64_t>(nextId);
    m_githubArtifactById.emplace(artifact.id, m_githubArtifacts.size());
    m_githubArtifactsByRun[{artifact.row->run.downstreamRepo, artifact.runId}].push_back(
        m_githubArtifacts.size());
    m_githubArtifacts.push_back(std::move(artifact));
}

// The artifacts torch-spyre's runs leave (real-backends.md 3.2, 3.3, 3.6;
// torch-spyre build_test_pytorch_source.yaml @01f88357/@5a14b852 and
// _upstream_tests_beta_matrix.yaml @1c1da12d): wheels named by the tested
// SHA (5 days), a `<config stem>.xml` per suite (90 days; in the run for
// variant A, in the dispatched child run for variant B) and
// `upstream-beta-reports-<sha>` (30 days).
void ArtifactIndex::addSpyreEvidence(const SimRow& row, std::uint64_t& nextId)
{
    const SimEvidence& e = row.evidence;
    const std::string& sha = row.testedSha.value;
    const auto add = [&](SimArtifactKind kind, std::string runId, std::string name, EpochSeconds at,
                         int days, std::int64_t bytes, std::size_t suite) {
        GitHubArtifact a;
        a.kind = kind;
        a.row = &row;
        a.runId = std::move(runId);
        a.name = std::move(name);
        a.suite = suite;
        a.createdAt = at;
        a.expiresAt = at + static_cast<EpochSeconds>(days) * 86400;
        a.listedBytes = bytes;
        addGitHubArtifact(std::move(a), nextId);
    };
    const std::string& runId = row.run.runId;
    add(SimArtifactKind::Wheel, runId, "pytorch-wheel-" + sha, e.wheelsAt, 5,
        812LL * 1024 * 1024 + static_cast<std::int64_t>(fnv1a(sha) % 40'000'000), 0);
    add(SimArtifactKind::Wheel, runId, "torch-spyre-wheel-" + sha, e.wheelsAt, 5,
        96LL * 1024 * 1024 + static_cast<std::int64_t>(fnv1a(runId) % 4'000'000), 0);
    std::string suitesRun = runId;
    if (e.shape == SimEvidenceShape::Dispatched) {
        const WorkflowRun* parent = runOf(row);
        ChildRun child;
        child.repo = row.run.downstreamRepo;
        child.runId = childRunIdOf(row);
        const EpochSeconds dispatchedAt = row.run.reported.startedAt.value_or(0) + 40;
        child.name = std::string(kMatrixWorkflow) + " (" + runId + "-"
                     + std::to_string(parent ? parent->runNumber : 1) + "-"
                     + std::to_string(dispatchedAt * 1000 + row.startedMicros / 1000) + ")";
        child.parent = &row;
        child.createdAt = dispatchedAt;
        child.updatedAt = e.suitesAt > 0 ? e.suitesAt : dispatchedAt;
        suitesRun = child.runId;
        m_children.push_back(std::move(child));
    }
    for (int k = 0; k < e.suites; ++k)
        add(SimArtifactKind::SuiteReport, suitesRun,
            suiteStem(static_cast<std::size_t>(k)) + ".xml", e.suitesAt, 90, -1,
            static_cast<std::size_t>(k));
    if (e.mergedReportsAt > 0)
        add(SimArtifactKind::MergedReports, runId, "upstream-beta-reports-" + sha,
            e.mergedReportsAt, 30, -1, 0);
}

std::string suiteStem(std::size_t suite)
{
    // Suites of torch-spyre's upstream_tests_beta matrix (_upstream_tests_beta_matrix.yaml
    // @1c1da12d names its legs after tests/configs/upstream_tests_beta/<config>).
    static const char* const kStems[] = {"test_indexing",     "test_linalg",
                                         "test_reductions",   "test_binary_ufuncs",
                                         "test_unary_ufuncs", "test_view_ops"};
    return kStems[suite % std::size(kStems)];
}

std::vector<const GitHubArtifact*> ArtifactIndex::artifactsOfRun(const std::string& repo,
                                                                 const std::string& runId) const
{
    std::vector<const GitHubArtifact*> out;
    const auto it = m_githubArtifactsByRun.find({repo, runId});
    if (it != m_githubArtifactsByRun.end())
        for (const std::size_t i : it->second)
            out.push_back(&m_githubArtifacts[i]);
    return out;
}

const GitHubArtifact* ArtifactIndex::githubArtifact(std::int64_t id) const
{
    const auto it = m_githubArtifactById.find(id);
    return it == m_githubArtifactById.end() ? nullptr : &m_githubArtifacts[it->second];
}

const ChildRun* ArtifactIndex::childRun(const std::string& repo, const std::string& runId) const
{
    for (const ChildRun& child : m_children)
        if (child.repo == repo && child.runId == runId)
            return &child;
    return nullptr;
}

const BackendSpec* ArtifactIndex::backend(std::string_view repo) const
{
    return findBackend(m_catalog, repo);
}

const JobSpec* ArtifactIndex::jobSpec(const SimRow& row) const
{
    const BackendSpec* spec = backend(row.run.downstreamRepo);
    return spec ? findJob(*spec, row.run.workflow, row.specJob) : nullptr;
}

const std::vector<const WorkflowRun*>& ArtifactIndex::runsOf(const std::string& repo) const
{
    static const std::vector<const WorkflowRun*> kNoRuns;
    const auto it = m_runsByRepo.find(repo);
    return it == m_runsByRepo.end() ? kNoRuns : it->second;
}

const WorkflowRun* ArtifactIndex::run(const std::string& repo, const std::string& runId) const
{
    const auto it = m_runs.find({repo, runId});
    return it == m_runs.end() ? nullptr : &it->second;
}

const WorkflowRun* ArtifactIndex::runOf(const SimRow& row) const
{
    return run(row.run.downstreamRepo, row.run.runId);
}

const SimRow* ArtifactIndex::job(const std::string& jobId) const
{
    const auto it = m_jobs.find(jobId);
    return it == m_jobs.end() ? nullptr : it->second;
}

std::int64_t ArtifactIndex::artifactId(const SimRow& row) const
{
    const auto it = m_artifactIds.find(&row);
    return it == m_artifactIds.end() ? 0 : it->second;
}

const SimRow* ArtifactIndex::artifact(std::int64_t id) const
{
    const auto it = m_artifacts.find(id);
    return it == m_artifacts.end() ? nullptr : it->second;
}

const BucketObject* ArtifactIndex::object(const std::string& key) const
{
    const auto it =
        std::lower_bound(m_bucket.begin(), m_bucket.end(), key,
                         [](const BucketObject& o, const std::string& k) { return o.key < k; });
    return it != m_bucket.end() && it->key == key ? &*it : nullptr;
}

const SimRow* ArtifactIndex::file(const std::string& path) const
{
    const auto it = m_files.find(path);
    return it == m_files.end() ? nullptr : it->second;
}

} // namespace relayhud::sim
