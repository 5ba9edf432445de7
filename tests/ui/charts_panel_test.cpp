// The trend charts panel (ui/charts): each chart's series hold what the cache
// holds, hovering a point tells its value, clicking a commit's point emits its
// SHA, Export PNG writes a readable image, and an empty cache says so instead
// of drawing empty axes. Pictures in light and dark with RELAYHUD_UI_SHOTS.
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/charts/charts_panel.h"
#include "relayhud/util/time.h"

#include "test_support.h"

#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QDeadlineTimer>
#include <QFile>
#include <QHorizontalBarSeries>
#include <QImage>
#include <QLineSeries>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QStackedBarSeries>
#include <QStyle>
#include <QStyleFactory>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <map>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

constexpr EpochSeconds kHour = 3600;
const std::string kSpyre = "torch-spyre/torch-spyre";
const std::string kAscend = "Ascend/pytorch";
constexpr int kCommits = 5;

std::string shaOf(int i)
{
    std::string s = "c4a7" + std::to_string(i);
    return s + std::string(40 - s.size(), '0');
}

// Five commits, 3 hours apart, ending an hour ago. torch-spyre runs `test`
// (fails on commit 2; its suite drops from 10 to 7 tests on commit 4) and
// `build`; Ascend's `test` fails on odd commits with no results.
class ChartsPanelTest : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_path = m_dir.filePath(QStringLiteral("cache.sqlite"));
        m_now = nowSeconds();
    }

    EpochSeconds commitTime(int i) const { return m_now - kHour - (kCommits - 1 - i) * 3 * kHour; }

    CheckRun run(int i, const std::string& repo, const std::string& job, Conclusion c) const
    {
        CheckRun r;
        r.downstreamRepo = repo;
        r.upstreamSha = Sha{shaOf(i)};
        r.workflow = "CI";
        r.jobName = job;
        r.runId = repo + job + std::to_string(i);
        r.checkRunId = CheckRunId{"cr-" + r.runId};
        r.reported.status = RunStatus::Completed;
        r.reported.conclusion = c;
        r.reported.startedAt = commitTime(i) + 120;
        r.reported.completedAt = commitTime(i) + 1320;
        return r;
    }

    void fill()
    {
        auto opened = Database::open(m_path.toStdString());
        ASSERT_TRUE(opened) << opened.message();
        Database& cache = **opened;
        SyncBatch batch;
        for (int i = 0; i < kCommits; ++i) {
            batch.commits.push_back(
                {Sha{shaOf(i)}, 100 + i, "main", EventType::PullRequest, commitTime(i), "", ""});
            CheckRun test =
                run(i, kSpyre, "test", i == 2 ? Conclusion::Failure : Conclusion::Success);
            test.trusted.queueTimeSeconds = 60.0 * (i + 1);
            test.trusted.executionTimeSeconds = 600.0 + 60.0 * i;
            batch.runs.push_back(test);
            CheckRun build = run(i, kSpyre, "build", Conclusion::Success);
            build.trusted.executionTimeSeconds = 300.0;
            batch.runs.push_back(build);
            batch.runs.push_back(
                run(i, kAscend, "test", i % 2 == 1 ? Conclusion::Failure : Conclusion::Success));
        }
        ASSERT_TRUE(RunStore(cache).apply(batch));
        for (int i = 0; i < kCommits; ++i)
            storeResults(cache, i);
        TriageTag tag;
        tag.target = {kAscend, "CI", "test", Sha{shaOf(1)}, 1, ""};
        tag.cls = triage::FailureClass::Infra;
        tag.author = "oncall";
        tag.timeMs = 1;
        ASSERT_TRUE(TriageStore(cache).setTriageTags({tag}));
    }

    // torch-spyre `test`: t0..t9 (t0..t6 on commit 4); t3 fails on commit 2.
    void storeResults(Database& cache, int i)
    {
        auto row =
            RunStore(cache).checkRunRowFor(CheckRunId{"cr-" + kSpyre + "test" + std::to_string(i)});
        ASSERT_TRUE(row && *row);
        auto writer =
            TestResultStore(cache).beginTestRun({**row, TestRunSource::Artifacts, "junit", "u"});
        ASSERT_TRUE(writer);
        TestRunTotals totals;
        for (int t = 0; t < (i == 4 ? 7 : 10); ++t) {
            TestCaseResult c;
            c.file = "test/test_ops.py";
            c.className = "TestOps";
            c.name = "t" + std::to_string(t);
            c.identity = c.file + "::TestOps::" + c.name;
            c.baseName = "TestOps::" + c.name;
            c.outcome = i == 2 && t == 3 ? TestOutcome::Failed : TestOutcome::Passed;
            ASSERT_TRUE((*writer)->add(c));
            ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
        }
        ASSERT_TRUE((*writer)->commit(totals));
    }

    std::unique_ptr<ChartsPanel> panel()
    {
        auto p = std::make_unique<ChartsPanel>(m_path);
        p->resize(1000, 600);
        p->show();
        EXPECT_TRUE(QTest::qWaitForWindowExposed(p.get()));
        EXPECT_TRUE(settle(*p));
        return p;
    }

    static bool settle(ChartsPanel& p)
    {
        QDeadlineTimer deadline(20000);
        while (!deadline.hasExpired()) {
            if (!p.isLoading() && p.data()) {
                // The chart lays out on posted events: let it, so positions
                // mapped from values are where the points are drawn.
                QApplication::processEvents();
                QApplication::processEvents();
                return true;
            }
            QTest::qWait(10);
        }
        return false;
    }

    template <class S>
    static S* seriesNamed(QChart* chart, const QString& name)
    {
        for (QAbstractSeries* s : chart->series())
            if (s->name() == name)
                return qobject_cast<S*>(s);
        return nullptr;
    }

    static QPoint viewPos(const ChartsPanel& p, QXYSeries* series, int i)
    {
        const QPointF scene =
            p.chart()->mapToScene(p.chart()->mapToPosition(series->at(i), series));
        return p.chartView()->mapFromScene(scene);
    }

    static void pictures(ChartsPanel& p, const QString& name)
    {
        if (qEnvironmentVariableIsEmpty("RELAYHUD_UI_SHOTS"))
            return;
        QApplication::processEvents();
        test::keepPicture(p, QStringLiteral("charts-%1-light.png").arg(name));
        const QPalette palette = QApplication::palette();
        const QString style = QApplication::style()->name();
        applyDarkPalette(*qApp);
        QApplication::processEvents();
        test::keepPicture(p, QStringLiteral("charts-%1-dark.png").arg(name));
        QApplication::setStyle(QStyleFactory::create(style));
        QApplication::setPalette(palette);
        QApplication::processEvents();
    }

    QTemporaryDir m_dir;
    QString m_path;
    EpochSeconds m_now = 0;
};

} // namespace

TEST_F(ChartsPanelTest, PassRateSeriesHoldTheCachesShareOfPassedRunsPerCommit)
{
    fill();
    auto p = panel();
    ASSERT_FALSE(p->showsNoData()) << p->noDataText().toStdString();
    auto* spyre = seriesNamed<QLineSeries>(p->chart(), QString::fromStdString(kSpyre));
    auto* ascend = seriesNamed<QLineSeries>(p->chart(), QString::fromStdString(kAscend));
    ASSERT_TRUE(spyre && ascend);
    ASSERT_EQ(spyre->count(), kCommits);
    const std::vector<double> spyreRates{100, 100, 50, 100, 100};
    const std::vector<double> ascendRates{100, 0, 100, 0, 100};
    for (int i = 0; i < kCommits; ++i) {
        EXPECT_DOUBLE_EQ(spyre->at(i).x(), static_cast<double>(commitTime(i)) * 1000.0);
        EXPECT_DOUBLE_EQ(spyre->at(i).y(), spyreRates[static_cast<std::size_t>(i)]) << i;
        EXPECT_DOUBLE_EQ(ascend->at(i).y(), ascendRates[static_cast<std::size_t>(i)]) << i;
    }
    pictures(*p, QStringLiteral("pass-rate"));

    p->setBackend(QString::fromStdString(kSpyre)); // one series per job
    ASSERT_TRUE(settle(*p));
    auto* test = seriesNamed<QLineSeries>(p->chart(), QStringLiteral("CI / test"));
    ASSERT_TRUE(test);
    EXPECT_TRUE(seriesNamed<QLineSeries>(p->chart(), QStringLiteral("CI / build")));
    EXPECT_DOUBLE_EQ(test->at(2).y(), 0.0);

    p->setPassRateOver(PassRateOver::Days);
    test = seriesNamed<QLineSeries>(p->chart(), QStringLiteral("CI / test"));
    ASSERT_TRUE(test);
    int described = 0;
    for (const PointInfo& info : p->marks().points.value(test)) {
        EXPECT_TRUE(info.sha.isEmpty()); // a day is not a commit
        described += info.tip.contains(QStringLiteral("runs)")) ? 1 : 0;
    }
    EXPECT_EQ(described, test->count());
}

TEST_F(ChartsPanelTest, HoveringAPointShowsItsValueAndClickingItSelectsTheCommit)
{
    fill();
    auto p = panel();
    auto* ascend = seriesNamed<QLineSeries>(p->chart(), QString::fromStdString(kAscend));
    ASSERT_TRUE(ascend);
    const QPoint at = viewPos(*p, ascend, 1);
    QTest::mouseMove(p->chartView()->viewport(), at + QPoint(3, -2)); // near is enough
    const QString tip = p->toolTipText();
    EXPECT_TRUE(tip.contains(QStringLiteral("0% passed (0 of 1 runs)"))) << tip.toStdString();
    EXPECT_TRUE(tip.contains(QString::fromStdString(shaOf(1)).left(7))) << tip.toStdString();

    QTest::mouseMove(p->chartView()->viewport(), QPoint(2, 2)); // away from every point
    EXPECT_TRUE(p->toolTipText().isEmpty()) << p->toolTipText().toStdString();

    QSignalSpy activated(p.get(), &ChartsPanel::commitActivated);
    QTest::mouseClick(p->chartView()->viewport(), Qt::LeftButton, {}, at);
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated.at(0).at(0).toString(), QString::fromStdString(shaOf(1)));

    // Far from every point: nothing is selected.
    QTest::mouseClick(p->chartView()->viewport(), Qt::LeftButton, {}, QPoint(2, 2));
    EXPECT_EQ(activated.count(), 1);
}

TEST_F(ChartsPanelTest, FailureBarsCountEachClassPerDayWithThePersonsTagFirst)
{
    fill();
    auto p = panel();
    p->setChartKind(ChartKind::FailureClasses);
    ASSERT_TRUE(settle(*p));
    ASSERT_FALSE(p->showsNoData()) << p->noDataText().toStdString();
    auto* bars = qobject_cast<QStackedBarSeries*>(p->chart()->series().value(0));
    ASSERT_TRUE(bars);
    std::map<QString, double> total;
    for (QBarSet* set : bars->barSets())
        total[set->label()] = set->sum();
    // t3 failed on push 2 alone: pushes 1 and 3 of the series pass it.
    EXPECT_EQ(total[QStringLiteral("Flaky")], 1.0);
    EXPECT_EQ(total[QStringLiteral("Infra")], 1.0);     // the oncall's tag on commit 1
    EXPECT_EQ(total[QStringLiteral("Untriaged")], 1.0); // Ascend's commit 3, untagged
    EXPECT_EQ(bars->barSets().front()->count(), ChartsPanel::kDefaultDays + 1);
    EXPECT_TRUE(p->note().contains(QStringLiteral("1 classed by a person, 2 by the suggestion")))
        << p->note().toStdString();
    pictures(*p, QStringLiteral("failures"));
}

TEST_F(ChartsPanelTest, QueueAndExecutionTimesAreTheRelaysInMinutes)
{
    fill();
    auto p = panel();
    p->setChartKind(ChartKind::QueueTimes);
    ASSERT_TRUE(settle(*p));
    auto* queue = seriesNamed<QScatterSeries>(p->chart(), QStringLiteral("Queue time"));
    auto* execution = seriesNamed<QScatterSeries>(p->chart(), QStringLiteral("Execution time"));
    ASSERT_TRUE(queue && execution);
    ASSERT_EQ(queue->count(), kCommits); // only `test` has queue times
    EXPECT_EQ(execution->count(), 2 * kCommits);
    for (int i = 0; i < kCommits; ++i)
        EXPECT_DOUBLE_EQ(queue->at(i).y(), i + 1.0);
    QSignalSpy activated(p.get(), &ChartsPanel::commitActivated);
    // Queue and execution points of commit 3 lie close together: either is its SHA.
    QTest::mouseClick(p->chartView()->viewport(), Qt::LeftButton, {}, viewPos(*p, queue, 3));
    ASSERT_EQ(activated.count(), 1);
    EXPECT_EQ(activated.at(0).at(0).toString(), QString::fromStdString(shaOf(3)));
    pictures(*p, QStringLiteral("timings"));
}

TEST_F(ChartsPanelTest, TestsExecutedShowTheSuiteShrinking)
{
    fill();
    auto p = panel();
    p->setBackend(QString::fromStdString(kSpyre));
    p->setChartKind(ChartKind::TestsExecuted);
    ASSERT_TRUE(settle(*p));
    ASSERT_TRUE(p->setJob({kSpyre, "CI", "test"}));
    ASSERT_TRUE(settle(*p));
    auto* line = seriesNamed<QLineSeries>(p->chart(), QStringLiteral("Tests executed"));
    ASSERT_TRUE(line);
    ASSERT_EQ(line->count(), kCommits);
    EXPECT_DOUBLE_EQ(line->at(0).y(), 10.0);
    EXPECT_DOUBLE_EQ(line->at(4).y(), 7.0);
    auto* shrank = seriesNamed<QScatterSeries>(p->chart(), QStringLiteral("Suite shrank (> 10%)"));
    ASSERT_TRUE(shrank);
    ASSERT_EQ(shrank->count(), 1);
    EXPECT_DOUBLE_EQ(shrank->at(0).y(), 7.0);
    EXPECT_TRUE(p->chart()->title().contains(QStringLiteral("CI / test")));
    pictures(*p, QStringLiteral("tests-executed"));
}

TEST_F(ChartsPanelTest, DurationBarsGiveMedianAndP90PerJob)
{
    fill();
    auto p = panel();
    p->setChartKind(ChartKind::Durations);
    ASSERT_TRUE(settle(*p));
    auto* bars = qobject_cast<QHorizontalBarSeries*>(p->chart()->series().value(0));
    ASSERT_TRUE(bars);
    ASSERT_EQ(bars->count(), 2);
    QBarSet* median = bars->barSets()[0];
    QBarSet* p90 = bars->barSets()[1];
    ASSERT_EQ(median->count(), 3);
    // Longest p90 on top (last): Ascend's `test` has no relay time, so its
    // own 20 minutes count; then spyre `test` (relay: 10..14 minutes), `build`.
    EXPECT_DOUBLE_EQ(p90->at(2), 20.0);
    EXPECT_DOUBLE_EQ(median->at(1), 12.0);
    EXPECT_DOUBLE_EQ(p90->at(1), 14.0);
    EXPECT_DOUBLE_EQ(median->at(0), 5.0); // spyre `build`, 300 s each
    const QStringList tips = p->marks().barTips.value(median);
    EXPECT_TRUE(tips.value(1).contains(QStringLiteral("p90 14m 00s")))
        << tips.value(1).toStdString();
    emit median->hovered(true, 1);
    EXPECT_EQ(p->toolTipText(), tips.value(1));
    pictures(*p, QStringLiteral("durations"));
}

TEST_F(ChartsPanelTest, ExportWritesAPngOfTheChartsSize)
{
    fill();
    auto p = panel();
    const QString file = m_dir.filePath(QStringLiteral("chart.png"));
    ASSERT_TRUE(p->exportPng(file));
    QImage image(file);
    ASSERT_FALSE(image.isNull());
    const QSize expected = p->chartView()->size() * p->chartView()->devicePixelRatioF();
    EXPECT_EQ(image.size(), expected);
    EXPECT_FALSE(p->exportPng(m_dir.filePath(QStringLiteral("no/such/folder/chart.png"))));
}

TEST_F(ChartsPanelTest, AnEmptyCacheSaysNoDataInsteadOfDrawingEmptyAxes)
{
    {
        auto created = Database::open(m_path.toStdString());
        ASSERT_TRUE(created) << created.message();
    }
    auto p = panel();
    for (ChartKind kind : {ChartKind::PassRate, ChartKind::FailureClasses, ChartKind::QueueTimes,
                           ChartKind::TestsExecuted, ChartKind::Durations}) {
        p->setChartKind(kind);
        ASSERT_TRUE(settle(*p));
        EXPECT_TRUE(p->showsNoData()) << static_cast<int>(kind);
        EXPECT_TRUE(p->noDataText().startsWith(QStringLiteral("No data")))
            << static_cast<int>(kind);
        EXPECT_TRUE(p->chart()->series().isEmpty());
    }
    pictures(*p, QStringLiteral("empty"));
}

TEST_F(ChartsPanelTest, ACacheThatCannotBeOpenedSaysWhy)
{
    m_path = m_dir.filePath(QStringLiteral("not-a-folder/x/cache.sqlite"));
    QFile blocker(m_dir.filePath(QStringLiteral("not-a-folder")));
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly)); // a file where a folder should be
    blocker.close();
    auto p = panel();
    EXPECT_TRUE(p->showsNoData());
    EXPECT_TRUE(p->noDataText().startsWith(QStringLiteral("The charts could not read the cache")))
        << p->noDataText().toStdString();
}

// A busy cache: 12 backends over 40 days, one commit a day. The legend keeps
// the 8 busiest and says what it left out.
TEST_F(ChartsPanelTest, ManyBackendsShowTheBusiestAndSaySo)
{
    {
        auto opened = Database::open(m_path.toStdString());
        ASSERT_TRUE(opened) << opened.message();
        SyncBatch batch;
        constexpr int kDays = 40;
        for (int d = 0; d < kDays; ++d) {
            const EpochSeconds t = m_now - (kDays - d) * 24 * kHour;
            batch.commits.push_back({Sha{shaOf(100 + d)}, 0, "main", EventType::Push, t, "", ""});
            for (int b = 0; b < 12; ++b) {
                if (b >= 8 && d % 2 == 0)
                    continue; // four quieter backends
                CheckRun r = run(100 + d, "org" + std::to_string(b) + "/backend", "test",
                                 (d + b) % 5 == 0 ? Conclusion::Failure : Conclusion::Success);
                r.reported.startedAt = t + 60;
                r.reported.completedAt = t + 60 + 600 + 60 * b;
                batch.runs.push_back(r);
            }
        }
        ASSERT_TRUE(RunStore(**opened).apply(batch));
    }
    auto p = panel();
    p->setDays(60);
    ASSERT_TRUE(settle(*p));
    EXPECT_EQ(p->chart()->series().size(), ChartBuilder::kMaxSeries);
    EXPECT_TRUE(p->note().contains(QStringLiteral("8 busiest of 12"))) << p->note().toStdString();
    EXPECT_FALSE(seriesNamed<QLineSeries>(p->chart(), QStringLiteral("org11/backend")));
    pictures(*p, QStringLiteral("pass-rate-many"));
    p->setPassRateOver(PassRateOver::Days);
    pictures(*p, QStringLiteral("pass-rate-days"));
    p->setChartKind(ChartKind::FailureClasses);
    ASSERT_TRUE(settle(*p));
    pictures(*p, QStringLiteral("failures-many"));
    p->setChartKind(ChartKind::Durations);
    ASSERT_TRUE(settle(*p));
    pictures(*p, QStringLiteral("durations-many"));
}
