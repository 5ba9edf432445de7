// Failures by class per day (verdict/trends.h): the suggestion engine names
// every failure and its class; a person's tag on the same target wins.
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/triage/suggest.h"
#include "relayhud/verdict/trends.h"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>

namespace relayhud::verdict {
namespace {

using triage::FailureClass;

// The rows of `runs` that triage looks at (failed, or holding a failing
// test), found with one query over the window's commits.
Result<std::vector<CheckRunRow>> failedRows(const Database& cache,
                                            const std::vector<TrendRun>& runs)
{
    std::set<CheckRunRow> wanted;
    EpochSeconds oldest = runs.front().commitTime;
    for (const TrendRun& r : runs) {
        wanted.insert(r.checkRunRow);
        oldest = std::min(oldest, r.commitTime);
    }
    TriageRunQuery query;
    query.since = oldest;
    auto rows = EvidenceStore(cache).triageRunRows(query);
    if (!rows)
        return rows.error();
    std::vector<CheckRunRow> out;
    std::copy_if(rows->begin(), rows->end(), std::back_inserter(out),
                 [&](CheckRunRow row) { return wanted.count(row) != 0; });
    return out;
}

Result<std::map<TriageTarget, FailureClass>> humanClasses(const Database& cache,
                                                          const std::vector<TrendRun>& runs)
{
    std::set<Sha> shas;
    for (const TrendRun& r : runs)
        shas.insert(r.sha);
    auto tags = TriageStore(cache).triageTags({shas.begin(), shas.end()});
    if (!tags)
        return tags.error();
    std::map<TriageTarget, FailureClass> out;
    for (const TriageTag& tag : *tags)
        if (isTriagedClass(tag.cls)) // a cleared tag falls back to the suggestion
            out.emplace(tag.target, tag.cls);
    return out;
}

std::vector<EpochSeconds> dayRange(EpochSeconds first, EpochSeconds last)
{
    std::vector<EpochSeconds> days;
    for (EpochSeconds d = dayStart(first); d <= dayStart(last); d += kSecondsPerDay)
        days.push_back(d);
    return days;
}

// Turns (class, day) counts into the dense table the stacked bars want.
FailureClassDays tabulate(const std::map<std::pair<FailureClass, EpochSeconds>, int>& counts,
                          std::vector<EpochSeconds> days)
{
    FailureClassDays out;
    out.days = std::move(days);
    std::set<FailureClass> classes;
    for (const auto& entry : counts)
        classes.insert(entry.first.first);
    out.classes.assign(classes.begin(), classes.end());
    out.counts.assign(out.classes.size(), std::vector<int>(out.days.size(), 0));
    for (const auto& [key, n] : counts) {
        const auto c = static_cast<std::size_t>(
            std::find(out.classes.begin(), out.classes.end(), key.first) - out.classes.begin());
        const auto d = std::lower_bound(out.days.begin(), out.days.end(), key.second);
        if (d != out.days.end() && *d == key.second)
            out.counts[c][static_cast<std::size_t>(d - out.days.begin())] += n;
    }
    return out;
}

} // namespace

Result<FailureClassDays> failuresByClass(const Database& cache, const std::vector<TrendRun>& runs,
                                         EpochSeconds since, EpochSeconds until)
{
    if (until != 0 && until <= since)
        return makeError("the failure chart's window ends before it starts");
    if (runs.empty())
        return FailureClassDays{dayRange(since, until == 0 ? since : until - 1), {}, {}, 0, 0};
    auto rows = failedRows(cache, runs);
    if (!rows)
        return rows.error();
    triage::SuggestOptions options;
    options.includeExpected = false; // an xfail is the config working, not a failure
    auto suggestions = triage::suggestForRuns(cache, *rows, options);
    if (!suggestions)
        return suggestions.error();
    auto human = humanClasses(cache, runs);
    if (!human)
        return human.error();

    std::unordered_map<CheckRunRow, const TrendRun*, IdHash> runOf;
    for (const TrendRun& r : runs)
        runOf.emplace(r.checkRunRow, &r);
    std::map<std::pair<FailureClass, EpochSeconds>, int> counts;
    int tagged = 0;
    int suggested = 0;
    EpochSeconds first = runTime(runs.front());
    EpochSeconds last = first;
    for (const triage::Suggestion& s : *suggestions) {
        const TrendRun& run = *runOf.at(s.target.checkRunRow);
        const TriageTarget target{run.repo, run.workflow, run.job,
                                  run.sha,  run.attempt,  s.target.identity};
        FailureClass cls = s.cls;
        if (auto it = human->find(target); it != human->end()) {
            cls = it->second;
            ++tagged;
        } else
            ++suggested;
        const EpochSeconds t = runTime(run);
        first = std::min(first, t);
        last = std::max(last, t);
        ++counts[{cls, dayStart(t)}];
    }
    // Quiet days inside the window are listed too, so the bars keep a time scale.
    const EpochSeconds from = since != 0 ? since : first;
    const EpochSeconds to = until != 0 ? std::max(until - 1, last) : last;
    FailureClassDays out = tabulate(counts, dayRange(std::min(from, first), to));
    out.tagged = tagged;
    out.suggested = suggested;
    return out;
}

} // namespace relayhud::verdict
