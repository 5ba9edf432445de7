#pragma once
// How much of the evidence a failure's class rests on is in (issue 36): the
// runs of its job that attribution (triage/attribution.h) compares it with,
// and how many of them have their results fetched. While some still await
// theirs, the class is provisional: it may change as they arrive, so its
// confidence is not shown ("12 of 40 runs' results fetched").
#include "relayhud/store/job_timeline.h"
#include "relayhud/triage/attribution.h"

#include <string>

namespace relayhud::triage {

struct EvidenceCoverage {
    int fetched = 0; // runs with stored results
    int needed = 0;  // those, and the runs still awaiting theirs

    bool complete() const { return fetched >= needed; }
};

// Over the runs of `timeline` an attribution of run `here` reads: every run
// dispatched within options.flakySeconds of it (the widest window it looks
// in; other attempts of its SHA included), and this PR's earlier heads. A
// run that will never have results (no artifacts, none in them, expired),
// or needs none (a green without results: it failed nothing), counts in
// neither.
EvidenceCoverage attributionCoverage(const JobTimeline& timeline, TimelineIndex here,
                                     const AttributionOptions& options);

// "12 of 40 runs' results fetched".
std::string coverageText(const EvidenceCoverage& coverage);

} // namespace relayhud::triage
