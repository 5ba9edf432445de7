// buildClusters(): one hash map from cluster key to cluster, keys written
// into one reused buffer and looked up without a copy (a transparent hash),
// so 100,000 failures cost 100,000 key passes and a string per cluster.
#include "relayhud/triage/cluster.h"

#include "relayhud/util/hash.h"

#include <algorithm>
#include <unordered_map>

namespace relayhud::triage {

namespace {

struct KeyHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view key) const
    {
        return static_cast<std::size_t>(fnv1a(key));
    }
};

struct TargetHash {
    std::size_t operator()(const TriageTarget& t) const
    {
        std::uint64_t h = fnv1a(t.repo);
        for (const std::string_view part :
             {std::string_view(t.workflow), std::string_view(t.job), std::string_view(t.sha.value),
              std::string_view(t.test)})
            h = fnv1a(part, fnv1a("\x1f", h));
        return static_cast<std::size_t>(h ^ static_cast<std::uint64_t>(t.attempt));
    }
};

using ClassOfTarget = std::unordered_map<TriageTarget, FailureClass, TargetHash>;

void sortUnique(std::vector<std::string>& values)
{
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
}

void describe(FailureCluster& cluster, const std::vector<FailureRecord>& failures,
              const ClassOfTarget& classOf)
{
    const FailureRecord* newest = nullptr;
    for (const std::size_t index : cluster.members) {
        const FailureRecord& f = failures[index];
        if (newest == nullptr || f.commitTime > newest->commitTime)
            newest = &f;
        if (cluster.firstSeenSha.empty() || f.commitTime < cluster.firstSeenTime) {
            cluster.firstSeenSha = f.sha;
            cluster.firstSeenTime = f.commitTime;
        }
        cluster.backends.push_back(f.repo);
        cluster.jobs.push_back(f.workflow + " / " + f.job);
        if (classOf.empty())
            continue;
        const auto tag = classOf.find(f.target());
        if (tag == classOf.end() || !isTriagedClass(tag->second))
            continue;
        if (cluster.tagged++ == 0)
            cluster.cls = tag->second;
        else if (cluster.cls != tag->second)
            cluster.tagState = ClusterTagState::Mixed;
    }
    if (cluster.tagged > 0 && cluster.tagState != ClusterTagState::Mixed)
        cluster.tagState =
            cluster.tagged == cluster.count ? ClusterTagState::Tagged : ClusterTagState::Mixed;
    if (cluster.tagState != ClusterTagState::Tagged)
        cluster.cls = FailureClass::Untriaged;
    cluster.example = newest->reason;
    sortUnique(cluster.backends);
    sortUnique(cluster.jobs);
}

} // namespace

std::string clusterTagName(const FailureCluster& cluster)
{
    switch (cluster.tagState) {
    case ClusterTagState::Tagged: return std::string(failureClassName(cluster.cls));
    case ClusterTagState::Mixed: return "mixed";
    case ClusterTagState::Untriaged: break;
    }
    return "untriaged";
}

std::vector<FailureCluster> buildClusters(const std::vector<FailureRecord>& failures,
                                          const std::vector<TriageTag>& tags)
{
    std::unordered_map<std::string, std::size_t, KeyHash, std::equal_to<>> indexOf;
    std::vector<FailureCluster> clusters;
    std::string key;
    for (std::size_t i = 0; i < failures.size(); ++i) {
        clusterKeyInto(failures[i].reason, key);
        auto it = indexOf.find(std::string_view(key));
        if (it == indexOf.end()) {
            it = indexOf.emplace(key, clusters.size()).first;
            clusters.emplace_back().key = key;
        }
        FailureCluster& cluster = clusters[it->second];
        cluster.members.push_back(i);
        ++cluster.count;
    }
    ClassOfTarget classOf;
    for (const TriageTag& tag : tags)
        classOf[tag.target] = tag.cls;
    for (FailureCluster& cluster : clusters)
        describe(cluster, failures, classOf);
    std::sort(clusters.begin(), clusters.end(),
              [](const FailureCluster& a, const FailureCluster& b) {
                  return a.count != b.count ? a.count > b.count : a.key < b.key;
              });
    return clusters;
}

} // namespace relayhud::triage
