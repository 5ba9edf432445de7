#pragma once
// Why a failing test got its class: the sentences of Suggestion::why that
// attribution over its job's timeline (triage/attribution.h) gives, one per
// call, and the pieces of a run's story the suggester (suggest.cpp) shares
// with them. Private to triage.
#include "relayhud/triage/attribution.h"
#include "relayhud/triage/suggest.h"

#include <string>

namespace relayhud::triage {

// What a sentence is about: the job's timeline, the run in it with the
// failing test, that run as evidence, and the windows attribution used.
struct WhyContext {
    const JobTimeline& timeline;
    TimelineIndex index;
    const EvidenceRun& here;
    const AttributionOptions& options;
};

// AttributionCall::Flaky: which runs disagree, or how often it fails.
std::string flakyWhy(const Attribution& a, const WhyContext& c);
// ThisPr and Culprit: what the other PRs' runs and this PR's own say.
std::string regressionWhy(const Attribution& a, const WhyContext& c);
// BrokenTrunk and Backend: since when, on how many sources (the caller
// says by whom).
std::string breakageWhy(const Attribution& a, const WhyContext& c);
// NightlyOld and NightlyNew: against the series' previous run.
std::string nightlyWhy(const Attribution& a, const WhyContext& c, const Evidence& previous);
// Unclear: too few runs to call it, and what would tell.
std::string unclearWhy(const Attribution& a, const WhyContext& c);

// A timeline run as evidence names it.
EvidenceRun timelineRun(const JobTimeline& timeline, const TimelineRun& r);
// "24 h".
std::string hours(EpochSeconds seconds);

} // namespace relayhud::triage
