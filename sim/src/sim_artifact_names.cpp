#include "sim_artifact_names.h"
#include "relayhud/util/hash.h"

#include "sim_random.h"

#include <cstdio>

namespace relayhud::sim {

std::string jobSlug(std::string_view jobName)
{
    std::string out;
    for (char c : jobName) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                          || c == '.' || c == '_';
        if (keep)
            out.push_back(c);
        else if (!out.empty() && out.back() != '-')
            out.push_back('-');
    }
    while (!out.empty() && out.back() == '-')
        out.pop_back();
    return out;
}

std::string githubArtifactName(const CheckRun& run, const JobSpec& job)
{
    return "test-reports-runattempt" + std::to_string(run.runAttempt) + "-test-" + job.config + "-"
           + std::to_string(job.shard) + "-" + std::to_string(job.numShards) + "-" + job.runner
           + "_" + run.checkRunId.value;
}

std::string s3Prefix(const CheckRun& run)
{
    return "ci-results/" + run.runId + "/" + std::to_string(run.runAttempt) + "/"
           + jobSlug(run.jobName) + "/";
}

std::string filesPath(const CheckRun& run, SimStore store)
{
    const char* file = store == SimStore::HttpsTarball ? "report.tar.gz" : "report.xml.gz";
    return "/files/" + run.downstreamRepo + "/" + run.runId + "/" + std::to_string(run.runAttempt)
           + "/" + jobSlug(run.jobName) + "/" + file;
}

std::string artifactUrlFor(const BackendSpec& backend, const CheckRun& run)
{
    switch (backend.store) {
    case SimStore::GitHubArtifacts:
        return "https://github.com/" + run.downstreamRepo + "/actions/runs/" + run.runId
               + "/artifacts";
    case SimStore::S3Bucket: return "s3://" + std::string(kSimBucket) + "/" + s3Prefix(run);
    case SimStore::HttpsReportGz:
    case SimStore::HttpsTarball:
        return std::string(kSimUnboundBaseUrl) + filesPath(run, backend.store);
    case SimStore::None: break;
    }
    return {};
}

std::string downstreamSha(std::uint64_t seed, const CheckRun& run)
{
    const auto day = static_cast<std::uint64_t>(run.reported.startedAt.value_or(0) / 86400);
    SplitMix64 rng(mixSeed({seed, 0xD0517EAULL, fnv1a(run.downstreamRepo), day}));
    return rng.hex(40);
}

std::uint64_t rowHash(std::uint64_t seed, const CheckRun& run)
{
    return mixSeed({seed, 0x10C5ULL, fnv1a(run.checkRunId.value)});
}

std::string runnerHostName(const JobSpec& job, std::uint64_t hash)
{
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "%05llx", static_cast<unsigned long long>(hash & 0xFFFFF));
    return (job.runner.empty() ? std::string("linux.2xlarge") : job.runner) + "-" + suffix;
}

std::string childRunIdOf(const SimRow& row)
{
    if (row.evidence.shape != SimEvidenceShape::Dispatched)
        return {};
    // Dispatched after the callback's run: a later id, unique per parent.
    return std::to_string(std::stoll(row.run.runId) + 1'000'000'000);
}

} // namespace relayhud::sim
