#include "relayhud/ui/charts/chart_builder.h"

#include "chart_text.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/triage/triage_style.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QHorizontalBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPen>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace relayhud::ui {

namespace {

using verdict::PassRatePoint;

double msOf(EpochSeconds t) { return static_cast<double>(t) * 1000.0; }

double minutes(double seconds) { return seconds / 60.0; }

// The series with the most runs, when there are more than a legend can hold.
std::vector<verdict::PassRateSeries> busiest(std::vector<verdict::PassRateSeries> all, int keep)
{
    const auto runs = [](const verdict::PassRateSeries& s) {
        int n = 0;
        for (const PassRatePoint& p : s.byCommit)
            n += p.completed;
        return n;
    };
    if (static_cast<int>(all.size()) <= keep)
        return all;
    std::stable_sort(all.begin(), all.end(),
                     [&](const auto& a, const auto& b) { return runs(a) > runs(b); });
    all.resize(static_cast<std::size_t>(keep));
    std::sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    return all;
}

} // namespace

bool ChartBuilder::isDark() const { return m_palette.color(QPalette::Base).lightness() < 128; }

QColor ChartBuilder::seriesColor(int i) const
{
    // Okabe and Ito's colour-blind-safe set, without its yellow and black
    // (one vanishes on white, the other on a dark base).
    static const std::array<QColor, 6> hues{QColor(0x00, 0x72, 0xb2), QColor(0xe6, 0x9f, 0x00),
                                            QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                            QColor(0x56, 0xb4, 0xe9), QColor(0xd5, 0x5e, 0x00)};
    const auto at = static_cast<std::size_t>(i) % hues.size();
    const QColor c = hues[at];
    // A second round stays apart from the first: deeper on a light base,
    // paler on a dark one (deeper would sink into it).
    if (i >= static_cast<int>(hues.size()))
        return isDark() ? c.lighter(165) : c.darker(140);
    return isDark() ? c.lighter(125) : c;
}

std::unique_ptr<QChart> ChartBuilder::newChart(const QString& title) const
{
    auto chart = std::make_unique<QChart>();
    chart->setTitle(title);
    QFont titleFont = chart->titleFont();
    titleFont.setBold(true);
    chart->setTitleFont(titleFont);
    chart->setTitleBrush(m_palette.color(QPalette::Text));
    chart->setBackgroundBrush(m_palette.color(QPalette::Base));
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setLabelColor(m_palette.color(QPalette::Text));
    chart->setAnimationOptions(QChart::NoAnimation);
    return chart;
}

void ChartBuilder::styleAxis(QAbstractAxis& axis, const QString& title) const
{
    const QColor text = m_palette.color(QPalette::Text);
    QColor grid = text;
    grid.setAlphaF(0.15f);
    axis.setLabelsBrush(text);
    axis.setTitleBrush(text);
    axis.setTitleText(title);
    axis.setGridLineColor(grid);
    axis.setMinorGridLineColor(grid);
    axis.setLinePenColor(m_palette.color(QPalette::Mid));
    QFont titleFont = axis.titleFont();
    titleFont.setBold(false);
    axis.setTitleFont(titleFont);
}

void ChartBuilder::addTimeAxis(QChart& chart, EpochSeconds first, EpochSeconds last) const
{
    auto* axis = new QDateTimeAxis;
    // A margin on both sides keeps the first and last points off the frame.
    const EpochSeconds span = std::max<EpochSeconds>(last - first, 3600);
    const EpochSeconds pad = span / 30 + 60;
    axis->setRange(QDateTime::fromSecsSinceEpoch(first - pad, Qt::UTC),
                   QDateTime::fromSecsSinceEpoch(last + pad, Qt::UTC));
    axis->setFormat(span <= 2 * verdict::kSecondsPerDay ? QStringLiteral("MMM d hh:mm")
                                                        : QStringLiteral("MMM d"));
    axis->setTickCount(span <= 2 * verdict::kSecondsPerDay ? 5 : 7);
    styleAxis(*axis, {});
    chart.addAxis(axis, Qt::AlignBottom);
}

std::unique_ptr<QChart> ChartBuilder::build(const TrendsData& data, PassRateOver over,
                                            ChartMarks& marks) const
{
    marks = {};
    if (!data.error.empty()) {
        marks.emptyText = chartText::loadFailed(data.error);
        return newChart({});
    }
    switch (data.request.kind) {
    case ChartKind::PassRate: return passRateChart(data.passRates, over, marks);
    case ChartKind::FailureClasses: return failuresChart(data.failures, marks);
    case ChartKind::QueueTimes: return timingsChart(data.timings, marks);
    case ChartKind::TestsExecuted: return executedChart(data, marks);
    case ChartKind::Durations: return durationsChart(data.durations, marks);
    }
    return newChart({});
}

std::unique_ptr<QChart> ChartBuilder::passRateChart(const std::vector<verdict::PassRateSeries>& all,
                                                    PassRateOver over, ChartMarks& marks) const
{
    auto chart = newChart(over == PassRateOver::Commits ? chartText::passRateByCommitTitle()
                                                        : chartText::passRateByDayTitle());
    if (all.empty()) {
        marks.emptyText = chartText::noRuns();
        return chart;
    }
    const auto shown = busiest(all, kMaxSeries);
    if (shown.size() < all.size())
        marks.note =
            chartText::seriesLeftOut(static_cast<int>(shown.size()), static_cast<int>(all.size()));
    EpochSeconds first = std::numeric_limits<EpochSeconds>::max();
    EpochSeconds last = std::numeric_limits<EpochSeconds>::min();
    std::vector<QLineSeries*> lines;
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const auto& points = over == PassRateOver::Commits ? shown[i].byCommit : shown[i].byDay;
        auto* line = new QLineSeries;
        const QString name = toQString(shown[i].name);
        line->setName(name);
        line->setPen(QPen(seriesColor(static_cast<int>(i)), 2));
        line->setPointsVisible(true);
        line->setMarkerSize(points.size() > 200 ? 4.0 : 7.0);
        QList<QPointF> xy;
        xy.reserve(static_cast<qsizetype>(points.size()));
        QVector<PointInfo> infos;
        infos.reserve(static_cast<qsizetype>(points.size()));
        for (const PassRatePoint& p : points) {
            xy.append(QPointF(msOf(p.time), p.rate() * 100.0));
            infos.append({toQString(p.sha.value), chartText::passRateTip(name, p)});
            first = std::min(first, p.time);
            last = std::max(last, p.time);
        }
        line->replace(xy);
        marks.points.insert(line, infos);
        chart->addSeries(line);
        lines.push_back(line);
    }
    addTimeAxis(*chart, first, last);
    auto* y = new QValueAxis;
    y->setRange(-4, 104); // room so markers at 0% and 100% are not cut by the frame
    y->setTickType(QValueAxis::TicksDynamic);
    y->setTickInterval(20);
    y->setTickAnchor(0);
    y->setLabelFormat(QStringLiteral("%d%%"));
    styleAxis(*y, chartText::passRateAxis());
    chart->addAxis(y, Qt::AlignLeft);
    for (QLineSeries* line : lines) {
        line->attachAxis(chart->axes(Qt::Horizontal).front());
        line->attachAxis(y);
    }
    return chart;
}

std::unique_ptr<QChart> ChartBuilder::failuresChart(const verdict::FailureClassDays& f,
                                                    ChartMarks& marks) const
{
    auto chart = newChart(chartText::failuresTitle());
    if (f.classes.empty()) {
        marks.emptyText = chartText::noFailures();
        return chart;
    }
    auto* bars = new QStackedBarSeries;
    bars->setBarWidth(0.7);
    QStringList days;
    for (EpochSeconds d : f.days)
        days.append(chartText::dayLabel(d));
    for (std::size_t c = 0; c < f.classes.size(); ++c) {
        auto* set = new QBarSet(classLabel(f.classes[c]));
        set->setColor(classColor(f.classes[c], m_palette));
        set->setBorderColor(m_palette.color(QPalette::Base));
        QStringList tips;
        for (std::size_t d = 0; d < f.days.size(); ++d) {
            set->append(f.counts[c][d]);
            tips.append(
                chartText::failuresTip(f.days[d], classLabel(f.classes[c]), f.counts[c][d]));
        }
        marks.barTips.insert(set, tips);
        bars->append(set);
    }
    chart->addSeries(bars);
    auto* x = new QBarCategoryAxis;
    x->append(days);
    styleAxis(*x, {});
    chart->addAxis(x, Qt::AlignBottom);
    bars->attachAxis(x);
    auto* y = new QValueAxis;
    y->setLabelFormat(QStringLiteral("%d"));
    styleAxis(*y, chartText::failuresAxis());
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(y);
    if (f.days.size() > kMaxDayLabels)
        nameDaysByDate(*chart, *x, *y, f.days);
    int busiestDay = 1;
    for (std::size_t d = 0; d < f.days.size(); ++d) {
        int total = 0;
        for (const auto& perDay : f.counts)
            total += perDay[d];
        busiestDay = std::max(busiestDay, total);
    }
    y->setRange(0, busiestDay * 1.1); // the tallest bar stays under the frame
    y->applyNiceNumbers();
    marks.note = chartText::failuresNote(f.tagged, f.suggested);
    return chart;
}

void ChartBuilder::nameDaysByDate(QChart& chart, QBarCategoryAxis& days, QValueAxis& y,
                                  const std::vector<EpochSeconds>& dayStarts) const
{
    // A category axis elides each label to its bar's width, so past a few
    // weeks every date reads "...". A date axis spanning the same days, with
    // a few ticks, names them instead: bar i covers day i exactly.
    days.setLabelsVisible(false);
    auto* dates = new QDateTimeAxis;
    dates->setRange(
        QDateTime::fromSecsSinceEpoch(dayStarts.front(), Qt::UTC),
        QDateTime::fromSecsSinceEpoch(dayStarts.back() + verdict::kSecondsPerDay, Qt::UTC));
    dates->setFormat(QStringLiteral("MMM d"));
    dates->setTickCount(8);
    styleAxis(*dates, {});
    dates->setGridLineVisible(false);
    chart.addAxis(dates, Qt::AlignBottom);
    auto* anchor = new QLineSeries; // an axis is laid out only with a series on it
    chart.addSeries(anchor);
    anchor->attachAxis(dates);
    anchor->attachAxis(&y);
    for (QLegendMarker* marker : chart.legend()->markers(anchor))
        marker->setVisible(false);
}

std::unique_ptr<QChart> ChartBuilder::timingsChart(const std::vector<verdict::TimingPoint>& points,
                                                   ChartMarks& marks) const
{
    auto chart = newChart(chartText::timingsTitle());
    if (points.empty()) {
        marks.emptyText = chartText::noTimings();
        return chart;
    }
    auto* queue = new QScatterSeries;
    auto* execution = new QScatterSeries;
    queue->setName(chartText::queueName());
    execution->setName(chartText::executionName());
    const double size = points.size() > 300 ? 6.0 : 9.0;
    int i = 0;
    for (QScatterSeries* s : {queue, execution}) {
        s->setMarkerSize(size);
        s->setColor(seriesColor(i++));
        s->setBorderColor(Qt::transparent);
    }
    queue->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    QVector<PointInfo> queueInfo;
    QVector<PointInfo> executionInfo;
    double queueMax = 1;
    double executionMax = 1;
    for (const verdict::TimingPoint& p : points) {
        const QString sha = toQString(p.sha.value);
        if (p.queueSeconds) {
            queue->append(msOf(p.time), minutes(*p.queueSeconds));
            queueInfo.append({sha, chartText::timingTip(p, true)});
            queueMax = std::max(queueMax, minutes(*p.queueSeconds));
        }
        if (p.executionSeconds) {
            execution->append(msOf(p.time), minutes(*p.executionSeconds));
            executionInfo.append({sha, chartText::timingTip(p, false)});
            executionMax = std::max(executionMax, minutes(*p.executionSeconds));
        }
    }
    marks.points.insert(queue, queueInfo);
    marks.points.insert(execution, executionInfo);
    chart->addSeries(queue);
    chart->addSeries(execution);
    addTimeAxis(*chart, points.front().time, points.back().time);
    // Queue times are minutes and executions hours: one axis each, in its
    // series' colour, so neither is flattened against the floor.
    const auto addY = [&](QScatterSeries* s, double max, const QString& title, Qt::Alignment side) {
        auto* y = new QValueAxis;
        y->setRange(0, max * 1.08);
        y->setLabelFormat(QStringLiteral("%.0f"));
        styleAxis(*y, title);
        y->setTitleBrush(s->color());
        y->setGridLineVisible(side == Qt::AlignLeft);
        y->applyNiceNumbers();
        chart->addAxis(y, side);
        s->attachAxis(chart->axes(Qt::Horizontal).front());
        s->attachAxis(y);
    };
    addY(queue, queueMax, chartText::queueAxis(), Qt::AlignLeft);
    addY(execution, executionMax, chartText::executionAxis(), Qt::AlignRight);
    return chart;
}

std::unique_ptr<QChart> ChartBuilder::executedChart(const TrendsData& data, ChartMarks& marks) const
{
    const QString job = data.executedJob
                            ? toQString(data.executedJob->label(data.request.backend.empty()))
                            : QString();
    auto chart = newChart(chartText::executedTitle(job));
    if (data.executed.empty()) {
        marks.emptyText = chartText::noCounts();
        return chart;
    }
    auto* line = new QLineSeries;
    line->setName(chartText::executedName());
    line->setPen(QPen(seriesColor(0), 2));
    line->setPointsVisible(true);
    line->setMarkerSize(data.executed.size() > 200 ? 4.0 : 7.0);
    auto* shrank = new QScatterSeries;
    shrank->setName(chartText::shrankName());
    shrank->setColor(classColor(triage::FailureClass::Regression, m_palette));
    shrank->setBorderColor(m_palette.color(QPalette::Text));
    shrank->setMarkerSize(12);
    auto* reported = new QScatterSeries;
    reported->setName(chartText::selfReportedName());
    reported->setColor(Qt::transparent);
    reported->setBorderColor(seriesColor(1));
    reported->setMarkerShape(QScatterSeries::MarkerShapeRectangle);
    reported->setMarkerSize(11);
    QVector<PointInfo> lineInfo;
    QVector<PointInfo> shrankInfo;
    QVector<PointInfo> reportedInfo;
    std::int64_t most = 1;
    for (std::size_t i = 0; i < data.executed.size(); ++i) {
        const verdict::ExecutedPoint& p = data.executed[i];
        const std::int64_t before = i > 0 ? data.executed[i - 1].executed : -1;
        const PointInfo info{toQString(p.sha.value), chartText::executedTip(job, p, before)};
        const QPointF xy(msOf(p.commitTime), static_cast<double>(p.executed));
        line->append(xy);
        lineInfo.append(info);
        if (p.shrank) {
            shrank->append(xy);
            shrankInfo.append(info);
        }
        if (p.source == verdict::CountSource::SelfReported) {
            reported->append(xy);
            reportedInfo.append(info);
        }
        most = std::max(most, p.executed);
    }
    marks.points.insert(line, lineInfo);
    chart->addSeries(line);
    for (auto [s, info] : {std::pair{reported, reportedInfo}, std::pair{shrank, shrankInfo}}) {
        if (s->count() == 0) {
            delete s; // an empty entry would only crowd the legend
            continue;
        }
        marks.points.insert(s, info);
        chart->addSeries(s);
    }
    addTimeAxis(*chart, data.executed.front().commitTime, data.executed.back().commitTime);
    auto* y = new QValueAxis;
    y->setRange(0, static_cast<double>(most) * 1.1); // from zero: a drop must look like one
    y->setLabelFormat(QStringLiteral("%.0f"));
    styleAxis(*y, chartText::executedAxis());
    y->applyNiceNumbers();
    chart->addAxis(y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(chart->axes(Qt::Horizontal).front());
        s->attachAxis(y);
    }
    return chart;
}

std::unique_ptr<QChart> ChartBuilder::durationsChart(const std::vector<verdict::JobDuration>& all,
                                                     ChartMarks& marks) const
{
    auto chart = newChart(chartText::durationsTitle());
    if (all.empty()) {
        marks.emptyText = chartText::noDurations();
        return chart;
    }
    const std::size_t shown = std::min<std::size_t>(all.size(), kMaxDurationJobs);
    if (shown < all.size())
        marks.note = chartText::jobsLeftOut(static_cast<int>(shown), static_cast<int>(all.size()));
    const bool withRepo = std::any_of(
        all.begin(), all.end(), [&](const auto& j) { return j.job.repo != all.front().job.repo; });
    auto* median = new QBarSet(chartText::medianName());
    auto* p90 = new QBarSet(chartText::p90Name());
    median->setColor(seriesColor(0));
    p90->setColor(seriesColor(1));
    for (QBarSet* set : {median, p90})
        set->setBorderColor(Qt::transparent);
    QStringList jobs;
    QStringList tips;
    double longest = 1;
    // Bottom-up in a horizontal chart: the longest p90 goes last to sit on top.
    for (std::size_t k = shown; k-- > 0;) {
        const verdict::JobDuration& j = all[k];
        jobs.append(chartText::elideJob(toQString(j.job.label(withRepo))));
        median->append(minutes(j.medianSeconds));
        p90->append(minutes(j.p90Seconds));
        tips.append(chartText::durationTip(toQString(j.job.label(true)), j));
        longest = std::max(longest, minutes(j.p90Seconds));
    }
    marks.barTips.insert(median, tips);
    marks.barTips.insert(p90, tips);
    auto* bars = new QHorizontalBarSeries;
    bars->append(median);
    bars->append(p90);
    bars->setBarWidth(0.8);
    chart->addSeries(bars);
    auto* y = new QBarCategoryAxis;
    y->append(jobs);
    styleAxis(*y, {});
    chart->addAxis(y, Qt::AlignLeft);
    bars->attachAxis(y);
    auto* x = new QValueAxis;
    x->setRange(0, longest * 1.05);
    x->setLabelFormat(QStringLiteral("%.0f"));
    styleAxis(*x, chartText::minutesAxis());
    x->applyNiceNumbers();
    chart->addAxis(x, Qt::AlignBottom);
    bars->attachAxis(x);
    return chart;
}

} // namespace relayhud::ui
