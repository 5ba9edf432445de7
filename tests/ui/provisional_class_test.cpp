// Issue 36, "Provisional while evidence arrives": a failure's suggested class
// that rests on runs of its job whose results are not fetched yet reads as
// provisional, with how many are in, and no confidence; once every run's
// results are in, it reads with its confidence. Through the real window on a
// real cache: ten PRs ran the job, six of them not fetched yet, and the one
// other PR that fails the test too is among those six (the five greens'
// conclusions already say they failed nothing).
#include "sim_session.h"
#include "test_support.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/tests/test_details_view.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"
#include "relayhud/util/time.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTreeView>
#include <QtTest/QTest>

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

const std::string kTest = "test/test_ops.py::TestOps::test_a";

class ProvisionalClass : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_TRUE(m_dir.isValid());
        m_cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
        auto cache = Database::open(m_cachePath.toStdString());
        ASSERT_TRUE(cache) << cache.message();
        m_cache = std::move(*cache);
    }

    // PR (100 + n)'s head, n hours into the last day; its results stored
    // unless `fetched` is false (then its artifacts await a fetch).
    CheckRunRow head(int n, bool fails, bool fetched)
    {
        const EpochSeconds time = nowSeconds() - 24 * 3600 + n * 3600;
        CheckRun run;
        run.downstreamRepo = "torch-spyre/torch-spyre";
        run.upstreamSha = Sha{"c0000" + std::to_string(10 + n) + std::string(33, 'e')};
        run.workflow = "CI";
        run.jobName = "test";
        run.runId = "run-" + std::to_string(n);
        run.checkRunId = CheckRunId{"cr-" + std::to_string(n)};
        run.prNumber = PrNumber{100 + n};
        run.eventType = EventType::PullRequest;
        run.reported.status = RunStatus::Completed;
        run.reported.conclusion = fails ? Conclusion::Failure : Conclusion::Success;
        run.reported.startedAt = time;
        run.reported.completedAt = time + 600;
        run.reported.runUrl =
            "https://github.com/torch-spyre/torch-spyre/actions/runs/" + run.runId;
        run.reported.artifactUrl = run.reported.runUrl + "/artifacts";
        UpstreamCommit commit{run.upstreamSha,
                              run.prNumber,
                              "",
                              EventType::PullRequest,
                              time,
                              "PR " + std::to_string(run.prNumber.value),
                              "author" + std::to_string(n)};
        EXPECT_TRUE(RunStore(*m_cache).apply(SyncBatch{{}, {commit}, {run}, {}}));
        auto row = RunStore(*m_cache).checkRunRowFor(run.checkRunId);
        EXPECT_TRUE(row && *row);
        const CheckRunRow id = row && *row ? **row : CheckRunRow{};
        if (fetched)
            store(id, fails);
        else
            m_waiting.emplace_back(id, fails);
        return id;
    }

    void store(CheckRunRow row, bool fails)
    {
        auto writer =
            TestResultStore(*m_cache).beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
        ASSERT_TRUE(writer);
        TestCaseResult c;
        c.file = "test/test_ops.py";
        c.className = "TestOps";
        c.name = "test_a";
        c.identity = kTest;
        c.baseName = "TestOps::test_a";
        c.outcome = fails ? TestOutcome::Failed : TestOutcome::Passed;
        c.message.text = fails ? "AssertionError: Tensor-likes are not close!" : "";
        c.message.fullBytes = c.message.text.size();
        ASSERT_TRUE((*writer)->add(c));
        ASSERT_TRUE((*writer)->commit({}));
    }

    // Selects the run's cell and its failing test; the class line shown.
    QString shownClass(MainWindow& window, CheckRunRow row)
    {
        QSignalSpy shown(window.tests(), &TestsCoordinator::testsShown);
        if (!window.matrix()->selectRun(row)
            || !QTest::qWaitFor([&] { return !shown.isEmpty(); }, test::kWaitMs))
            return QStringLiteral("(not shown)");
        // Selected afresh (the panel may keep the test selected across runs).
        window.tests()->panel()->view()->setCurrentIndex({});
        if (!window.tests()->panel()->selectIdentity(QString::fromStdString(kTest)))
            return QStringLiteral("(not shown)");
        return window.tests()->panel()->detailsView()->triageText();
    }

    // The class column's text, and whether its chip reads provisional.
    static std::pair<QString, bool> classColumn(MainWindow& window)
    {
        TestsPanel& panel = *window.tests()->panel();
        const QModelIndex cell =
            panel.view()->currentIndex().siblingAtColumn(TestsModel::ClassColumn);
        return {cell.data().toString(), cell.data(TestsModel::ClassProvisionalRole).toBool()};
    }

    QTemporaryDir m_dir;
    QString m_cachePath;
    std::unique_ptr<Database> m_cache;
    std::vector<std::pair<CheckRunRow, bool>> m_waiting;
};

} // namespace

TEST_F(ProvisionalClass, ReadsProvisionalWithTheCountUntilEveryRunsResultsAreIn)
{
    CheckRunRow other;
    for (int n = 1; n <= 10; ++n)
        if (n != 8)
            other = head(n, n == 3, n >= 7);
    const CheckRunRow failing = head(8, true, true);
    m_cache.reset(); // closed as a sync leaves it
    MainWindow window(test::offlineSession(m_cachePath));
    window.resize(1366, 768);
    window.show();
    ASSERT_TRUE(
        QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, test::kWaitMs));

    const QString early = shownClass(window, failing);
    EXPECT_TRUE(early.startsWith(QStringLiteral("Regression (provisional: 4 of 5 runs' results "
                                                "fetched;")))
        << early.toStdString();
    EXPECT_FALSE(early.contains(u'%')) << "no confidence while evidence is missing";
    EXPECT_EQ(classColumn(window), std::pair(QStringLiteral("Regression (provisional)"), true));
    test::keepPictures(window, QStringLiteral("provisional_class"));

    // The rest arrive (an artifacts pass would store them): the class is
    // read again when the run is shown again.
    auto cache = Database::open(m_cachePath.toStdString());
    ASSERT_TRUE(cache) << cache.message();
    m_cache = std::move(*cache);
    for (const auto& [row, fails] : m_waiting)
        store(row, fails);
    ASSERT_NE(shownClass(window, other), QStringLiteral("(not shown)"));
    const QString late = shownClass(window, failing);
    EXPECT_TRUE(late.startsWith(QStringLiteral("Flaky (suggested, "))) << late.toStdString();
    EXPECT_TRUE(late.contains(QStringLiteral("% sure"))) << late.toStdString();
    EXPECT_EQ(classColumn(window), std::pair(QStringLiteral("Flaky"), false));
    test::keepPictures(window, QStringLiteral("provisional_class_complete"));
}
