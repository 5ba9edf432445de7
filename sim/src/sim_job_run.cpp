#include "sim_job_run.h"

#include <algorithm>
#include <tuple>

namespace relayhud::sim {
namespace {

CaseResult stableResult(StableOutcome outcome)
{
    switch (outcome) {
    case StableOutcome::Pass: return CaseResult::Passed;
    case StableOutcome::Skip: return CaseResult::Skipped;
    case StableOutcome::XFail: return CaseResult::XFailed;
    case StableOutcome::XPass: return CaseResult::XPassed;
    }
    return CaseResult::Passed;
}

CaseResult failingResult(FailureKind kind)
{
    switch (kind) {
    case FailureKind::SetupError: return CaseResult::Error;
    case FailureKind::XPassStrict: return CaseResult::XPassStrict;
    case FailureKind::Assertion:
    case FailureKind::BackendError: break;
    }
    return CaseResult::Failed;
}

// Most tests take milliseconds; a few take seconds; skips are instant.
std::uint32_t durationMicros(const TestUniverse& u, const JobCase& c)
{
    const std::uint64_t h = u.hash(c.ref.index, 3);
    switch (c.result) {
    case CaseResult::Skipped: return static_cast<std::uint32_t>(200 + h % 700);
    case CaseResult::Error: return static_cast<std::uint32_t>(1000 + h % 9000);
    case CaseResult::XFailed: return static_cast<std::uint32_t>(20'000 + h % 280'000);
    case CaseResult::Failed: return static_cast<std::uint32_t>(50'000 + h % 2'950'000);
    default: break;
    }
    if (h % 50 == 0)
        return static_cast<std::uint32_t>(1'000'000 + (h >> 8) % 19'000'000);
    return static_cast<std::uint32_t>(5'000 + (h >> 8) % 395'000);
}

bool contains(const std::vector<std::string>& ids, const std::string& id)
{
    return std::find(ids.begin(), ids.end(), id) != ids.end();
}

} // namespace

bool isFailing(CaseResult result)
{
    return result == CaseResult::Failed || result == CaseResult::Error
           || result == CaseResult::XPassStrict;
}

void JobTotals::add(const JobCase& c)
{
    ++tests;
    micros += c.micros;
    switch (c.result) {
    case CaseResult::Passed: ++passed; break;
    case CaseResult::XPassed: ++xpassed; break;
    case CaseResult::Skipped: ++skipped; break;
    case CaseResult::XFailed: ++xfailed; break;
    case CaseResult::Failed: ++failed; break;
    case CaseResult::Error: ++errors; break;
    case CaseResult::XPassStrict: ++xpassStrict; break;
    }
}

JobTotals totalsOf(const std::vector<JobCase>& cases, std::size_t begin, std::size_t end)
{
    JobTotals out;
    for (std::size_t i = begin; i < end && i < cases.size(); ++i)
        out.add(cases[i]);
    return out;
}

JobRun runJob(const TestUniverse& universe, const JobSpec& job, std::int64_t total,
              const std::vector<std::string>& failing)
{
    JobRun run;
    run.universe = &universe;
    const auto count = static_cast<std::uint64_t>(std::max<std::int64_t>(0, total));
    const std::vector<CaseRef> refs = universe.shardCases(job.shard, job.numShards, count);
    run.cases.reserve(refs.size());
    std::string id;
    for (const CaseRef& ref : refs) {
        JobCase c{ref, stableResult(universe.outcome(ref.index)), FailureKind::Assertion, 0};
        if (!failing.empty()) {
            id.clear(); // reused: no allocation per case
            universe.appendNodeId(id, ref);
            if (contains(failing, id)) {
                c.kind = universe.failureKind(ref.index);
                c.result = failingResult(c.kind);
            }
        }
        c.micros = durationMicros(universe, c);
        run.totals.add(c);
        run.cases.push_back(c);
    }
    return run;
}

void addCase(JobRun& run, const CaseRef& ref, const std::vector<std::string>& failing)
{
    const TestUniverse& universe = *run.universe;
    JobCase c{ref, stableResult(universe.outcome(ref.index)), FailureKind::Assertion, 0};
    if (contains(failing, universe.nodeId(ref))) {
        c.kind = universe.failureKind(ref.index);
        c.result = failingResult(c.kind);
    }
    c.micros = durationMicros(universe, c);
    const auto at = std::upper_bound(
        run.cases.begin(), run.cases.end(), c, [](const JobCase& a, const JobCase& b) {
            return std::tie(a.ref.generator, a.ref.first, a.ref.second)
                   < std::tie(b.ref.generator, b.ref.first, b.ref.second);
        });
    run.cases.insert(at, c);
    run.totals.add(c);
}

void dropFile(JobRun& run, std::string_view file)
{
    std::erase_if(run.cases, [&](const JobCase& c) { return c.ref.family->file == file; });
    run.totals = totalsOf(run.cases, 0, run.cases.size());
}

} // namespace relayhud::sim
