#include "sim_pulls.h"

#include "sim_random.h"

#include <algorithm>
#include <map>

namespace relayhud::sim {
namespace {

constexpr double kMergedShare = 0.35;
constexpr double kClosedShare = 0.15;

std::string headRefOf(const SimPullRequest& pr, SplitMix64& rng)
{
    if (rng.chance(0.5)) // ghstack's branches
        return "gh/" + pr.author + "/" + std::to_string(rng.range(10, 480)) + "/head";
    return pr.author + "/pr-" + std::to_string(pr.number.value);
}

// The PR's fate once its last push is done; one in the future has not happened yet.
void drawFate(SimPullRequest& pr, EpochSeconds last, EpochSeconds now, std::uint64_t seed)
{
    SplitMix64 rng(mixSeed({seed, 0xFA7EULL, static_cast<std::uint64_t>(pr.number.value)}));
    pr.baseSha = Sha{rng.hex(40)};
    pr.headRef = headRefOf(pr, rng);
    const double r = rng.unit();
    if (r < kMergedShare) {
        const EpochSeconds at = last + rng.range(2 * kSecondsPerHour, 30 * kSecondsPerHour);
        if (at < now)
            mergePull(pr, at, seed);
    } else if (r < kMergedShare + kClosedShare) {
        const EpochSeconds at = last + rng.range(kSecondsPerHour, 48 * kSecondsPerHour);
        if (at < now)
            pr.closedAt = at;
    }
}

} // namespace

void mergePull(SimPullRequest& pr, EpochSeconds at, std::uint64_t seed)
{
    SplitMix64 rng(mixSeed({seed, 0x3E26EULL, static_cast<std::uint64_t>(pr.number.value)}));
    pr.mergedAt = at;
    pr.closedAt = at;
    pr.mergeCommitSha = Sha{rng.hex(40)};
}

void keepUnmerged(SimPullRequest& pr)
{
    if (pr.merged())
        pr.closedAt = 0; // it stays open instead
    pr.mergedAt = 0;
    pr.mergeCommitSha = Sha{};
}

EpochSeconds lastHeadTime(const SimPullRequest& pr)
{
    return pr.heads.empty() ? pr.createdAt : std::max(pr.createdAt, pr.heads.back().time);
}

std::vector<SimPullRequest> buildPulls(const SimConfig& config,
                                       const std::vector<UpstreamCommit>& commits)
{
    std::map<PrNumber, SimPullRequest> byNumber;
    std::map<PrNumber, EpochSeconds> lastPush;
    for (const UpstreamCommit& c : commits) {
        if (!c.prNumber)
            continue;
        auto [it, fresh] = byNumber.try_emplace(c.prNumber);
        SimPullRequest& pr = it->second;
        if (fresh) {
            pr.number = c.prNumber;
            pr.title = c.title; // the first push carries the PR's own title
            pr.author = c.author;
            pr.createdAt = c.time - 60;
        }
        if (c.eventType == EventType::PullRequest) {
            pr.baseRef = c.branch;
            pr.heads.push_back({c.sha, c.time});
        }
        lastPush[c.prNumber] = std::max(lastPush[c.prNumber], c.time);
    }
    std::vector<SimPullRequest> out;
    out.reserve(byNumber.size());
    for (auto& [number, pr] : byNumber) {
        drawFate(pr, lastPush[number], config.now, config.seed);
        out.push_back(std::move(pr));
    }
    return out;
}

namespace {

template <class Pulls>
auto* findIn(Pulls& pulls, PrNumber number)
{
    const auto it =
        std::lower_bound(pulls.begin(), pulls.end(), number,
                         [](const SimPullRequest& p, PrNumber n) { return p.number < n; });
    return it != pulls.end() && it->number == number ? &*it : nullptr;
}

} // namespace

SimPullRequest* findPull(std::vector<SimPullRequest>& pulls, PrNumber number)
{
    return findIn(pulls, number);
}

const SimPullRequest* findPull(const std::vector<SimPullRequest>& pulls, PrNumber number)
{
    return findIn(pulls, number);
}

} // namespace relayhud::sim
