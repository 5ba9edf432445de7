// The sentences that say why attribution gave a failing test its class
// (triage/suggest_why.h).
#include "suggest_why.h"

#include "relayhud/util/time.h"

namespace relayhud::triage {
namespace {

// "#158123 (3fa9c21)" or "nightly 3fa9c21".
std::string runName(const EvidenceRun& run)
{
    return (run.prNumber.value > 0 ? "#" + std::to_string(run.prNumber.value)
                                   : std::string("nightly"))
           + " (" + run.sha.shortSha() + ")";
}

std::string when(EpochSeconds time) { return time ? formatIso(time) : std::string("?"); }

// Rows without a PR are nightlies (or periodic runs, or pushes where a cache
// holds them): each its own linear series.
std::string seriesName(EventType type)
{
    return type == EventType::Nightly    ? "nightly"
           : type == EventType::Periodic ? "periodic run"
                                         : "push";
}

// A run that tested main (buildsMainHead) follows main's earlier builds, not
// the PR's heads: what changed is the main range between the two tested
// commits. A merged PR's build has the PR's merge in it, and other merges
// may sit there too (no HUD data says which); a PR's run on a backend that
// checks out the default branch never built the PR at all.
std::string mainBuildWhy(const Attribution& a, const WhyContext& c)
{
    const TimelineRun& before = c.timeline.runs[*a.previous];
    const TimelineRun& here = c.timeline.runs[c.index];
    const auto shortOf = [](const std::string& sha) { return sha.substr(0, 7); };
    const std::string tested =
        "; this run tested main at " + shortOf(here.testedSha) + ", not the PR's head";
    if (a.previousFailed)
        return tested + ", and main's previous build " + shortOf(before.testedSha)
               + " fails it too: older than this run's main";
    return tested + "; passed on main's previous build " + shortOf(before.testedSha)
           + ": regression in main " + shortOf(before.testedSha) + "..." + shortOf(here.testedSha)
           + " (the PR's merge, if it is in that range, or another merge in it)";
}

// A PR's run that tested another commit than the PR's head with a plain
// actions/checkout (testsWithoutItsPr): what it tested, and why that clears
// the PR.
std::string withoutPrWhy(const WhyContext& c)
{
    const TimelineRun& here = c.timeline.runs[c.index];
    return "this run tested " + here.testedSha.substr(0, 7)
           + ", not the PR's head (its actions/checkout took another commit: without `ref:`, "
             "the default branch), so none of this PR's change is in it";
}

} // namespace

EvidenceRun timelineRun(const JobTimeline& timeline, const TimelineRun& r)
{
    EvidenceRun out;
    out.checkRunRow = r.row;
    out.downstreamRepo = timeline.downstreamRepo;
    out.workflow = timeline.workflow;
    out.jobName = timeline.jobName;
    out.sha = r.sha;
    out.runAttempt = r.attempt;
    out.conclusion = r.conclusion;
    out.startedAt = r.startedAt;
    out.prNumber = r.prNumber;
    out.eventType = r.eventType;
    out.dispatchedAt = r.time;
    return out;
}

std::string hours(EpochSeconds seconds) { return std::to_string(seconds / 3600) + " h"; }

std::string flakyWhy(const Attribution& a, const WhyContext& c)
{
    const std::string window = hours(c.options.windowSeconds);
    if (a.withoutPr)
        return withoutPrWhy(c) + "; fails here and on none of the " + std::to_string(a.othersPassed)
               + " other runs of this job within " + window
               + ": most likely flaky (a rerun would tell)";
    if (a.othersFailed > 0)
        return "fails on " + std::to_string(a.othersFailed) + " of "
               + std::to_string(a.othersFailed + a.othersPassed)
               + " other PRs' runs of this job within " + window
               + " too, without a common start: flaky";
    if (a.flakyShas > 0) {
        std::string why = "failed and passed on attempts of the same SHA on "
                          + std::to_string(a.flakyShas)
                          + (a.flakyShas == 1 ? " other run" : " other runs") + " of this job";
        if (a.flakyFailed && a.flakyPassed) {
            const EvidenceRun failed = timelineRun(c.timeline, c.timeline.runs[*a.flakyFailed]);
            const EvidenceRun passed = timelineRun(c.timeline, c.timeline.runs[*a.flakyPassed]);
            why += " (" + runName(failed) + ": attempt " + std::to_string(failed.runAttempt)
                   + " failed, attempt " + std::to_string(passed.runAttempt) + " passed)";
        }
        return why + ": flaky";
    }
    if (a.failedFurther > 0)
        return "fails on none of " + std::to_string(a.othersPassed) + " other PRs' runs within "
               + window + ", but on " + std::to_string(a.failedFurther) + " within "
               + std::to_string(c.options.flakySeconds / 86400) + " days, never for long: flaky";
    if (a.noisy && a.ownFailed == 0)
        return "seen once: no rerun or other head of this PR failed it, and this job fails "
               "some test once and never again on "
               + std::to_string(a.oneOffRuns) + " of " + std::to_string(a.judgedRuns)
               + " other runs: most likely flaky (a rerun would tell)";
    const std::string series = seriesName(c.here.eventType);
    return "failed on this " + series + " alone: " + std::to_string(a.ownJudged)
           + (a.ownJudged == 1 ? " rerun or next " + series + " passes it"
                               : " reruns and next " + series + " pass it")
           + ": flaky";
}

std::string regressionWhy(const Attribution& a, const WhyContext& c)
{
    const JobTimeline& timeline = c.timeline;
    std::string why;
    if (a.call == AttributionCall::Culprit) {
        const TimelineRun& onset = timeline.runs[*a.onset];
        why = "this PR's heads fail it before anyone else's; since " + when(onset.time) + ", "
              + std::to_string(a.brokenRuns) + " runs of " + std::to_string(a.brokenSources)
              + " PRs and nightlies fail it too (this PR merged?)";
    } else {
        const int compared = a.othersFailed + a.othersPassed;
        why = "fails here and on "
              + (a.othersFailed == 0 ? "none" : "only " + std::to_string(a.othersFailed))
              + " of the " + std::to_string(compared) + " other PRs' runs of this job within "
              + hours(c.options.windowSeconds);
        if (a.othersPassed == 0)
            why = "fails here; no other PR's run of this job within "
                  + hours(c.options.windowSeconds) + " to compare";
    }
    if (a.ownFailed > 0)
        why += "; " + std::to_string(a.ownFailed) + " of this PR's " + std::to_string(a.ownJudged)
               + " other runs fail it too";
    if (a.previous && buildsMainHead(timeline.runs[c.index]))
        return why + mainBuildWhy(a, c);
    if (a.previous) {
        const TimelineRun& before = timeline.runs[*a.previous];
        why += a.previousFailed
                   ? "; failing since this PR's head " + before.sha.shortSha() + " or earlier"
                   : "; passed on this PR's previous head " + before.sha.shortSha()
                         + ": brought by the push of " + c.here.sha.shortSha();
    }
    return why + ": this PR's regression";
}

std::string breakageWhy(const Attribution& a, const WhyContext& c)
{
    const JobTimeline& timeline = c.timeline;
    const TimelineRun& onset = timeline.runs[*a.onset];
    std::string why = std::to_string(a.brokenRuns) + " runs of " + std::to_string(a.brokenSources)
                      + " PRs and nightlies fail it since " + when(onset.time);
    if (a.firstSeen) {
        const EvidenceRun first = timelineRun(timeline, timeline.runs[*a.firstSeen]);
        why += "; first seen on " + runName(first) + " at " + when(first.dispatchedAt);
    }
    return why;
}

std::string nightlyWhy(const Attribution& a, const WhyContext& c, const Evidence& previous)
{
    const EventType type = c.here.eventType;
    const std::string series = seriesName(type);
    if (!a.previous)
        return "a " + series + "'s new failure; no earlier " + series + " of this job to compare";
    const TimelineRun& before = c.timeline.runs[*a.previous];
    if (a.previousFailed)
        return "failed on the previous " + series + " " + before.sha.shortSha()
               + " too: pre-existing";
    std::string why = "a " + series + "'s new failure; passed on the previous " + series + " "
                      + before.sha.shortSha();
    if (type == EventType::Nightly)
        why += previous.compareUrl.empty() ? " (not an upstream commit: range unknown)"
                                           : ": regression in main " + previous.compareUrl;
    else if (!previous.compareUrl.empty())
        why += ": regression in " + before.sha.shortSha() + "..." + c.here.sha.shortSha();
    return why;
}

std::string unclearWhy(const Attribution& a, const WhyContext& c)
{
    if (a.withoutPr)
        return "unclear — " + withoutPrWhy(c) + "; "
               + (a.ownFailed > 0
                      ? std::to_string(a.ownFailed) + " of its " + std::to_string(a.ownJudged)
                            + " other attempts and next build fail it too"
                      : (a.othersPassed == 0 ? std::string("no")
                                             : "only " + std::to_string(a.othersPassed))
                            + " other runs of this job within " + hours(c.options.windowSeconds)
                            + " pass it")
               + ": main's next builds would tell";
    return "unclear — not enough runs: only this PR fails it, on this run alone (no rerun or "
           "other head of it failed it too), and "
           + (a.othersPassed == 0 ? std::string("no") : "only " + std::to_string(a.othersPassed))
           + " other PRs' runs of this job within " + hours(c.options.windowSeconds)
           + " pass it; a rerun or the PR's next head would tell";
}

} // namespace relayhud::triage
