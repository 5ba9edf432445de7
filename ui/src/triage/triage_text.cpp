#include "relayhud/ui/triage/triage_text.h"

#include "relayhud/ui/format.h"
#include "relayhud/ui/tests/outcome_style.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QCoreApplication>

namespace relayhud::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TriageEvidence", text); }

QString runText(const triage::EvidenceRun& run)
{
    return tr("%1 (attempt %2)").arg(shortSha(run.sha)).arg(run.runAttempt);
}

QString outcomeText(const std::optional<TestOutcome>& outcome)
{
    return outcome ? outcomeLabel(*outcome) : tr("not in its results");
}

} // namespace

QString shortSha(const Sha& sha) { return toQString(sha.value.substr(0, 7)); }

QString evidenceLine(const triage::Evidence& e)
{
    using triage::EvidenceKind;
    switch (e.kind) {
    case EvidenceKind::Outcome: return tr("Outcome here: %1").arg(outcomeText(e.outcome));
    case EvidenceKind::Rerun:
        return e.run ? tr("Rerun %1: %2").arg(runText(*e.run), outcomeText(e.outcome))
                     : tr("Rerun: %1").arg(outcomeText(e.outcome));
    case EvidenceKind::History:
        return tr("History: flips %1% of the time over %2 runs (last %3 SHAs)")
            .arg(qRound(e.flipRate * 100))
            .arg(e.historyRuns)
            .arg(e.historyWindow);
    case EvidenceKind::Baseline: {
        QString text = e.run ? tr("Baseline %1: %2").arg(runText(*e.run), outcomeText(e.outcome))
                             : tr("Baseline: %1").arg(outcomeText(e.outcome));
        if (!e.compareUrl.empty())
            text += u" — " % toQString(e.compareUrl);
        return text;
    }
    case EvidenceKind::NoBaseline:
        return tr("No baseline: this job has no results on an earlier upstream SHA");
    case EvidenceKind::FailureLine: {
        QString text = tr("Log line %1, rule \u201c%2\u201d").arg(e.line).arg(toQString(e.rule));
        if (e.ruleClass != triage::FailureClass::Unset)
            text += u" (" % classLabel(e.ruleClass) % u')';
        if (!e.text.empty())
            text += u": " % toQString(e.text).left(300);
        return text;
    }
    case EvidenceKind::NoLine:
        return e.message.empty() ? tr("No rule matched the job's log")
                                 : tr("No failure line: %1").arg(toQString(e.message));
    case EvidenceKind::Outage: {
        QStringList others;
        for (const triage::EvidenceRun& run : e.others)
            others << toQString(run.downstreamRepo) % u" " % runText(run);
        return tr("Same outage as %1").arg(others.join(QStringLiteral(", ")));
    }
    }
    return {};
}

QStringList evidenceLines(const std::vector<triage::Evidence>& evidence)
{
    QStringList lines;
    for (const triage::Evidence& e : evidence)
        lines << evidenceLine(e);
    return lines;
}

TestTriage toTestTriage(const triage::Suggestion& suggestion)
{
    TestTriage triage;
    triage.suggested = suggestion.cls;
    triage.why = toQString(suggestion.why);
    triage.evidence = evidenceLines(suggestion.evidence);
    triage.group = toQString(suggestion.group);
    return triage;
}

} // namespace relayhud::ui
