// From a cell to its tests, through the real path: the simulator's HUD and
// artifact stores over loopback, the cache, the worker thread and the tests
// panel. Also reports opened from disk, dropped files, and where tokens live.
#include "relayhud/logs/log_file.h"
#include "relayhud/sim/sim_artifacts.h"
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/ui/logs/log_view.h"
#include "relayhud/ui/logs/log_viewer.h"
#include "relayhud/ui/logs/log_window.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/results/report_window.h"
#include "relayhud/ui/settings/app_settings.h"
#include "relayhud/ui/settings/credential_store.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/logs_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QApplication>
#include <QDropEvent>
#include <QFile>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gmock/gmock.h>

#include <algorithm>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

const sim::SimRow* rowFor(const sim::SimDataset& data, const CheckRun& run)
{
    for (const sim::SimRow& row : data.rows)
        if (row.run.checkRunId == run.checkRunId && row.run.runAttempt == run.runAttempt)
            return &row;
    return nullptr;
}

class TestResultsFlow : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_GT(m_server.start(0), 0); }

    // Syncs the window from the simulator and selects a failed cell of `backend`.
    QModelIndex syncAndSelect(MainWindow& window, const QString& backend)
    {
        QSignalSpy synced(window.sync(), &SyncCoordinator::syncSucceeded);
        if (!synced.wait(kWaitMs))
            return {};
        if (!QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, kWaitMs))
            return {};
        const QModelIndex cell = failedCellWithArtifacts(window.matrix()->proxy(), backend);
        if (cell.isValid())
            window.matrix()->view()->selectionModel()->setCurrentIndex(
                cell, QItemSelectionModel::ClearAndSelect);
        return cell;
    }

    sim::SimServer m_server{dataset()};
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(TestResultsFlow, AFailedCellShowsTheFailingTestsOfItsArtifactsWithHistory)
{
    const QString cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
    MainWindow window(simSession(m_server, cachePath, simCredentials(m_server)));
    QSignalSpy shown(window.tests(), &TestsCoordinator::testsShown);
    const QModelIndex cell = syncAndSelect(window, QStringLiteral("spyre-labs/spyre-inductor-ci"));
    ASSERT_TRUE(cell.isValid());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !shown.isEmpty(); }, kWaitMs));

    const QList<QVariant> args = shown.takeLast();
    const int tests = args.at(1).toInt();
    const int failing = args.at(2).toInt();
    EXPECT_GT(tests, 0);
    EXPECT_GT(failing, 0);
    EXPECT_EQ(args.at(3).toInt(), failing) << "every failing test has a history strip";
    EXPECT_TRUE(window.tests()->panel()->isShowingTable());

    // The failing tests are the simulator's ground truth for that run.
    auto cache = Database::open(cachePath.toStdString());
    ASSERT_TRUE(cache);
    const CheckRunRow rowId{cell.data(MatrixModel::RunRowIdRole).toLongLong()};
    auto run = RunStore(**cache).checkRun(rowId);
    ASSERT_TRUE(run) << run.message();
    const sim::SimRow* row = rowFor(m_server.dataset(), *run);
    ASSERT_NE(row, nullptr);
    sim::SimArtifacts truth(m_server.dataset());
    auto expected = truth.failingTests(*row);
    auto testRun = TestResultStore(**cache).testRunForCheckRun(rowId);
    ASSERT_TRUE(testRun && *testRun);
    TestResultFilter onlyFailing;
    onlyFailing.outcomes = {TestOutcome::Failed, TestOutcome::Error, TestOutcome::XPassStrict};
    auto stored = TestResultStore(**cache).testResults((*testRun)->id, onlyFailing);
    ASSERT_TRUE(stored) << stored.message();
    std::vector<std::string> actual;
    for (const StoredTestResult& r : *stored)
        actual.push_back(r.identity);
    std::sort(expected.begin(), expected.end());
    std::sort(actual.begin(), actual.end());
    EXPECT_EQ(actual, expected);
    EXPECT_EQ(static_cast<std::size_t>(failing), expected.size());
    test::keepPicture(window, QStringLiteral("tests-of-a-failed-cell.png"));
}

TEST_F(TestResultsFlow, ShowInLogOpensTheJobsLogAtTheTestsFailure)
{
    const QString cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
    MainWindow window(simSession(m_server, cachePath, simCredentials(m_server)));
    QSignalSpy shown(window.tests(), &TestsCoordinator::testsShown);
    const QModelIndex cell = syncAndSelect(window, QStringLiteral("spyre-labs/spyre-inductor-ci"));
    ASSERT_TRUE(cell.isValid());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !shown.isEmpty(); }, kWaitMs));

    auto cache = Database::open(cachePath.toStdString());
    ASSERT_TRUE(cache);
    auto run =
        RunStore(**cache).checkRun(CheckRunRow{cell.data(MatrixModel::RunRowIdRole).toLongLong()});
    ASSERT_TRUE(run) << run.message();
    const sim::SimRow* row = rowFor(m_server.dataset(), *run);
    ASSERT_NE(row, nullptr);
    const auto failing = sim::SimArtifacts(m_server.dataset()).failingTests(*row);
    ASSERT_FALSE(failing.empty());
    const std::string& identity = failing.front();

    QSignalSpy opened(window.logs(), &LogsCoordinator::logOpened);
    window.logs()->showTestInLog(QString::fromStdString(identity));
    EXPECT_EQ(window.syncStatus()->stateText(), QStringLiteral("Downloading the job's log…"));
    ASSERT_TRUE(opened.wait(kWaitMs));
    // Once the log is open, the status bar no longer says it is downloading.
    EXPECT_TRUE(window.syncStatus()->stateText().startsWith(
        QStringLiteral("Opened the job's log in its own window: ")))
        << window.syncStatus()->stateText().toStdString();
    LogWindow* logWindow = window.logs()->lastLogWindow();
    ASSERT_NE(logWindow, nullptr);
    QSignalSpy resolved(logWindow->viewer(), &LogViewer::testFailureResolved);
    ASSERT_TRUE(resolved.wait(kWaitMs));
    EXPECT_TRUE(resolved.takeFirst().at(1).toBool());

    // The line it landed on tells that test's failure: pytest's section
    // header "____ Class.test ____", its FAILED line, or for a test that
    // errored at setup its ERROR line.
    auto log = LogFile::open(logWindow->viewer()->filePath().toStdString());
    ASSERT_TRUE(log) << log.message();
    (*log)->waitForIndex();
    auto line = (*log)->line(logWindow->viewer()->view()->currentLine());
    ASSERT_TRUE(line) << line.message();
    const std::string method = identity.substr(identity.rfind("::") + 2);
    EXPECT_NE(line->bytes.find(method), std::string::npos) << line->bytes;
    EXPECT_TRUE(line->bytes.find("____") != std::string::npos
                || line->bytes.find("FAILED") != std::string::npos
                || line->bytes.find("ERROR") != std::string::npos)
        << line->bytes;
    test::keepPicture(*logWindow, QStringLiteral("show-in-log.png"));

    // A finished job's log is downloaded once: asking again opens it without
    // a request to the server.
    const QString firstPath = logWindow->viewer()->filePath();
    const auto requestsBefore = m_server.requestCount();
    window.logs()->showTestInLog(QString::fromStdString(identity));
    ASSERT_TRUE(opened.wait(kWaitMs));
    ASSERT_NE(window.logs()->lastLogWindow(), logWindow);
    EXPECT_EQ(window.logs()->lastLogWindow()->viewer()->filePath(), firstPath);
    EXPECT_EQ(m_server.requestCount(), requestsBefore);
    window.logs()->lastLogWindow()->close();
    logWindow->close();
}

TEST_F(TestResultsFlow, AMissingTokenNamesTheSettingAndNeverLeaksTheOtherSecrets)
{
    const QString cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
    Credentials noGithub = simCredentials(m_server);
    noGithub.githubToken.clear();
    MainWindow window(simSession(m_server, cachePath, noGithub));
    QSignalSpy shown(window.tests(), &TestsCoordinator::testsShown);
    const QModelIndex cell = syncAndSelect(window, QStringLiteral("spyre-labs/spyre-inductor-ci"));
    ASSERT_TRUE(cell.isValid());
    ASSERT_TRUE(QTest::qWaitFor([&] { return !shown.isEmpty(); }, kWaitMs));

    auto cache = Database::open(cachePath.toStdString());
    ASSERT_TRUE(cache);
    auto testRun = TestResultStore(**cache).testRunForCheckRun(
        CheckRunRow{cell.data(MatrixModel::RunRowIdRole).toLongLong()});
    ASSERT_TRUE(testRun && *testRun);
    EXPECT_EQ((*testRun)->state, TestRunState::Unauthorized);
    EXPECT_THAT((*testRun)->message, ::testing::HasSubstr("GitHub token"));
    EXPECT_THAT((*testRun)->message,
                ::testing::Not(::testing::HasSubstr(m_server.s3SecretAccessKey())));
}

TEST_F(TestResultsFlow, OpeningAReportFromDiskShowsItInItsOwnWindow)
{
    const QString report = m_dir.filePath(QStringLiteral("report.xml"));
    QFile file(report);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"(<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" tests="3" failures="1" errors="0" skipped="1">
<testcase classname="test_ops.TestCommonPRIVATEUSE1" name="test_compare_cpu_add_spyre_float16" time="0.1">
<failure message="AssertionError: Tensor-likes are not close!">Traceback</failure></testcase>
<testcase classname="test_ops.TestCommonPRIVATEUSE1" name="test_compare_cpu_mul_spyre_float16" time="0.2"/>
<testcase classname="test_ops.TestCommonPRIVATEUSE1" name="test_compare_cpu_div_spyre_int64" time="0.0">
<skipped type="pytest.skip" message="dtype not supported"/></testcase>
</testsuite></testsuites>)");
    file.close();

    SessionConfig config = simSession(m_server, m_dir.filePath(QStringLiteral("c.sqlite")), {});
    config.syncOnStart = false;
    MainWindow window(config);
    QSignalSpy opened(window.logs(), &LogsCoordinator::reportOpened);
    window.logs()->openReports({report});
    ASSERT_TRUE(opened.wait(kWaitMs));
    ReportWindow* reportWindow = window.logs()->lastReportWindow();
    ASSERT_NE(reportWindow, nullptr);
    QSignalSpy loaded(reportWindow, &ReportWindow::loaded);
    ASSERT_TRUE(loaded.wait(kWaitMs));
    EXPECT_EQ(loaded.takeFirst().at(0).toInt(), 3);
    EXPECT_TRUE(reportWindow->panel()->isShowingTable());
    test::keepPicture(*reportWindow, QStringLiteral("opened-report.png"));
    reportWindow->close();
}

TEST_F(TestResultsFlow, DroppingAFileOpensIt)
{
    const QString report = m_dir.filePath(QStringLiteral("dropped.xml"));
    QFile file(report);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(R"(<testsuite name="pytest" tests="1" failures="0" errors="0" skipped="0">)"
               R"(<testcase classname="test_x.TestX" name="test_y" time="0.1"/></testsuite>)");
    file.close();
    SessionConfig config = simSession(m_server, m_dir.filePath(QStringLiteral("d.sqlite")), {});
    config.syncOnStart = false;
    MainWindow window(config);
    window.show();
    QSignalSpy opened(window.logs(), &LogsCoordinator::reportOpened);

    QMimeData mime;
    mime.setUrls({QUrl::fromLocalFile(report)});
    // As a real drag does: the enter makes the window the drop target.
    QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &enter);
    ASSERT_TRUE(enter.isAccepted());
    QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&window, &drop);
    ASSERT_TRUE(opened.wait(kWaitMs));
    ASSERT_NE(window.logs()->lastReportWindow(), nullptr);
    window.logs()->lastReportWindow()->close();
}

TEST_F(TestResultsFlow, AnUnreadableReportSaysWhy)
{
    const QString junk = m_dir.filePath(QStringLiteral("junk.xml"));
    QFile file(junk);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("this is not xml at all");
    file.close();
    SessionConfig config = simSession(m_server, m_dir.filePath(QStringLiteral("e.sqlite")), {});
    config.syncOnStart = false;
    MainWindow window(config);
    QSignalSpy failed(window.logs(), &LogsCoordinator::reportFailed);
    window.logs()->openReports({junk});
    ASSERT_TRUE(failed.wait(kWaitMs));
    EXPECT_THAT(failed.takeFirst().at(0).toString().toStdString(),
                ::testing::HasSubstr("junk.xml"));
}

TEST(Credentials, TheEnvironmentWinsAndAKeyPairNeverMixesSources)
{
    Credentials stored;
    stored.githubToken = "from-keychain";
    stored.s3AccessKeyId = "KEYCHAIN-ID";
    stored.s3SecretAccessKey = "keychain-secret";
    Credentials env;
    env.githubToken = "from-env";
    env.s3AccessKeyId = "ENV-ID"; // no secret in the environment: the pair stays whole
    const Credentials merged = CredentialStore::merge(env, stored);
    EXPECT_EQ(merged.githubToken, "from-env");
    EXPECT_EQ(merged.s3AccessKeyId, "KEYCHAIN-ID");
    EXPECT_EQ(merged.s3SecretAccessKey, "keychain-secret");

    env.s3SecretAccessKey = "env-secret";
    env.s3SessionToken = "session";
    const Credentials both = CredentialStore::merge(env, stored);
    EXPECT_EQ(both.s3AccessKeyId, "ENV-ID");
    EXPECT_EQ(both.s3SecretAccessKey, "env-secret");
    EXPECT_EQ(both.s3SessionToken, "session");
}

TEST(Credentials, ASessionStoreNeverTouchesTheKeychain)
{
    CredentialStore store;
    Credentials demo;
    demo.githubToken = "ghs_demo";
    store.useSessionOnly(demo);
    QSignalSpy loaded(&store, &CredentialStore::loaded);
    store.load();
    EXPECT_EQ(loaded.count(), 1); // answered at once: no keychain job
    EXPECT_EQ(store.credentials().githubToken, "ghs_demo");
    EXPECT_TRUE(store.keychainProblem().isEmpty());
}

TEST(ArtifactSettingsStore, RoundTripsThroughQSettingsWithoutTokens)
{
    QTemporaryDir dir;
    const QString ini = dir.filePath(QStringLiteral("settings.ini"));
    AppSettings s;
    s.githubApiUrl = QStringLiteral("https://ghe.example.com/api/v3");
    s.s3Endpoint = QStringLiteral("https://minio.example.com");
    s.s3Region = QStringLiteral("eu-west-1");
    s.artifactPolicy = ArtifactPolicy::OnDemand;
    {
        QSettings store(ini, QSettings::IniFormat);
        saveSettings(store, s);
    }
    QSettings store(ini, QSettings::IniFormat);
    const AppSettings back = loadSettings(store);
    EXPECT_EQ(back, s);
    EXPECT_EQ(store.value(QStringLiteral("artifacts/fetch")).toString(),
              QStringLiteral("on-demand"));
    for (const QString& key : store.allKeys())
        EXPECT_FALSE(key.contains(QStringLiteral("token"), Qt::CaseInsensitive)
                     || key.contains(QStringLiteral("secret"), Qt::CaseInsensitive))
            << key.toStdString();

    const ArtifactSettings core = artifactSettings(back);
    EXPECT_EQ(core.githubApiUrl, "https://ghe.example.com/api/v3");
    EXPECT_EQ(core.s3Endpoint, "https://minio.example.com");
    EXPECT_EQ(core.s3Region, "eu-west-1");
}
