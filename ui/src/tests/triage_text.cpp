#include "relayhud/ui/tests/triage_text.h"

#include "relayhud/ui/common/format.h"
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

// "#158123 3fa9c21" or "nightly 3fa9c21".
QString sourceText(const triage::EvidenceRun& run)
{
    return run.prNumber.value > 0 ? tr("#%1 %2").arg(run.prNumber.value).arg(shortSha(run.sha))
                                  : tr("nightly %1").arg(shortSha(run.sha));
}

QString sourcesText(const std::vector<triage::EvidenceRun>& runs, int count)
{
    QStringList names;
    for (const triage::EvidenceRun& run : runs)
        names << sourceText(run);
    if (count > static_cast<int>(runs.size()))
        names << tr("%1 more").arg(count - static_cast<int>(runs.size()));
    return names.join(QStringLiteral(", "));
}

} // namespace

QString shortSha(const Sha& sha) { return toQString(sha.value.substr(0, 7)); }

QString evidenceLine(const triage::Evidence& e)
{
    using triage::EvidenceKind;
    switch (e.kind) {
    case EvidenceKind::Outcome: return tr("Outcome here: %1").arg(outcomeText(e.outcome));
    case EvidenceKind::Rerun: {
        QString text = e.run ? tr("Rerun %1: %2").arg(runText(*e.run), outcomeText(e.outcome))
                             : tr("Rerun: %1").arg(outcomeText(e.outcome));
        if (!e.message.empty()) // a green attempt judged by its own counts
            text += tr(" (%1)").arg(toQString(e.message));
        return text;
    }
    case EvidenceKind::Concurrent: {
        const int hours = static_cast<int>(e.windowSeconds / 3600);
        QString text = tr("Other PRs within %1 h: fails on %2 of %3 runs")
                           .arg(hours)
                           .arg(e.failedCount)
                           .arg(e.failedCount + e.passedCount);
        if (!e.others.empty())
            text += tr("; failed on %1").arg(sourcesText(e.others, e.failedCount));
        if (!e.passed.empty())
            text += tr("; passed on %1").arg(sourcesText(e.passed, e.passedCount));
        return text;
    }
    case EvidenceKind::Baseline: {
        const bool nightly = e.run && e.run->prNumber.value == 0;
        QString text =
            e.run ? (nightly ? tr("Previous nightly %1: %2") : tr("This PR's previous head %1: %2"))
                        .arg(runText(*e.run), outcomeText(e.outcome))
                  : tr("Previous run: %1").arg(outcomeText(e.outcome));
        if (!e.compareUrl.empty())
            text += u" — " % toQString(e.compareUrl);
        return text;
    }
    case EvidenceKind::NoBaseline:
        return tr("No earlier head of this PR (or nightly) with results for this job");
    case EvidenceKind::Breakage: {
        QString text = e.run ? tr("Breakage since %1: %2 runs of %3 PRs and nightlies fail it")
                                   .arg(formatShortTime(e.run->dispatchedAt))
                                   .arg(e.brokenRuns)
                                   .arg(e.brokenSources)
                             : tr("Breakage");
        if (e.firstSeen)
            text += tr("; first seen on %1 at %2")
                        .arg(sourceText(*e.firstSeen), formatShortTime(e.firstSeen->dispatchedAt));
        if (e.culpritPr.value > 0)
            text += tr("; likely broken by #%1").arg(e.culpritPr.value);
        if (!e.pullUrl.empty())
            text += u" — " % toQString(e.pullUrl);
        return text;
    }
    case EvidenceKind::TestLine:
        return tr("Test error matches rule \u201c%1\u201d (%2): %3")
            .arg(toQString(e.rule), classLabel(e.ruleClass), toQString(e.text).left(300));
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
    triage.confidence = suggestion.confidence;
    triage.why = toQString(suggestion.why);
    triage.evidence = evidenceLines(suggestion.evidence);
    triage.group = toQString(suggestion.group);
    if (suggestion.provisional())
        triage.provisional = toQString(triage::coverageText(suggestion.coverage));
    return triage;
}

} // namespace relayhud::ui
