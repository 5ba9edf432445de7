#pragma once
// The second stage of a sync's notification. A followed item's new failure is
// notified as soon as the HUD reports it; once the artifact pass has fetched
// its test results, the evidence (triage/suggest.h) may attribute it to a PR:
// the PR's own regression (it fails on the PR's heads and not on the other
// PRs' runs of the job), or a breakage a culprit PR brought upstream (already
// broken, likely by #N). Those raise one more notification, which names the
// PR and the test.
#include "relayhud/triage/suggest.h"
#include "relayhud/ui/watch/watch_list.h"

#include <QHash>
#include <QString>

#include <vector>

namespace relayhud::ui {

struct AttributedFailure {
    WatchEvent event;   // the followed item's new failure
    QString test;       // the test's identity; "" for the job itself
    PrNumber culpritPr; // the PR the evidence blames (the event's own for a regression)
    bool ownRegression = false;
    bool operator==(const AttributedFailure&) const = default;
};

// The suggestions of the awaited runs, kept where they attribute a failure to
// a PR: class Regression on a PR's run, or PreExisting with a culprit PR.
// A nightly's regression (no PR to name) and every other class are left out;
// one entry per run and culprit, tests in the suggestions' order.
std::vector<AttributedFailure>
attributedFailures(const std::vector<triage::Suggestion>& suggestions,
                   const QHash<qint64, WatchEvent>& awaited);

// One notification for them; empty (items 0) when there are none.
Notice noticeForAttributions(const std::vector<AttributedFailure>& failures);

} // namespace relayhud::ui
