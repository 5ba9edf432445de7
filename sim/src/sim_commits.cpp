#include "sim_commits.h"

#include "sim_format.h"
#include "sim_names.h"
#include "sim_random.h"

#include <algorithm>
#include <iterator>
#include <tuple>

namespace relayhud::sim {
namespace {

struct OpenPr {
    PrNumber number;
    std::string title;
    std::string author;
    std::string base = "main"; // the branch the PR targets: its pull_request.base.ref
};

// Cherry-picks for the next release target its branch, not main.
constexpr double kReleaseShare = 0.05;
constexpr const char* kReleaseBranch = "release/2.10";

const std::vector<std::string> kFollowUps = {"address review comments", "fix lint", "add test",
                                             "rebase on main",          "fix CI",   "update docs"};

// Walks upstream activity: new PRs, updates to recent ones, ciflow tags.
class HistoryWriter {
public:
    explicit HistoryWriter(std::uint64_t seed)
        : m_rng(mixSeed({seed, 0xC0FFEEULL})), m_nextPr(158000 + m_rng.range(0, 3999)),
          m_releaseRng(mixSeed({seed, 0x2E1EA5EULL})), m_mainRng(mixSeed({seed, 0x3A1CULL})),
          m_landedPr(m_nextPr)
    {
    }

    UpstreamCommit prHead(EpochSeconds time)
    {
        const bool update = !m_open.empty() && m_rng.chance(0.45);
        const OpenPr& pr = update ? recentPr() : openPr();
        UpstreamCommit c = base(time, pr, EventType::PullRequest, pr.base);
        if (update)
            c.title = m_rng.chance(0.5) ? "Update on \"" + pr.title + "\"" : m_rng.pick(kFollowUps);
        return c;
    }

    // A ciflow/trunk/<pr> tag push: the PR number comes from the tag.
    UpstreamCommit ciflowPush(EpochSeconds time)
    {
        const OpenPr& pr = m_open.empty() ? openPr() : recentPr();
        return base(time, pr, EventType::Push,
                    "refs/tags/ciflow/trunk/" + std::to_string(pr.number.value));
    }

    // A nightly's SHA is the pytorch main commit its nightly was cut from
    // (real-backends.md section 2: TorchedHat and torch-spyre send that, and
    // crcr-test main's HEAD), never a nightly-branch commit: a landed PR's
    // commit on main, titled as main's are ("<title> (#<pr>)"), which
    // commit-info serves as any commit's.
    UpstreamCommit nightly(EpochSeconds time)
    {
        UpstreamCommit c;
        c.sha = Sha{m_rng.hex(40)};
        c.eventType = EventType::Nightly;
        c.branch = "main";
        c.time = time;
        m_rng.hex(40); // drawn as before, so every later draw of the world stays as it was
        m_landedPr -= m_mainRng.range(5, 60);
        c.title = makePrTitle(m_mainRng) + " (#" + std::to_string(m_landedPr) + ")";
        c.author = makeAuthor(m_mainRng);
        return c;
    }

    SplitMix64& rng() { return m_rng; }

private:
    const OpenPr& openPr()
    {
        m_nextPr += m_rng.range(1, 40);
        m_open.push_back({PrNumber{m_nextPr}, makePrTitle(m_rng), makeAuthor(m_rng)});
        // A stream of its own: drawing it leaves every other draw as it was.
        if (m_releaseRng.chance(kReleaseShare))
            m_open.back().base = kReleaseBranch;
        return m_open.back();
    }

    // Updates and tags mostly concern PRs opened recently.
    const OpenPr& recentPr()
    {
        const std::size_t window = std::min<std::size_t>(m_open.size(), 25);
        return m_open[m_open.size() - 1 - m_rng.index(window)];
    }

    UpstreamCommit base(EpochSeconds time, const OpenPr& pr, EventType type, std::string branch)
    {
        UpstreamCommit c;
        c.sha = Sha{m_rng.hex(40)};
        c.prNumber = pr.number;
        c.eventType = type;
        c.branch = std::move(branch);
        c.time = time;
        c.title = pr.title;
        c.author = pr.author;
        return c;
    }

    SplitMix64 m_rng;
    std::int64_t m_nextPr;
    SplitMix64 m_releaseRng;
    SplitMix64 m_mainRng;    // main's commits (the nightlies'), a stream of their own
    std::int64_t m_landedPr; // the PR behind the newest main commit drawn, counting down
    std::vector<OpenPr> m_open;
};

// The scheduled nightly runs at ~03:00 UTC on each of the previous days.
std::vector<EpochSeconds> nightlyTimes(EpochSeconds now, int count, SplitMix64& rng)
{
    std::vector<EpochSeconds> out;
    for (int day = 1; day <= count; ++day) {
        const EpochSeconds midnight = (now - day * 86400) / 86400 * 86400;
        out.push_back(midnight + 3 * 3600 + rng.range(0, 900));
    }
    return out;
}

// Evenly spread with jitter; the newest three land within the last two hours
// (10, ~40 and ~80 minutes ago), so their jobs are still running at `now`.
std::vector<EpochSeconds> eventTimes(EpochSeconds now, int count, SplitMix64& rng)
{
    std::vector<EpochSeconds> out;
    const double step = static_cast<double>(kHistorySeconds) / std::max(1, count);
    const EpochSeconds start = now - kHistorySeconds;
    for (int i = 0; i < count; ++i) {
        const double offset = step * (i + 0.1 + 0.8 * rng.unit());
        out.push_back(start + static_cast<EpochSeconds>(offset));
    }
    const EpochSeconds recentAges[] = {600, 2400, 4800};
    for (std::size_t k = 0; k < std::size(recentAges) && k < out.size(); ++k)
        out[out.size() - 1 - k] = now - recentAges[k] - rng.range(0, 600);
    return out;
}

} // namespace

std::vector<UpstreamCommit> buildCommits(const SimConfig& config)
{
    HistoryWriter writer(config.seed);
    const int total = std::max(0, config.commits);
    const int nightlies = std::min(10, total / 20);
    std::vector<UpstreamCommit> commits;
    for (EpochSeconds t : nightlyTimes(config.now, nightlies, writer.rng()))
        commits.push_back(writer.nightly(t));
    for (EpochSeconds t : eventTimes(config.now, total - nightlies, writer.rng())) {
        const bool push = writer.rng().chance(0.18);
        commits.push_back(push ? writer.ciflowPush(t) : writer.prHead(t));
    }
    std::sort(commits.begin(), commits.end(), [](const auto& a, const auto& b) {
        return std::tie(a.time, a.sha) < std::tie(b.time, b.sha);
    });
    return commits;
}

} // namespace relayhud::sim
