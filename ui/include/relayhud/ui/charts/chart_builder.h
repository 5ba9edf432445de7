#pragma once
// Builds the QChart of one trend chart from its loaded points (GUI thread,
// no cache access), styled from the widget's palette, and records what each
// point stands for: the commit it selects and the text its tooltip shows.
#include "relayhud/ui/charts/trends_loader.h"

#include <QHash>
#include <QPalette>
#include <QString>
#include <QStringList>
#include <QVector>

#include <memory>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QBarCategoryAxis;
class QBarSet;
class QChart;
class QValueAxis;
class QXYSeries;
QT_END_NAMESPACE

namespace relayhud::ui {

// Pass rate per commit, or per day.
enum class PassRateOver : std::uint8_t { Commits, Days };

struct PointInfo {
    QString sha; // the upstream commit the point stands for; "" for none (a day)
    QString tip; // plain text
};

// What the points of a built chart mean, parallel to each series' points and
// each bar set's values.
struct ChartMarks {
    QHash<const QXYSeries*, QVector<PointInfo>> points;
    QHash<const QBarSet*, QStringList> barTips;
    QString emptyText; // set: there is nothing to draw; show this instead
    QString note;      // a line under the chart (what was left out, the counts' source)
};

class ChartBuilder {
public:
    // Most series a line chart shows; more would make the legend unreadable.
    static constexpr int kMaxSeries = 8;
    // Most jobs the duration bars list.
    static constexpr int kMaxDurationJobs = 15;
    // Most days whose dates fit under their own bars.
    static constexpr std::size_t kMaxDayLabels = 21;

    explicit ChartBuilder(const QPalette& palette) : m_palette(palette) {}

    // A new chart (the caller owns it) and its marks; with marks.emptyText
    // set, the chart holds no series.
    std::unique_ptr<QChart> build(const TrendsData& data, PassRateOver over,
                                  ChartMarks& marks) const;

    // The pass rate chart alone (the bench's 1,000 points go through here).
    std::unique_ptr<QChart> passRateChart(const std::vector<verdict::PassRateSeries>& series,
                                          PassRateOver over, ChartMarks& marks) const;

    // The i-th series colour: colour-blind-safe hues, lifted on a dark palette.
    QColor seriesColor(int i) const;

private:
    std::unique_ptr<QChart> newChart(const QString& title) const;
    void styleAxis(QAbstractAxis& axis, const QString& title) const;
    void addTimeAxis(QChart& chart, EpochSeconds first, EpochSeconds last) const;
    std::unique_ptr<QChart> failuresChart(const verdict::FailureClassDays& f,
                                          ChartMarks& marks) const;
    void nameDaysByDate(QChart& chart, QBarCategoryAxis& days, QValueAxis& y,
                        const std::vector<EpochSeconds>& dayStarts) const;
    std::unique_ptr<QChart> timingsChart(const std::vector<verdict::TimingPoint>& points,
                                         ChartMarks& marks) const;
    std::unique_ptr<QChart> executedChart(const TrendsData& data, ChartMarks& marks) const;
    std::unique_ptr<QChart> durationsChart(const std::vector<verdict::JobDuration>& jobs,
                                           ChartMarks& marks) const;
    bool isDark() const;

    QPalette m_palette;
};

} // namespace relayhud::ui
