// Attribution of a failing test over one job's timeline (triage/attribution.h).
//
// Facts borrowed from PyTorch's Dr. CI (pytorch/test-infra @61a77570,
// torchci/lib/drciUtils.ts): the same job on other PRs, never the same
// author (isSameAuthor, L530-564), in a window of about a day
// (hasSimilarFailures, L260, L284-296). Dr. CI calls broken trunk only from
// the merge base's own failures (torchci/pages/api/drci/drci.ts L1101-1115);
// CRCR rows carry no merge base (specs/hud-read-api.md §4), so a breakage is
// read from the other PRs' runs instead: where most of them start failing
// the test, and which PR failed it before they did.
#include "relayhud/triage/attribution.h"

#include "relayhud/model/tested_commit.h"

#include <algorithm>
#include <cstdlib>
#include <set>

namespace relayhud::triage {
namespace {

constexpr std::size_t kListed = 5; // runs of each kind kept as evidence

// Below this share the scan of a breakage stops: it can no longer recover.
constexpr double kAbandonShare = 0.5;

// Whether an attempt says anything of a test: results, or a green's
// conclusion (pytest failed nothing), or its log naming it failed.
bool attemptJudges(const TimelineRun& r, bool failed)
{
    return r.hasResults || failed || (r.named.empty() && r.conclusion == Conclusion::Success);
}

} // namespace

JobAttributor::JobAttributor(JobTimeline timeline, AttributionOptions options)
    : m_timeline(std::move(timeline)), m_options(options)
{
    const auto& runs = m_timeline.runs;
    for (TimelineIndex i = 0; i < runs.size(); ++i)
        m_byRow.emplace(runs[i].row, i);
    // Attempts of one SHA are adjacent, ascending: the last with results
    // wins, else the last whose log names a failing test, else the last green
    // one (its artifact expired or was never fetched: its conclusion still
    // says pytest failed nothing, and without it only failures would be seen
    // where artifacts expired).
    const auto rank = [&runs](TimelineIndex k) {
        if (runs[k].hasResults)
            return 3;
        if (!runs[k].named.empty())
            return 2;
        return runs[k].conclusion == Conclusion::Success ? 1 : 0;
    };
    for (TimelineIndex i = 0; i < runs.size();) {
        std::optional<TimelineIndex> best;
        TimelineIndex j = i;
        for (; j < runs.size() && runs[j].sha == runs[i].sha; ++j) {
            if (rank(j) > 0 && (!best || rank(j) >= rank(*best)))
                best = j;
        }
        if (best)
            m_settled.push_back(*best);
        i = j;
    }
    m_settledOf.resize(runs.size());
    std::size_t p = 0;
    for (TimelineIndex i = 0; i < runs.size(); ++i) {
        while (p < m_settled.size() && runs[m_settled[p]].time < runs[i].time)
            ++p;
        for (std::size_t q = p; q < m_settled.size() && runs[m_settled[q]].time == runs[i].time;
             ++q)
            if (runs[m_settled[q]].sha == runs[i].sha)
                m_settledOf[i] = q;
    }
}

std::optional<TimelineIndex> JobAttributor::indexOf(CheckRunRow checkRunRow) const
{
    const auto it = m_byRow.find(checkRunRow);
    if (it == m_byRow.end())
        return std::nullopt;
    return it->second;
}

bool JobAttributor::isNightly(const TimelineRun& run) const
{
    return !run.prNumber || run.eventType == EventType::Nightly
           || run.eventType == EventType::Periodic;
}

// Who a run speaks for: its PR, or the nightly itself.
std::int64_t JobAttributor::sourceKey(std::size_t settledPos) const
{
    const TimelineRun& run = m_timeline.runs[m_settled[settledPos]];
    return isNightly(run) ? -run.row.value : run.prNumber.value;
}

JobAttributor::Seen JobAttributor::seen(std::size_t settledPos, TestId testId) const
{
    const TimelineRun& run = m_timeline.runs[m_settled[settledPos]];
    if (run.hasResults)
        return std::binary_search(run.failing.begin(), run.failing.end(), testId) ? Seen::Failed
                                                                                  : Seen::NotFailed;
    if (std::binary_search(run.named.begin(), run.named.end(), testId))
        return Seen::Failed;
    return run.named.empty() && run.conclusion == Conclusion::Success ? Seen::NotFailed
                                                                      : Seen::Unknown;
}

// Another PR (by another author) or a nightly: what this head is compared with.
bool JobAttributor::isOther(const TimelineRun& here, const TimelineRun& other) const
{
    if (other.sha == here.sha)
        return false;
    if (isNightly(other) || isNightly(here))
        return true;
    if (other.prNumber == here.prNumber)
        return false;
    return here.author.empty() || other.author != here.author;
}

const JobAttributor::RunNeighbours& JobAttributor::neighbours(TimelineIndex run) const
{
    if (auto it = m_neighbours.find(run); it != m_neighbours.end())
        return it->second;
    const auto& runs = m_timeline.runs;
    const TimelineRun& here = runs[run];
    RunNeighbours n;
    // This PR's (or the nightly series') earlier settled runs, nearest first.
    // A merged PR's build that tested its base branch's HEAD follows main:
    // its previous is the previous build of another main commit, not another
    // head of the PR (real-backends.md 3.1).
    const bool onMain = !isNightly(here) && buildsMainHead(here);
    for (std::size_t p = m_settled.size(); p-- > 0;) {
        const TimelineRun& r = runs[m_settled[p]];
        if (r.time >= here.time || r.sha == here.sha)
            continue;
        const bool series = onMain            ? buildsMainHead(r) && r.testedSha != here.testedSha
                            : isNightly(here) ? isNightly(r)
                                              : r.prNumber == here.prNumber;
        if (series)
            n.previous.push_back(p);
    }
    std::vector<std::pair<EpochSeconds, std::size_t>> near;
    for (std::size_t p = 0; p < m_settled.size(); ++p) {
        const TimelineRun& r = runs[m_settled[p]];
        const EpochSeconds distance = std::abs(r.time - here.time);
        if (!isOther(here, r))
            continue;
        if (distance <= m_options.windowSeconds)
            near.emplace_back(distance, p);
        else if (distance <= m_options.flakySeconds)
            n.further.push_back(p);
    }
    std::sort(near.begin(), near.end());
    for (const auto& entry : near)
        n.near.push_back(entry.second);
    return m_neighbours.emplace(run, std::move(n)).first->second;
}

bool JobAttributor::attemptFails(TimelineIndex run, TestId testId) const
{
    const TimelineRun& r = m_timeline.runs[run];
    const auto& list = r.hasResults ? r.failing : r.named;
    return std::binary_search(list.begin(), list.end(), testId);
}

bool JobAttributor::shaFails(std::size_t settledPos, TestId testId) const
{
    const auto [first, last] = attemptsOf(m_settled[settledPos]);
    for (TimelineIndex k = first; k < last; ++k)
        if (attemptFails(k, testId))
            return true;
    return false;
}

// One attempt of the SHA failed the test and another (with results) did not.
bool JobAttributor::attemptsDisagree(std::size_t settledPos, TestId testId) const
{
    const auto [first, last] = attemptsOf(m_settled[settledPos]);
    bool failed = false;
    bool passed = false;
    for (TimelineIndex k = first; k < last; ++k) {
        if (attemptFails(k, testId))
            failed = true;
        else if (m_timeline.runs[k].hasResults)
            passed = true;
    }
    return failed && passed;
}

std::pair<TimelineIndex, TimelineIndex> JobAttributor::attemptsOf(TimelineIndex run) const
{
    const auto& runs = m_timeline.runs;
    TimelineIndex first = run;
    TimelineIndex last = run + 1;
    while (first > 0 && runs[first - 1].sha == runs[run].sha)
        --first;
    while (last < runs.size() && runs[last].sha == runs[run].sha)
        ++last;
    return {first, last};
}

// This PR's other runs of the job: did they fail the test too? A PR's own
// regression holds on every attempt of a head and on its next heads until
// fixed; a flaky failure seldom comes twice. A nightly's: its other attempts
// and the next nightly.
void JobAttributor::countOwn(TimelineIndex run, TestId testId, Attribution& a) const
{
    const auto& runs = m_timeline.runs;
    const TimelineRun& here = runs[run];
    const auto count = [&](TimelineIndex i) {
        const bool failed = attemptFails(i, testId);
        if (!attemptJudges(runs[i], failed))
            return;
        ++a.ownJudged;
        a.ownFailed += failed ? 1 : 0;
    };
    const auto [first, last] = attemptsOf(run);
    for (TimelineIndex i = first; i < last; ++i)
        if (i != run)
            count(i);
    // A series (nightlies; a merged PR's builds of main, real-backends.md
    // 3.1): its next run.
    const bool onMain = !isNightly(here) && buildsMainHead(here);
    if (isNightly(here) || onMain) {
        for (TimelineIndex i = last; i < runs.size(); ++i)
            if (runs[i].time > here.time
                && (onMain ? !isNightly(runs[i]) && buildsMainHead(runs[i])
                                 && runs[i].testedSha != here.testedSha
                           : isNightly(runs[i]))) {
                const auto next = attemptsOf(i);
                for (TimelineIndex k = next.first; k < next.second; ++k)
                    count(k);
                break;
            }
        return;
    }
    for (TimelineIndex i = 0; i < runs.size(); ++i)
        if (!isNightly(runs[i]) && runs[i].prNumber == here.prNumber && runs[i].sha != here.sha)
            count(i);
}

// Other SHAs whose attempts disagree on the test: one failed it, another
// passed it. That is what flaky means, shown by the job's own reruns.
void JobAttributor::countFlakyShas(TimelineIndex run, TestId testId, Attribution& a) const
{
    const auto& runs = m_timeline.runs;
    const TimelineRun& here = runs[run];
    EpochSeconds nearest = 0;
    for (TimelineIndex i = 0; i < runs.size();) {
        const auto [first, last] = attemptsOf(i);
        i = last;
        if (last - first < 2 || runs[first].sha == here.sha
            || std::abs(runs[first].time - here.time) > m_options.flakySeconds)
            continue;
        std::optional<TimelineIndex> failed;
        std::optional<TimelineIndex> passed;
        for (TimelineIndex k = first; k < last; ++k) {
            if (attemptFails(k, testId))
                failed = k;
            else if (runs[k].hasResults)
                passed = k;
        }
        if (!failed || !passed)
            continue;
        const EpochSeconds distance = std::abs(runs[first].time - here.time);
        if (a.flakyShas++ == 0 || distance < nearest) {
            nearest = distance;
            a.flakyFailed = failed;
            a.flakyPassed = passed;
        }
    }
}

const std::vector<bool>& JobAttributor::oneOffs() const
{
    if (m_oneOffs)
        return *m_oneOffs;
    // Per test, how many SHAs fail it (any attempt).
    const auto& runs = m_timeline.runs;
    std::map<TestId, int> shasFailing;
    std::vector<std::set<TestId>> failingOf(m_settled.size());
    for (std::size_t p = 0; p < m_settled.size(); ++p) {
        const auto [first, last] = attemptsOf(m_settled[p]);
        for (TimelineIndex k = first; k < last; ++k) {
            const auto& list = runs[k].hasResults ? runs[k].failing : runs[k].named;
            failingOf[p].insert(list.begin(), list.end());
        }
        for (const TestId test : failingOf[p])
            ++shasFailing[test];
    }
    std::vector<bool> out(m_settled.size());
    for (std::size_t p = 0; p < m_settled.size(); ++p)
        out[p] = std::any_of(failingOf[p].begin(), failingOf[p].end(),
                             [&](TestId test) { return shasFailing[test] == 1; });
    return *(m_oneOffs = std::move(out));
}

// How often the other PRs' and nightlies' runs fail a test once and never
// again: a job whose suite fails a random test now and then (a device's
// hiccup, a race in the harness) says little with a single failure.
void JobAttributor::countNoise(TimelineIndex run, Attribution& a) const
{
    const auto& runs = m_timeline.runs;
    const TimelineRun& here = runs[run];
    const std::vector<bool>& once = oneOffs();
    for (std::size_t p = 0; p < m_settled.size(); ++p) {
        const TimelineRun& r = runs[m_settled[p]];
        if (!isOther(here, r) || !r.hasResults)
            continue;
        ++a.judgedRuns;
        a.oneOffRuns += once[p] ? 1 : 0;
    }
    a.noisy = a.oneOffRuns >= m_options.noisyMinRuns
              && a.oneOffRuns >= m_options.noisyShare * a.judgedRuns;
}

const JobAttributor::TestTrack& JobAttributor::track(TestId testId) const
{
    auto it = m_tracks.find(testId);
    if (it != m_tracks.end())
        return it->second;
    TestTrack t;
    for (std::size_t p = 0; p < m_settled.size(); ++p)
        if (fails(p, testId))
            t.failingAt.push_back(p);
    findBreakages(testId, t);
    return m_tracks.emplace(testId, std::move(t)).first->second;
}

// A breakage starts at a failing run from which the job's runs keep failing
// the test (at least brokenShare of them, on brokenMinSources PRs or
// nightlies). Its first seen is the earliest failure before the failure
// spread to a second PR; a PR that failed it there, on its own, is the
// culprit: its heads broke it and everyone's runs since carry it (the PR
// merged). No such PR: every run started failing it at once, the backend's
// doing, unless a PR's run inside it still passes it while later PRs' fail
// (a PR based before the break): then it came with upstream's main.
void JobAttributor::findBreakages(TestId testId, TestTrack& t) const
{
    std::size_t next = 0; // index into t.failingAt
    while (next < t.failingAt.size()) {
        const Stretch s = stretchFrom(t.failingAt[next], testId);
        const bool broken = static_cast<int>(s.sources.size()) >= m_options.brokenMinSources
                            || (next == 0 && justBegan(s, testId));
        if (!broken || flakyStreak(s, testId)) {
            ++next;
            continue;
        }
        t.breakages.push_back(breakageOf(s, t, testId));
        next = static_cast<std::size_t>(
            std::upper_bound(t.failingAt.begin(), t.failingAt.end(), s.last) - t.failingAt.begin());
    }
}

// From a failing run on: how far the job's runs keep failing the test (at
// least brokenShare of them), until they pass it often enough to leave off.
JobAttributor::Stretch JobAttributor::stretchFrom(std::size_t start, TestId testId) const
{
    Stretch s;
    s.start = start;
    s.last = start;
    s.sources.insert(sourceKey(start));
    for (std::size_t p = start + 1; p < m_settled.size(); ++p) {
        const Seen there = seen(p, testId);
        if (there == Seen::Unknown)
            continue;
        ++s.total;
        if (there == Seen::Failed) {
            ++s.failed;
            if (static_cast<double>(s.failed) >= m_options.brokenShare * s.total) {
                s.last = p;
                s.lastFailed = s.failed;
                s.sources.insert(sourceKey(p));
            }
        } else if (static_cast<double>(s.failed) < kAbandonShare * s.total) {
            break;
        }
    }
    return s;
}

// A breakage that began just now: every run since its start fails it, to
// the newest (the scan reached the end), on two authors' PRs already (few
// runs came since), and nothing failed it before (the stretch is the test's
// first: a flaky test's failures come and go). Two nightlies alone are a
// linear history, and one author's PRs may share a change.
bool JobAttributor::justBegan(const Stretch& s, TestId testId) const
{
    if (s.failed != s.total)
        return false;
    std::set<std::string> authors;
    for (std::size_t p = s.start; p <= s.last; ++p) {
        const TimelineRun& r = m_timeline.runs[m_settled[p]];
        if (!isNightly(r) && fails(p, testId))
            authors.insert(r.author.empty() ? "#" + std::to_string(r.prNumber.value) : r.author);
    }
    return authors.size() >= 2;
}

// A flaky test's streak is no breakage: a breakage fails on every attempt of
// its runs and of the runs around it (days either side), and the test does
// not fail now and then far from it (days before its first failure or after
// its last; a breakage's own stretches sit close together, between the PR
// heads based before it that pass).
bool JobAttributor::flakyStreak(const Stretch& s, TestId testId) const
{
    const auto& runs = m_timeline.runs;
    const EpochSeconds from = runs[m_settled[s.start]].time - m_options.firstSeenSeconds;
    const EpochSeconds until = runs[m_settled[s.last]].time + m_options.firstSeenSeconds;
    int far = 0;
    for (std::size_t p = 0; p < m_settled.size(); ++p) {
        const EpochSeconds time = runs[m_settled[p]].time;
        const bool near = time >= from && time <= until;
        if (near && attemptsDisagree(p, testId))
            return true;
        if (!near && shaFails(p, testId))
            ++far;
    }
    return far >= 2;
}

// A stretch that is a breakage: where it spread, its first seen, whether a
// PR based before it still passes it (upstream), and its culprit.
JobAttributor::Breakage JobAttributor::breakageOf(const Stretch& s, const TestTrack& t,
                                                  TestId testId) const
{
    const auto& runs = m_timeline.runs;
    Breakage b;
    b.first = s.start;
    b.last = s.last;
    b.runs = s.lastFailed;
    b.sources = static_cast<int>(s.sources.size());
    // The spread: the first failure in it by another source than the first.
    const std::int64_t firstKey = sourceKey(s.start);
    b.spread = s.last;
    for (std::size_t p = s.start + 1; p <= s.last; ++p)
        if (fails(p, testId) && sourceKey(p) != firstKey) {
            b.spread = p;
            break;
        }
    const EpochSeconds spread = runs[m_settled[b.spread]].time;
    const EpochSeconds from = runs[m_settled[s.start]].time - m_options.firstSeenSeconds;
    std::map<std::int64_t, int> before; // source -> its failures before the spread
    for (const std::size_t p : t.failingAt) {
        const EpochSeconds time = runs[m_settled[p]].time;
        if (time < from)
            continue;
        if (time >= spread)
            break;
        if (!b.firstSeen)
            b.firstSeen = p;
        ++before[sourceKey(p)];
    }
    // A PR's run that passes it inside, with other PRs' runs failing it
    // after it still: PRs based before the change do not carry it. (A
    // pass at its very end is the fix, seen before a slower run.)
    for (std::size_t p = s.start + 1; p < s.last && !b.upstream; ++p) {
        if (isNightly(runs[m_settled[p]]) || seen(p, testId) != Seen::NotFailed)
            continue;
        std::set<std::int64_t> later;
        for (std::size_t q = p + 1; q <= s.last && later.size() < 2; ++q)
            if (!isNightly(runs[m_settled[q]]) && fails(q, testId))
                later.insert(sourceKey(q));
        b.upstream = later.size() >= 2;
    }
    if (b.firstSeen) {
        const std::int64_t key = sourceKey(*b.firstSeen);
        const bool alone = key != firstKey || before[key] >= 2;
        // A culprit failed it on its own while others still passed it
        // (or PRs based before it pass it still); when everyone's runs
        // fail from its first failure on, a PR that happened to run
        // first did not break it: the backend moved.
        bool othersPassed = b.upstream;
        for (std::size_t p = *b.firstSeen + 1; p < b.spread && !othersPassed; ++p)
            othersPassed = sourceKey(p) != key && seen(p, testId) == Seen::NotFailed;
        if (key > 0 && alone && othersPassed)
            b.culpritPr = PrNumber{key};
    }
    return b;
}

Attribution JobAttributor::attribute(TimelineIndex run, TestId testId) const
{
    const TestTrack& t = track(testId);
    const RunNeighbours& n = neighbours(run);
    Attribution a;
    const int prsFailed = countNeighbours(n, testId, a);
    if (callsBreakage(run, t, a))
        return a;
    countOwn(run, testId, a);
    countFlakyShas(run, testId, a);
    countNoise(run, a);
    // Do other PRs fail it now and then further away (outside its breakages)?
    for (const std::size_t p : n.further) {
        const bool inBreakage =
            std::any_of(t.breakages.begin(), t.breakages.end(),
                        [&](const Breakage& b) { return p >= b.first && p <= b.last; });
        if (!inBreakage && shaFails(p, testId))
            ++a.failedFurther;
    }
    const TimelineRun& here = m_timeline.runs[run];
    if (!callsFlaky(here, prsFailed, a))
        callsOwn(here, a);
    return a;
}

// This PR's (or series') previous run with an outcome for the test, and the
// other PRs' runs in the window; how many of those that failed it are PRs'.
int JobAttributor::countNeighbours(const RunNeighbours& n, TestId testId, Attribution& a) const
{
    for (const std::size_t p : n.previous) {
        const Seen there = seen(p, testId);
        if (there == Seen::Unknown)
            continue;
        a.previous = m_settled[p];
        a.previousFailed = there == Seen::Failed;
        break;
    }
    // Another SHA failed the test if any of its attempts did: a flaky
    // failure that passed on a rerun is still a failure of that SHA.
    int prsFailed = 0;
    for (const std::size_t p : n.near) {
        Seen there = seen(p, testId);
        if (there != Seen::Failed && shaFails(p, testId))
            there = Seen::Failed;
        if (there == Seen::Unknown)
            continue;
        const bool failed = there == Seen::Failed;
        (failed ? a.othersFailed : a.othersPassed) += 1;
        if (failed && !isNightly(m_timeline.runs[m_settled[p]]))
            ++prsFailed;
        auto& list = failed ? a.failedOn : a.passedOn;
        if (list.size() < kListed)
            list.push_back(m_settled[p]);
    }
    return prsFailed;
}

// Inside a breakage (between its first failure and its last), or one of
// the culprit's own heads before it spread. A head of the culprit
// dispatched once everyone fails the test (the PR merged, then got a
// follow-up or a rerun) meets trunk already broken, by its own merge.
bool JobAttributor::callsBreakage(TimelineIndex run, const TestTrack& t, Attribution& a) const
{
    const auto& runs = m_timeline.runs;
    const TimelineRun& here = runs[run];
    const std::optional<std::size_t> pos = m_settledOf[run];
    for (const Breakage& b : t.breakages) {
        const EpochSeconds begins = runs[m_settled[b.first]].time;
        const EpochSeconds ends = runs[m_settled[b.last]].time;
        const EpochSeconds spread = b.culpritPr.value != 0 ? runs[m_settled[b.spread]].time : ends;
        const bool culpritsHead = !isNightly(here) && b.culpritPr == here.prNumber
                                  && here.time < spread
                                  && here.time >= begins - m_options.firstSeenSeconds;
        const bool inside =
            pos ? (*pos >= b.first && *pos <= b.last) : (here.time >= begins && here.time <= ends);
        if (!culpritsHead && !inside)
            continue;
        a.onset = m_settled[b.culpritPr.value != 0 ? b.spread : b.first];
        a.firstSeen =
            b.firstSeen ? std::optional<TimelineIndex>(m_settled[*b.firstSeen]) : std::nullopt;
        a.culpritPr = b.culpritPr;
        a.brokenRuns = b.runs;
        a.brokenSources = b.sources;
        if (culpritsHead) {
            a.call = AttributionCall::Culprit;
            a.confidence = 0.9;
        } else if (b.culpritPr.value != 0 || b.upstream) {
            a.call = AttributionCall::BrokenTrunk;
            a.confidence = b.sources >= 5 ? 0.9 : 0.75;
        } else {
            a.call = AttributionCall::Backend;
            a.confidence = 0.6;
        }
        return true;
    }
    return false;
}

// Outside any breakage: the ways a failure shows itself flaky, or (a
// nightly's) older than this run. False when none holds.
bool JobAttributor::callsFlaky(const TimelineRun& here, int prsFailed, Attribution& a) const
{
    const auto call = [&](AttributionCall c, double confidence) {
        a.call = c;
        a.confidence = confidence;
        return true;
    };
    // A nightly (or push) series is a linear history: failing on the
    // previous one too is older than this one, unless the test is flaky
    // anyway (PRs fail it now and then, its attempts disagree elsewhere).
    if (isNightly(here) && a.previous && a.previousFailed) {
        const bool flaky = prsFailed > 0 || a.flakyShas > 0 || a.failedFurther > 0;
        return flaky ? call(AttributionCall::Flaky, 0.75) : call(AttributionCall::NightlyOld, 0.7);
    }
    if (a.othersFailed > 0)
        return call(AttributionCall::Flaky, a.othersFailed >= 2 ? 0.85 : 0.75);
    if (a.flakyShas > 0)
        return call(AttributionCall::Flaky, 0.9);
    if (a.failedFurther >= 1)
        return call(AttributionCall::Flaky, 0.75);
    // Seen once, on a job that fails some test once and never again on
    // many runs: more of the same, until a rerun or another head says no.
    if (a.ownFailed == 0 && a.noisy)
        return call(AttributionCall::Flaky, 0.7);
    // A nightly's: came with this nightly, gone with the next.
    if (isNightly(here) && a.ownJudged > 0 && a.ownFailed == 0)
        return call(AttributionCall::Flaky, 0.75);
    return false;
}

// No one else fails it: a nightly's new failure, this PR's regression, or
// too little to say.
void JobAttributor::callsOwn(const TimelineRun& here, Attribution& a) const
{
    if (isNightly(here)) {
        a.call = AttributionCall::NightlyNew;
        a.confidence = a.othersPassed >= 3  ? (a.previous && !a.previousFailed ? 0.9 : 0.8)
                       : a.othersPassed > 0 ? 0.6
                                            : 0.4;
        return;
    }
    // A run that did not test the PR's head cannot carry the PR's change.
    // Main's previous build failed it too: older (the merged-build path in
    // suggest.cpp says so). Else, passing on the other runs around it (which
    // tested main at about the same time), with no other attempt or next
    // build failing it: a one-off, most likely flaky. Else no call.
    if (testsWithoutItsPr(here) && !(a.previous && a.previousFailed)) {
        a.withoutPr = true;
        const bool oneOff = a.ownFailed == 0 && a.othersPassed >= m_options.minPassedOthers;
        a.call = oneOff ? AttributionCall::Flaky : AttributionCall::Unclear;
        a.confidence = oneOff ? 0.6 : 0.0;
        return;
    }
    // Only this PR fails it. Once, with few runs to compare: no call. (A
    // build of main compares with main's previous build, as a nightly.)
    const bool mainWithBaseline = buildsMainHead(here) && a.previous;
    if (a.ownFailed == 0 && a.othersPassed < m_options.minPassedOthers && !mainWithBaseline) {
        a.call = AttributionCall::Unclear;
        a.confidence = 0.0;
        return;
    }
    a.call = AttributionCall::ThisPr;
    a.confidence = a.ownFailed > 0 ? (a.othersPassed >= 3  ? 0.95
                                      : a.othersPassed > 0 ? 0.85
                                                           : 0.7)
                                   : 0.8;
}

bool buildsMainHead(const TimelineRun& run)
{
    return !run.testedSha.empty() && !sameCommit(run.testedSha, run.sha.value);
}

bool testsWithoutItsPr(const TimelineRun& run)
{
    return run.prNumber.value > 0 && run.eventType == EventType::PullRequest && buildsMainHead(run)
           && !isMergedBuildSource(run.testedSource);
}

} // namespace relayhud::triage
