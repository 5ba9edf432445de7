#pragma once
// Where a failing test comes from, judged as CRCR's world really is (issue 15).
//
// Almost every CRCR row is a pull-request head, and PR heads are no linear
// history: the "previous SHA" of a head is usually another, unrelated PR. What
// does hold (../shared/DOMAIN.md, "Baselines and attribution"):
//  - a PR's own heads form a history: a failure new since the PR's previous
//    head came with that push;
//  - PRs dispatched at about the same time share about the same main: a
//    failure most of them share from some moment on is already broken
//    upstream (or in the backend); one only this PR shows is this PR's;
//  - nightlies are a linear history of main commits: each nightly's SHA is
//    the main commit its nightly was cut from, or main's HEAD, or free text
//    that is no commit at all (../shared/specs/real-backends.md section 2);
//  - a merged PR's build that tested its base branch's HEAD (its tested
//    commit, model/tested_commit.h; real-backends.md 3.1) follows main: its
//    previous is the job's previous build of another main commit.
// PyTorch's Dr. CI makes the same call for in-tree CI (pytorch/test-infra
// torchci/lib/drciUtils.ts `hasSimilarFailures`: the same job's failures on
// other PRs, not by the same author, in a 24 h look-back). We look both ways
// in the window, find when a breakage started (its onset: from there on most
// runs of the job fail the test, on several PRs) and which PR failed it
// before it spread (the culprit, first seen), which Dr. CI does not.
//
// A JobAttributor holds one job's timeline (store/job_timeline.h) and answers
// for any of its runs and tests; it is cheap to ask many times.
#include "relayhud/model/failure_class.h"
#include "relayhud/model/types.h"
#include "relayhud/store/job_timeline.h"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace relayhud::triage {

struct AttributionOptions {
    // Other PRs' runs this close to the head (before or after) are concurrent.
    EpochSeconds windowSeconds = 24 * 3600;
    // A test other PRs fail now and then this close to the head (before or
    // after), outside any breakage, is flaky even when none did in the window:
    // a month, as far as a sync reads by default.
    EpochSeconds flakySeconds = 30 * 24 * 3600;
    // How far before a breakage's onset its first failure is looked for.
    EpochSeconds firstSeenSeconds = 72 * 3600;
    // A breakage: from its onset on, at least this share of the job's runs
    // fail the test ...
    double brokenShare = 0.8;
    // ... on at least this many distinct PRs or nightlies.
    int brokenMinSources = 3;
    // A failure only this PR shows, on one run (no other head or attempt of
    // it failed the test too), compared with fewer other PRs' runs that pass
    // it than this, is unclear: not enough runs to call it this PR's.
    int minPassedOthers = 3;
    // A job that fails some test once and never again (on no other run) on
    // at least this share of the other PRs' and nightlies' runs, and on at
    // least noisyMinRuns of them, is noisy: a failure seen once there is
    // most likely more of the same (flaky), until a rerun or another head
    // fails it too.
    double noisyShare = 0.1;
    int noisyMinRuns = 3;
};

enum class AttributionCall : std::uint8_t {
    ThisPr,      // fails here and on this PR's heads, not on the others
    Culprit,     // this PR broke it and, once merged, everyone else (its own heads)
    BrokenTrunk, // already broken upstream when this head was dispatched
    Backend,     // every run started failing it at once, no PR first: the backend moved
    Flaky,       // fails on other PRs' runs now and then, without a common start
    NightlyNew,  // a nightly's new failure: the main range since the previous nightly
    NightlyOld,  // a nightly that failed it on the previous nightly too
    Unclear,     // only this PR fails it, once, and too few runs compare: no call
};

// A run a decision points at: an index into the attributor's timeline.
using TimelineIndex = std::size_t;

struct Attribution {
    AttributionCall call = AttributionCall::ThisPr;
    double confidence = 0.5; // 0..1
    // This PR's nearest earlier head with results (same job), and whether the
    // test failed there. Nightly: the previous nightly.
    std::optional<TimelineIndex> previous;
    bool previousFailed = false;
    // Other PRs' (and nightlies') runs within the window: how many failed the
    // test and how many did not, and a few of each, nearest first.
    int othersFailed = 0;
    int othersPassed = 0;
    // Other PRs' runs within flakySeconds that fail it outside any breakage
    // (0 unless the window had none).
    int failedFurther = 0;
    // Other SHAs (of any PR or nightly, but this one) where one attempt
    // failed the test and another passed it: flaky, by the job's own reruns.
    int flakyShas = 0;
    std::optional<TimelineIndex> flakyFailed; // one such pair, the nearest
    std::optional<TimelineIndex> flakyPassed;
    // This PR's other runs (other attempts of this head, its other heads; a
    // nightly's: its attempts and the next nightly) that failed the test too,
    // and how many of them have an outcome for it at all.
    int ownFailed = 0;
    int ownJudged = 0;
    // The job's noise: other PRs' and nightlies' runs that fail some test no
    // other run fails (once and never again), of the runs with results.
    int oneOffRuns = 0;
    int judgedRuns = 0;
    bool noisy = false;
    std::vector<TimelineIndex> failedOn;
    std::vector<TimelineIndex> passedOn;
    // A breakage: the run where it spread to a second PR or nightly (onset),
    // the run that failed it first (first seen), and the PR that did, on its
    // own (0: none, or a nightly).
    std::optional<TimelineIndex> onset;
    std::optional<TimelineIndex> firstSeen;
    PrNumber culpritPr;
    int brokenRuns = 0;    // runs failing it from the onset on
    int brokenSources = 0; // distinct PRs and nightlies among them
    // The run is a PR's that tested another commit than the PR's head, not
    // as a merged build (testsWithoutItsPr): its call is never this PR's.
    bool withoutPr = false;
};

class JobAttributor {
public:
    explicit JobAttributor(JobTimeline timeline, AttributionOptions options = {});

    const JobTimeline& timeline() const { return m_timeline; }
    std::optional<TimelineIndex> indexOf(CheckRunRow checkRunRow) const;

    // Where the failure of `testId` in run `run` comes from.
    Attribution attribute(TimelineIndex run, TestId testId) const;

private:
    struct Breakage {
        std::size_t first = 0;  // positions in m_settled
        std::size_t spread = 0; // the first failure of another source than first's
        std::size_t last = 0;
        int runs = 0;
        int sources = 0;
        std::optional<std::size_t> firstSeen; // position in m_settled
        PrNumber culpritPr;
        // A PR's run inside it passes the test: it depends on the upstream
        // base (PRs based before it do not carry it), so it is no backend
        // change, which fails every run whatever its base.
        bool upstream = false;
    };
    struct TestTrack {
        std::vector<std::size_t> failingAt; // positions in m_settled, ascending
        std::vector<Breakage> breakages;
    };

    bool isNightly(const TimelineRun& run) const;
    std::int64_t sourceKey(std::size_t settledPos) const;
    // What a settled run says of a test: it failed, it did not, or (a run
    // known only from its log's failure line) nothing.
    enum class Seen : std::uint8_t { Failed, NotFailed, Unknown };
    Seen seen(std::size_t settledPos, TestId testId) const;
    bool fails(std::size_t settledPos, TestId testId) const
    {
        return seen(settledPos, testId) == Seen::Failed;
    }
    const TestTrack& track(TestId testId) const;
    // Whether an attempt (any, not only the settled one) failed a test; any
    // attempt of a settled run's SHA; one attempt failed it and another not.
    bool attemptFails(TimelineIndex run, TestId testId) const;
    bool shaFails(std::size_t settledPos, TestId testId) const;
    bool attemptsDisagree(std::size_t settledPos, TestId testId) const;
    // The attempts of run's SHA: [first, last).
    std::pair<TimelineIndex, TimelineIndex> attemptsOf(TimelineIndex run) const;
    void countOwn(TimelineIndex run, TestId testId, Attribution& a) const;
    void countFlakyShas(TimelineIndex run, TestId testId, Attribution& a) const;
    void countNoise(TimelineIndex run, Attribution& a) const;
    // Per settled run: whether it fails a test that no other SHA fails.
    const std::vector<bool>& oneOffs() const;
    void findBreakages(TestId testId, TestTrack& track) const;
    // findBreakages' steps: a stretch of failing runs from a failure on,
    // whether it is one (began just now, no flaky streak), and what it is.
    struct Stretch {
        std::size_t start = 0; // positions in m_settled
        std::size_t last = 0;
        int failed = 1; // of the runs from start on with an outcome for the test
        int total = 1;
        int lastFailed = 1; // failures up to last
        std::set<std::int64_t> sources;
    };
    Stretch stretchFrom(std::size_t start, TestId testId) const;
    bool justBegan(const Stretch& s, TestId testId) const;
    bool flakyStreak(const Stretch& s, TestId testId) const;
    Breakage breakageOf(const Stretch& s, const TestTrack& t, TestId testId) const;
    bool isOther(const TimelineRun& here, const TimelineRun& other) const;
    // What every test of one run is compared with, found once per run.
    struct RunNeighbours {
        std::vector<std::size_t>
            previous;                  // positions in m_settled: this PR's earlier, nearest first
        std::vector<std::size_t> near; // other PRs' runs in the window, nearest first
        std::vector<std::size_t> further; // ... and in the flaky window, outside the window
    };
    const RunNeighbours& neighbours(TimelineIndex run) const;
    // attribute()'s steps: count the neighbours, then the first call that
    // holds (a breakage, flaky, the run's own).
    int countNeighbours(const RunNeighbours& n, TestId testId, Attribution& a) const;
    bool callsBreakage(TimelineIndex run, const TestTrack& t, Attribution& a) const;
    bool callsFlaky(const TimelineRun& here, int prsFailed, Attribution& a) const;
    void callsOwn(const TimelineRun& here, Attribution& a) const;

    JobTimeline m_timeline;
    AttributionOptions m_options;
    std::map<CheckRunRow, TimelineIndex> m_byRow;
    // Per SHA its newest attempt with stored results (else, its newest
    // attempt whose log names a failing test), oldest commit first: the runs
    // that say what a head's outcome settled on.
    std::vector<TimelineIndex> m_settled;
    // Each run's SHA's position in m_settled; none when no attempt has results.
    std::vector<std::optional<std::size_t>> m_settledOf;
    mutable std::map<TestId, TestTrack> m_tracks;
    mutable std::map<TimelineIndex, RunNeighbours> m_neighbours;
    mutable std::optional<std::vector<bool>> m_oneOffs;
};

// Whether a run tested main's HEAD rather than its row's commit, as its log
// or names say (TimelineRun::testedSha): a merged PR's build of its base
// branch (torch-spyre, real-backends.md 3.1), or a PR's run on a backend
// whose workflow checks out the default branch. Such a run follows main's
// earlier builds, not the PR's heads.
bool buildsMainHead(const TimelineRun& run);

// Whether a PR's run tested another upstream commit than the PR's head, read
// from actions/checkout rather than from a merged build's shapes
// (isMergedBuildSource): a checkout without `ref` takes the default branch,
// so none of the PR's own change is in what it tested, and a failure there
// is never the PR's. Which commit it took otherwise is not knowable here.
bool testsWithoutItsPr(const TimelineRun& run);

} // namespace relayhud::triage
