#pragma once
// The words of the trend charts: titles, axis names, empty-state messages and
// the tooltip of each kind of point (plain text, one fact per line).
#include "relayhud/verdict/trends.h"

#include <QString>

#include <string>

namespace relayhud::ui::chartText {

QString loadFailed(const std::string& error);
QString noRuns();
QString noFailures();
QString noTimings();
QString noCounts();
QString noDurations();

QString passRateByCommitTitle();
QString passRateByDayTitle();
QString passRateAxis();
QString seriesLeftOut(int shown, int total);
QString passRateTip(const QString& series, const verdict::PassRatePoint& point);

QString failuresTitle();
QString failuresAxis();
// "Dec 3"
QString dayLabel(EpochSeconds day);
QString failuresTip(EpochSeconds day, const QString& cls, int count);
QString failuresNote(int tagged, int suggested);

QString timingsTitle();
QString queueName();
QString executionName();
QString queueAxis();
QString executionAxis();
QString timingTip(const verdict::TimingPoint& point, bool queue);

QString executedTitle(const QString& job);
QString executedName();
QString shrankName();
QString selfReportedName();
QString executedAxis();
// `before`: the previous point's count, -1 for the first point.
QString executedTip(const QString& job, const verdict::ExecutedPoint& point, std::int64_t before);

QString durationsTitle();
QString medianName();
QString p90Name();
QString minutesAxis();
QString jobsLeftOut(int shown, int total);
QString elideJob(const QString& label);
QString durationTip(const QString& job, const verdict::JobDuration& duration);

// "2026-12-03 14:05 UTC"
QString utcTime(EpochSeconds t);

} // namespace relayhud::ui::chartText
