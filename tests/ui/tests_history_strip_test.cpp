// History strips: squares, summaries, painting and per-square tooltips.
#include "relayhud/ui/tests/history_strip.h"
#include "relayhud/ui/tests/outcome_style.h"

#include "tests_fixtures.h"

#include <QImage>
#include <QPainter>

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using O = std::optional<TestOutcome>;

namespace {

const O P{TestOutcome::Passed};
const O F{TestOutcome::Failed};

} // namespace

TEST(HistoryStrip, OneSquarePerPointOldestFirst)
{
    const QByteArray squares =
        historySquares(test::history(1, {P, std::nullopt, O(TestOutcome::XFailed),
                                         O(TestOutcome::XPassStrict), O(TestOutcome::Error)}));
    ASSERT_EQ(squares.size(), 5);
    EXPECT_EQ(static_cast<StripSquare>(squares[0]), StripSquare::Passed);
    EXPECT_EQ(static_cast<StripSquare>(squares[1]), StripSquare::Missing);
    EXPECT_EQ(static_cast<StripSquare>(squares[2]), StripSquare::Neutral);
    EXPECT_EQ(static_cast<StripSquare>(squares[3]), StripSquare::Failing);
    EXPECT_EQ(static_cast<StripSquare>(squares[4]), StripSquare::Failing);
    EXPECT_TRUE(historySquares(TestHistory{}).isEmpty());
}

TEST(HistoryStrip, SummarySaysSinceWhenHowOftenAndWhetherNew)
{
    EXPECT_EQ(
        historySummaryText(test::history(1, {P, F, F})),
        u"Failing since 5ba1001 (2 runs) · flip rate 50% · the job's run before failed too"_qs);
    EXPECT_EQ(historySummaryText(test::history(1, {P, P, F})),
              u"Failing since 5ba1002 (1 run) · flip rate 50% · the job's run before, of any "
              u"PR, passed"_qs);
    EXPECT_EQ(historySummaryText(test::history(1, {F, P, P, P})),
              u"Passing · 1 of 4 runs failed · flip rate 33%"_qs);
    EXPECT_EQ(historySummaryText(test::history(1, {P, std::nullopt})),
              u"Not in the latest run's results · no failures in 1 run"_qs);
    // A run without the test neither breaks nor extends the streak.
    EXPECT_EQ(
        historySummaryText(test::history(1, {F, std::nullopt, F})),
        u"Failing since 5ba1000 (2 runs) · flip rate 0% · the job's run before failed too"_qs);
    EXPECT_EQ(historySummaryText(TestHistory{}), QString());
}

TEST(HistoryStrip, PaintsTheNewestSquaresThatFit)
{
    const QByteArray squares = historySquares(test::history(1, std::vector<O>(40, P)));
    const StripMetrics metrics{8, 2};
    EXPECT_EQ(stripCapacity(52, metrics), 5);
    EXPECT_EQ(stripCapacity(0, metrics), 0);
    QImage image(60, 12, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    const int used = paintHistoryStrip(painter, QRect(0, 0, 52, 12), squares, QPalette(), metrics);
    painter.end();
    EXPECT_EQ(used, 5 * 10 - 2 + 2);
    EXPECT_EQ(qAlpha(image.pixel(55, 6)), 0); // nothing past the area
    EXPECT_GT(qAlpha(image.pixel(4, 6)), 0);
    // The square under a point is the newest-aligned one.
    EXPECT_EQ(stripSquareAt(QRect(0, 0, 52, 12), 40, metrics, QPoint(1, 6)), 35);
    EXPECT_EQ(stripSquareAt(QRect(0, 0, 52, 12), 40, metrics, QPoint(45, 6)), 39);
    EXPECT_EQ(stripSquareAt(QRect(0, 0, 52, 12), 40, metrics, QPoint(51, 6)), -1);
    EXPECT_EQ(stripSquareAt(QRect(0, 0, 52, 12), 3, metrics, QPoint(35, 6)), -1);
}

TEST(HistoryStrip, WidgetTellsEachSquare)
{
    HistoryStripWidget strip;
    auto history = test::history(7, {P, std::nullopt, F});
    history.points[2].runAttempt = 2;
    strip.setHistory(history);
    strip.resize(strip.sizeHint());
    const int step = 12 + 3;
    const QString first = strip.toolTipAt(QPoint(2 + 4, strip.height() / 2));
    EXPECT_TRUE(first.startsWith(u"5ba1000 · "_qs));
    EXPECT_TRUE(first.endsWith(u" · passed"_qs));
    EXPECT_TRUE(strip.toolTipAt(QPoint(2 + step + 4, strip.height() / 2))
                    .endsWith(u"not in this run's results"_qs));
    const QString last = strip.toolTipAt(QPoint(2 + 2 * step + 4, strip.height() / 2));
    EXPECT_TRUE(last.endsWith(u"failed · attempt 2 · this run"_qs));
    EXPECT_EQ(strip.toolTipAt(QPoint(2 + 3 * step + 4, strip.height() / 2)), QString());
    strip.clear();
    EXPECT_EQ(strip.toolTipAt(QPoint(6, strip.height() / 2)), QString());
    // 10,000 runs: the strip asks for a sane width and shows the newest.
    strip.setHistory(test::history(7, std::vector<O>(10'000, P)));
    EXPECT_LT(strip.sizeHint().width(), 1000);
    strip.resize(strip.sizeHint());
    EXPECT_TRUE(strip.toolTipAt(QPoint(6, strip.height() / 2)).startsWith(u"5ba1094 · "_qs));
}

TEST(OutcomeStyle, WordsRanksAndNumbers)
{
    EXPECT_EQ(outcomeLabel(TestOutcome::XPassStrict), u"xpass (strict)"_qs);
    EXPECT_EQ(outcomeLabel(TestOutcome::XFailed), u"xfailed"_qs);
    EXPECT_LT(outcomeRank(TestOutcome::Failed), outcomeRank(TestOutcome::Skipped));
    EXPECT_LT(outcomeRank(TestOutcome::XPassStrict), outcomeRank(TestOutcome::Passed));
    EXPECT_EQ(formatCount(1200), u"1,200"_qs);
    EXPECT_EQ(formatTestDuration(0.1417), u"142 ms"_qs);
    EXPECT_EQ(formatTestDuration(12.34), u"12.3 s"_qs);
    EXPECT_EQ(formatTestDuration(125), u"2m 05s"_qs);
    EXPECT_EQ(formatTestDuration(-1), u"—"_qs);
    EXPECT_EQ(formatTestDuration(std::nan("")), u"—"_qs);
}
