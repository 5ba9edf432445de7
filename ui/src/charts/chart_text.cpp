#include "chart_text.h"

#include "relayhud/ui/common/format.h"

#include <QCoreApplication>
#include <QDateTime>

#include <cmath>

namespace relayhud::ui::chartText {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("Charts", text); }
QString trCount(const char* text, int n)
{
    return QCoreApplication::translate("Charts", text, nullptr, n);
}

QString percent(double share) { return QString::number(std::lround(share * 100.0)) + u'%'; }

QString shortSha(const Sha& sha) { return toQString(sha.shortSha()); }

} // namespace

QString utcTime(EpochSeconds t)
{
    return QDateTime::fromSecsSinceEpoch(t, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd hh:mm"))
           + QStringLiteral(" UTC");
}

QString loadFailed(const std::string& error)
{
    return tr("The charts could not read the cache:\n%1").arg(toQString(error));
}
QString noRuns()
{
    return tr("No data: no finished runs in this window.\nSync, or widen the range.");
}
QString noFailures() { return tr("No data: no failures in this window."); }
QString noTimings()
{
    return tr("No data: no relay-measured queue or execution times in this window.");
}
QString noCounts()
{
    return tr("No data: no test counts for this job in this window.\n"
              "Counts come from fetched artifacts or the run's own report.");
}
QString noDurations() { return tr("No data: no finished runs with a duration in this window."); }

// RelayHUD's definition (the newest attempt per job, skipped and neutral left
// out) is not the HUD's (every attempt, cancelled in the denominator; its
// crcr_summary/query.sql:31-32): the title says which it is (R12).
QString passRateByCommitTitle()
{
    return tr("Pass rate per upstream commit (newest attempt per job; the HUD counts every "
              "attempt)");
}
QString passRateByDayTitle()
{
    return tr("Pass rate per day (newest attempt per job; the HUD counts every attempt)");
}
QString passRateAxis() { return tr("Runs passed"); }
QString seriesLeftOut(int shown, int total)
{
    return tr("Showing the %1 busiest of %2; pick a backend or job to see the others.")
        .arg(shown)
        .arg(total);
}

QString passRateTip(const QString& series, const verdict::PassRatePoint& p)
{
    const QString where =
        p.sha.empty()
            ? QDateTime::fromSecsSinceEpoch(p.time, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd"))
            : shortSha(p.sha) + QStringLiteral(" · ") + utcTime(p.time);
    return series + u'\n' + where + u'\n'
           + tr("%1 passed (%2 of %3 runs)")
                 .arg(percent(p.rate()))
                 .arg(p.succeeded)
                 .arg(p.completed);
}

QString failuresTitle() { return tr("Failures by class per day"); }
QString failuresAxis() { return tr("Failures"); }

QString dayLabel(EpochSeconds day)
{
    return QDateTime::fromSecsSinceEpoch(day, Qt::UTC).toString(QStringLiteral("MMM d"));
}

QString failuresTip(EpochSeconds day, const QString& cls, int count)
{
    return QDateTime::fromSecsSinceEpoch(day, Qt::UTC).toString(QStringLiteral("yyyy-MM-dd"))
           + u'\n' + trCount("%1: %n failure(s)", count).arg(cls);
}

QString failuresNote(int tagged, int suggested)
{
    return tr("%1 classed by a person, %2 by the suggestion engine.").arg(tagged).arg(suggested);
}

QString timingsTitle() { return tr("Queue and execution time (relay-measured)"); }
QString queueName() { return tr("Queue time"); }
QString executionName() { return tr("Execution time"); }
QString queueAxis() { return tr("Queue (minutes)"); }
QString executionAxis() { return tr("Execution (minutes)"); }

QString timingTip(const verdict::TimingPoint& p, bool queue)
{
    const QString value = queue ? tr("queued %1").arg(formatDuration(p.queueSeconds))
                                : tr("ran %1").arg(formatDuration(p.executionSeconds));
    return toQString(p.job.label(true)) + u'\n' + shortSha(p.sha) + QStringLiteral(" · ")
           + utcTime(p.time) + u'\n' + value;
}

QString executedTitle(const QString& job)
{
    return job.isEmpty() ? tr("Tests executed per run") : tr("Tests executed per run: %1").arg(job);
}
QString executedName() { return tr("Tests executed"); }
QString shrankName() { return tr("Suite shrank (> 10%)"); }
QString selfReportedName() { return tr("Self-reported count (no artifacts)"); }
QString executedAxis() { return tr("Tests executed"); }

QString executedTip(const QString& job, const verdict::ExecutedPoint& p, std::int64_t before)
{
    QString text = job + u'\n' + shortSha(p.sha) + QStringLiteral(" · ") + utcTime(p.commitTime)
                   + u'\n' + tr("%1 tests executed").arg(p.executed)
                   + (p.source == verdict::CountSource::Artifacts ? tr(" (artifacts)")
                                                                  : tr(" (self-reported)"));
    if (before >= 0 && before != p.executed)
        text += u'\n' + tr("%1 the run before").arg(before);
    return text;
}

QString durationsTitle() { return tr("Duration per job: median and p90"); }
QString medianName() { return tr("Median"); }
QString p90Name() { return tr("p90"); }
QString minutesAxis() { return tr("Minutes"); }
QString jobsLeftOut(int shown, int total)
{
    return tr("The %1 slowest of %2 jobs (by p90); pick a backend to see its jobs.")
        .arg(shown)
        .arg(total);
}

QString elideJob(const QString& label)
{
    constexpr qsizetype kMax = 48;
    return label.size() <= kMax ? label : label.left(kMax - 1) + QChar(0x2026);
}

QString durationTip(const QString& job, const verdict::JobDuration& d)
{
    return job + u'\n'
           + tr("median %1, p90 %2, longest %3")
                 .arg(formatDuration(d.medianSeconds), formatDuration(d.p90Seconds),
                      formatDuration(d.maxSeconds))
           + u'\n' + trCount("over %n run(s)", d.runs);
}

} // namespace relayhud::ui::chartText
