// Trend charts (issue 7): a pass-rate chart of 1,000 commits built and
// rendered offscreen into a QImage <= 50 ms, beside QPainter drawing the same
// 1,000 points as line segments into the same image (the floor any chart
// pays). Segments, not drawPolyline: an antialiased wide polyline is stroked
// as one self-intersecting path, which on a zig-zag of 1,000 points takes
// QPainter most of a second; Qt Charts draws segment by segment for that
// reason, so segments are the like-for-like reference.
// The chart goes through the panel's own ChartBuilder, so axes, markers,
// legend and palette styling are all in the measured time.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/ui/charts/chart_builder.h"

#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QImage>
#include <QLineF>
#include <QPainter>
#include <QPolygonF>
#include <QVector>

#include <cstdio>

namespace relayhud::bench {
namespace {

constexpr int kPoints = 1000;
constexpr int kRepeats = 15;
const QSize kImageSize(1200, 700);

std::vector<verdict::PassRateSeries> passRateSeries()
{
    verdict::PassRateSeries s;
    s.name = "torch-spyre/torch-spyre";
    const EpochSeconds start = 1'764'000'000;
    for (int i = 0; i < kPoints; ++i) {
        char sha[41];
        std::snprintf(sha, sizeof sha, "%08x%032x", 0xc4a7u + static_cast<unsigned>(i), 7u);
        // A wandering but repeatable pass rate: 12 jobs, some failing.
        const int completed = 12;
        const int succeeded = completed - (i * 7 % 13) % 5;
        s.byCommit.push_back(
            {verdict::PassRatePoint{Sha{sha}, start + i * 1800, completed, succeeded}});
    }
    return {s};
}

double renderChart(const std::vector<verdict::PassRateSeries>& series, QImage& image)
{
    const auto start = Clock::now();
    ui::ChartMarks marks;
    auto chart = ui::ChartBuilder(QApplication::palette())
                     .passRateChart(series, ui::PassRateOver::Commits, marks);
    QChartView view(chart.release());
    view.setRenderHint(QPainter::Antialiasing);
    view.resize(kImageSize);
    QApplication::processEvents(); // lets the chart lay out at its size
    image.fill(Qt::white);
    QPainter painter(&image);
    view.render(&painter);
    painter.end();
    return msSince(start);
}

double renderSegments(const std::vector<verdict::PassRateSeries>& series, QImage& image)
{
    const auto start = Clock::now();
    const auto& points = series.front().byCommit;
    const double first = static_cast<double>(points.front().time);
    const double span = static_cast<double>(points.back().time) - first;
    QPolygonF line;
    line.reserve(kPoints);
    for (const verdict::PassRatePoint& p : points)
        line.append(QPointF((static_cast<double>(p.time) - first) / span * (kImageSize.width() - 1),
                            (1.0 - p.rate()) * (kImageSize.height() - 1)));
    QVector<QLineF> segments;
    segments.reserve(kPoints - 1);
    for (qsizetype i = 1; i < line.size(); ++i)
        segments.append(QLineF(line[i - 1], line[i]));
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(QColor(0x00, 0x72, 0xb2), 2));
    painter.drawLines(segments);
    painter.end();
    return msSince(start);
}

} // namespace

void benchCharts(Report& report)
{
    const auto series = passRateSeries();
    QImage image(kImageSize, QImage::Format_ARGB32_Premultiplied);
    renderChart(series, image); // first use loads fonts and plugins: not a chart's cost
    std::vector<double> chart;
    std::vector<double> segments;
    for (int i = 0; i < kRepeats; ++i) {
        chart.push_back(renderChart(series, image));
        segments.push_back(renderSegments(series, image));
    }
    report.add({"chart of 1,000 points: build + render (median)", median(chart), "ms", 50,
                "QPainter::drawLines, same points and image", median(segments)});
}

} // namespace relayhud::bench
