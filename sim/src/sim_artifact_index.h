#pragma once
// Lookups the store routes need over the dataset: workflow runs (a run id's
// attempts and jobs), jobs by id, GitHub artifact ids, the bucket's keys and
// the HTTPS files, built once when the server starts.
#include "relayhud/sim/sim_dataset.h"
#include "sim_catalog.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace relayhud::sim {

struct WorkflowRun {
    std::string repo;
    std::string runId;
    std::string workflow;
    std::vector<const SimRow*> rows; // every attempt's jobs, in start order
    int latestAttempt = 1;
    int runNumber = 0;           // per repo and workflow, in creation order
    std::int64_t workflowId = 0; // per repo and workflow
    EpochSeconds createdAt = 0;  // the dispatch: first job start minus its queue time
    EpochSeconds updatedAt = 0;
    const UpstreamCommit* commit = nullptr;

    std::vector<const SimRow*> attempt(int number) const;
};

// A GitHub artifact of a workflow run, as its listing shows it.
enum class SimArtifactKind : std::uint8_t {
    JobReports,    // a job's test-reports zip (PyTorch's upload-test-artifacts)
    SuiteReport,   // torch-spyre: `<config stem>.xml`, one suite's JUnit (90 days)
    MergedReports, // torch-spyre: `upstream-beta-reports-<sha>`, every suite (30 days)
    Wheel,         // torch-spyre: `pytorch-wheel-<sha>`, `torch-spyre-wheel-<sha>` (5 days)
};

struct GitHubArtifact {
    std::int64_t id = 0;
    SimArtifactKind kind = SimArtifactKind::JobReports;
    const SimRow* row = nullptr; // the callback row whose run (or child run) holds it
    std::string runId;           // the run it is listed under
    std::string name;
    std::size_t suite = 0; // SuiteReport: which of the row's reports
    EpochSeconds createdAt = 0;
    EpochSeconds expiresAt = 0;
    std::int64_t listedBytes = -1; // a wheel's size; -1: the zip's own
};

// torch-spyre's variant B matrix run: dispatched by the callback's run with
// workflow_dispatch, named "upstream-tests-beta-matrix (reusable)
// (<parent run_id>-<parent run_number>-<epoch ms>)" (real-backends.md 3.2, 7).
struct ChildRun {
    std::string repo;
    std::string runId;
    std::string name;
    const SimRow* parent = nullptr;
    EpochSeconds createdAt = 0;
    EpochSeconds updatedAt = 0;
};

inline constexpr std::string_view kMatrixWorkflow = "upstream-tests-beta-matrix (reusable)";

// "test_indexing", ...: the config stems of a torch-spyre-shaped row's suites.
std::string suiteStem(std::size_t suite);

struct BucketObject {
    std::string key;
    const SimRow* row = nullptr;
    std::size_t part = 0; // index into SimArtifacts::reports(row)
};

class ArtifactIndex {
public:
    explicit ArtifactIndex(const SimDataset& dataset);

    const std::vector<BackendSpec>& catalog() const { return m_catalog; }
    const BackendSpec* backend(std::string_view repo) const;
    const JobSpec* jobSpec(const SimRow& row) const;

    // Newest first; empty for a repo without rows.
    const std::vector<const WorkflowRun*>& runsOf(const std::string& repo) const;
    const WorkflowRun* run(const std::string& repo, const std::string& runId) const;
    const WorkflowRun* runOf(const SimRow& row) const;
    const SimRow* job(const std::string& jobId) const; // by check run id

    // GitHub artifacts: rows of GitHub-store backends that uploaded.
    std::int64_t artifactId(const SimRow& row) const; // 0 when the row has none
    const SimRow* artifact(std::int64_t id) const;
    // Every GitHub artifact of a run (a child run's too), oldest first.
    std::vector<const GitHubArtifact*> artifactsOfRun(const std::string& repo,
                                                      const std::string& runId) const;
    const GitHubArtifact* githubArtifact(std::int64_t id) const;
    const std::vector<ChildRun>& childRuns() const { return m_children; }
    const ChildRun* childRun(const std::string& repo, const std::string& runId) const;

    const std::vector<BucketObject>& bucket() const { return m_bucket; } // sorted by key
    const BucketObject* object(const std::string& key) const;
    const SimRow* file(const std::string& path) const; // "/files/..."

private:
    void addRun(const SimRow& row);
    void numberRuns();
    void addArtifact(const SimRow& row, const BackendSpec& backend, std::uint64_t& nextId);
    void addSpyreEvidence(const SimRow& row, std::uint64_t& nextId);
    void addGitHubArtifact(GitHubArtifact artifact, std::uint64_t& nextId);

    std::vector<BackendSpec> m_catalog;
    std::map<std::pair<std::string, std::string>, WorkflowRun> m_runs;
    std::map<std::string, std::vector<const WorkflowRun*>> m_runsByRepo;
    std::unordered_map<std::string, const SimRow*> m_jobs;
    std::unordered_map<const SimRow*, std::int64_t> m_artifactIds;
    std::unordered_map<std::int64_t, const SimRow*> m_artifacts;
    std::vector<GitHubArtifact> m_githubArtifacts;
    std::unordered_map<std::int64_t, std::size_t> m_githubArtifactById;
    std::map<std::pair<std::string, std::string>, std::vector<std::size_t>> m_githubArtifactsByRun;
    std::vector<ChildRun> m_children;
    std::vector<BucketObject> m_bucket;
    std::unordered_map<std::string, const SimRow*> m_files;
};

} // namespace relayhud::sim
