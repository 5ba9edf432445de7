#pragma once
// What the tests panel shows for one run, loaded off the GUI thread (the
// panel never reads the cache itself) and handed over whole.
#include "relayhud/model/count_kind.h"
#include "relayhud/model/test_results.h"
#include "relayhud/model/triage_tags.h"
#include "relayhud/model/types.h"
#include "relayhud/util/ticket.h"

#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace relayhud::ui {

// A failure's triage as the panel shows it: the tool's suggestion with its
// evidence, and a person's tag, which wins wherever both exist.
struct TestTriage {
    triage::FailureClass suggested = triage::FailureClass::Untriaged;
    double confidence = 0.0; // of the suggestion, 0..1
    QString why;             // one sentence
    QStringList evidence;    // what was compared: runs, the failure line, the rule
    QString group;           // the outage it belongs to; "" for none
    // While the runs the suggestion rests on still await their results:
    // "12 of 40 runs' results fetched" (its confidence is not shown then).
    QString provisional;
    std::optional<TriageTag> tag;

    bool hasHuman() const { return tag && isTriagedClass(tag->cls); }
    bool isProvisional() const { return !provisional.isEmpty(); }
    triage::FailureClass effective() const { return hasHuman() ? tag->cls : suggested; }
};

struct TestsPanelData {
    Ticket ticket;   // a load older than the panel's latest setLoading() is dropped
    TestRunInfo run; // state, totals, warnings, message
    std::optional<TestCounts> selfReported; // the HUD row's counts: the backend's own claim
    CountKind selfReportedKind = CountKind::Unknown; // what they count (model/count_kind.h)
    std::vector<StoredTestResult> results;           // up to 100,000+
    std::vector<TestHistory> histories;              // for some tests (the failing ones), by testId
    QString jobTitle;                                // "torch-spyre / CI / test (default, 1, 3)"
    CheckRunId checkRunId; // the relay's id of the run, for links; empty for an import
    // Where a tag on this run points (repo, workflow, job, SHA, attempt);
    // none for an import, which cannot be triaged.
    std::optional<TriageTarget> triageBase;
    // By test id; 0 is the job itself (a failure without failing tests).
    std::unordered_map<TestId, TestTriage, IdHash> triage;
};

} // namespace relayhud::ui
