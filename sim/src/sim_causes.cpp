#include "sim_causes.h"

#include "sim_outcome_survey.h"
#include "sim_random.h"

#include <algorithm>

namespace relayhud::sim {

std::string_view simCauseName(SimCause cause)
{
    switch (cause) {
    case SimCause::ThisPr: return "this_pr";
    case SimCause::BrokenTrunk: return "broken_trunk";
    case SimCause::Backend: return "backend";
    case SimCause::Flaky: return "flaky";
    case SimCause::Infra: return "infra";
    case SimCause::UnexpectedPass: return "unexpected_pass";
    }
    return "infra";
}

void addFailure(std::vector<CausedTest>& out, CausedTest t)
{
    const bool known =
        std::any_of(out.begin(), out.end(), [&](const CausedTest& c) { return c.test == t.test; });
    if (!known)
        out.push_back(std::move(t));
}

bool CausePlan::isCulpritJob(std::size_t b, std::size_t w, std::size_t j) const
{
    return std::any_of(culpritJobs.begin(), culpritJobs.end(),
                       [&](const JobRef& r) { return r.is(b, w, j); });
}

namespace {

bool inWindow(const WindowPlan& w, const RunEvent& e)
{
    if (e.dispatch < w.from || e.dispatch >= w.until)
        return false;
    if (!w.mainOnly)
        return true; // the backend broke: every run of the job
    if (!e.testsOwnHead)
        return true; // it tested main itself
    return e.mainBased && (e.type == EventType::Nightly || e.pr != w.exempt);
}

} // namespace

void CausePlan::standing(const RunEvent& event, const JobRef& job,
                         std::vector<CausedTest>& out) const
{
    if (event.type == EventType::PullRequest && event.testsOwnHead) {
        for (const PrBreakPlan& b : prBreaks)
            if (b.job == job && b.commits.count(event.commit) != 0)
                for (const std::string& test : b.tests)
                    addFailure(out, {test, SimCause::ThisPr, b.pr, false});
        if (newTest.job == job && newTest.commits.count(event.commit) != 0)
            addFailure(out, {newTest.test, SimCause::ThisPr, newTest.pr, false});
    }
    for (const WindowPlan& w : windows)
        if (w.job == job && inWindow(w, event))
            addFailure(out, {w.test, w.cause, w.culpritPr, false});
    for (const XpassPlan& x : xpasses)
        if (x.job == job && event.dispatch >= x.from && event.dispatch < x.until)
            addFailure(out, {x.test, SimCause::UnexpectedPass, 0, true});
}

void CausePlan::drawn(const JobRef& job, EpochSeconds attemptStart, SplitMix64& rng,
                      std::vector<CausedTest>& out) const
{
    for (const FlakyTestPlan& f : flaky)
        if (f.job == job && rng.chance(f.probability))
            addFailure(out, {f.test, SimCause::Flaky, 0, false});
    if (busy.backend != job.backend || attemptStart < busy.from || attemptStart >= busy.until)
        return;
    const auto pool = busy.pools.find({job.workflow, job.job});
    if (pool == busy.pools.end() || pool->second.empty())
        return;
    const auto count =
        rng.range(1, std::min<std::int64_t>(4, static_cast<std::int64_t>(pool->second.size())));
    for (std::int64_t i = 0; i < count; ++i)
        addFailure(out, {rng.pick(pool->second), SimCause::Infra, 0, false});
}

std::optional<std::uint64_t> newTestCase(const TestUniverse& u, const JobSpec& job,
                                         std::size_t commitCount)
{
    if (commitCount == 0)
        return std::nullopt;
    const auto last = static_cast<std::uint64_t>(jobTotalOn(job, u, commitCount - 1));
    const std::uint64_t end = std::min<std::uint64_t>(u.size(), last + 2000);
    for (std::uint64_t p = last + 7; p < end; ++p) {
        const std::uint64_t index = u.indexAt(job.shard, job.numShards, p);
        const auto shards = static_cast<std::uint64_t>(std::max(1, job.numShards));
        if (index % shards != static_cast<std::uint64_t>(std::max(1, job.shard) - 1) % shards)
            return std::nullopt; // past the shard's own cases: other shards may run it
        const FailureKind kind = u.failureKind(index);
        if (u.outcome(index) == StableOutcome::Pass
            && (kind == FailureKind::Assertion || kind == FailureKind::BackendError))
            return index;
    }
    return std::nullopt;
}

} // namespace relayhud::sim
