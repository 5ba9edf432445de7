// The small pure parts of model/test_results.h: names, totals and the
// summary of a test's history that the history strip marks.
#include "relayhud/model/test_results.h"

#include <numeric>

namespace relayhud {

const char* testRunStateName(TestRunState state)
{
    switch (state) {
    case TestRunState::Stored: return "stored";
    case TestRunState::NoReports: return "no reports";
    case TestRunState::Expired: return "expired";
    case TestRunState::Unauthorized: return "unauthorized";
    case TestRunState::Failed: return "failed";
    }
    return "unknown";
}

const std::string* partialWarning(const TestRunInfo& run)
{
    for (const std::string& w : run.warnings)
        if (w.starts_with(kPartialWarning))
            return &w;
    return nullptr;
}

std::int64_t TestRunTotals::cases() const
{
    return std::accumulate(outcomes.begin(), outcomes.end(), std::int64_t{0});
}

bool isFailingOutcome(TestOutcome outcome)
{
    return outcome == TestOutcome::Failed || outcome == TestOutcome::Error
           || outcome == TestOutcome::XPassStrict;
}

namespace {

// The points that have an outcome: a run that lacks the test (not collected,
// renamed, a partial report) says nothing about it, so it neither breaks a
// streak nor counts as a flip.
std::vector<const TestHistoryPoint*> withOutcomes(const TestHistory& history)
{
    std::vector<const TestHistoryPoint*> out;
    for (const TestHistoryPoint& p : history.points)
        if (p.outcome)
            out.push_back(&p);
    return out;
}

bool fails(const TestHistoryPoint* p) { return isFailingOutcome(*p->outcome); }

} // namespace

TestHistorySummary summarizeHistory(const TestHistory& history)
{
    TestHistorySummary summary;
    const auto points = withOutcomes(history);
    summary.runs = static_cast<int>(points.size());
    int flips = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        summary.failures += fails(points[i]) ? 1 : 0;
        if (i > 0 && fails(points[i]) != fails(points[i - 1]))
            ++flips;
    }
    if (points.size() > 1)
        summary.flipRate = static_cast<double>(flips) / static_cast<double>(points.size() - 1);
    // The latest point is the run asked about; when it lacks the test, the
    // test is not failing there, whatever came before.
    if (history.points.empty() || !history.points.back().outcome || !fails(points.back()))
        return summary;
    std::size_t first = points.size() - 1;
    while (first > 0 && fails(points[first - 1]))
        --first;
    summary.firstFailingSha = points[first]->sha;
    if (points.size() > 1) {
        summary.newFailure = !fails(points[points.size() - 2]);
        summary.failedBefore = !summary.newFailure;
    }
    return summary;
}

} // namespace relayhud
