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

    const std::vector<BucketObject>& bucket() const { return m_bucket; } // sorted by key
    const BucketObject* object(const std::string& key) const;
    const SimRow* file(const std::string& path) const; // "/files/..."

private:
    void addRun(const SimRow& row);
    void numberRuns();
    void addArtifact(const SimRow& row, const BackendSpec& backend, std::uint64_t& nextId);

    std::vector<BackendSpec> m_catalog;
    std::map<std::pair<std::string, std::string>, WorkflowRun> m_runs;
    std::map<std::string, std::vector<const WorkflowRun*>> m_runsByRepo;
    std::unordered_map<std::string, const SimRow*> m_jobs;
    std::unordered_map<const SimRow*, std::int64_t> m_artifactIds;
    std::unordered_map<std::int64_t, const SimRow*> m_artifacts;
    std::vector<BucketObject> m_bucket;
    std::unordered_map<std::string, const SimRow*> m_files;
};

} // namespace relayhud::sim
