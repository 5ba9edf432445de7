// What part of a failure's evidence is in (triage/evidence_coverage.h).
#include "relayhud/triage/evidence_coverage.h"

#include <cstdlib>

namespace relayhud::triage {

EvidenceCoverage attributionCoverage(const JobTimeline& timeline, TimelineIndex here,
                                     const AttributionOptions& options)
{
    EvidenceCoverage out;
    if (here >= timeline.runs.size())
        return out;
    const TimelineRun& run = timeline.runs[here];
    for (const TimelineRun& other : timeline.runs) {
        const bool near = std::llabs(other.time - run.time) <= options.flakySeconds;
        const bool ownHead = run.prNumber.value > 0 && other.prNumber == run.prNumber
                             && other.eventType == run.eventType && other.time <= run.time;
        if (!near && !ownHead)
            continue;
        if (other.hasResults) {
            ++out.fetched;
            ++out.needed;
        } else if (other.awaitingResults) {
            ++out.needed;
        }
    }
    return out;
}

std::string coverageText(const EvidenceCoverage& coverage)
{
    return std::to_string(coverage.fetched) + " of " + std::to_string(coverage.needed)
           + (coverage.needed == 1 ? " run's" : " runs'") + " results fetched";
}

} // namespace relayhud::triage
