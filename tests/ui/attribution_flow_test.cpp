// Attribution in the window, through the real path: the simulator's PR world
// over loopback, an artifact sync of the broken-trunk story's job into the
// cache, then the main window on that cache. A PR the culprit broke shows the
// test as already broken upstream, likely by the culprit (with its files);
// the culprit's own head shows it as the PR's regression. With
// RELAYHUD_UI_SHOTS=DIR it keeps pictures of both, in light and dark.
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/tests/test_details_view.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/watch/attributed_failures.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QApplication>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <map>
#include <memory>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

constexpr EpochSeconds kAnchor = 1796126400; // 2026-12-01 12:00 UTC

sim::SimDataset world()
{
    sim::SimConfig config;
    config.seed = 1;
    config.now = kAnchor;
    return sim::buildDataset(config);
}

class AttributionFlow : public ::testing::Test {
protected:
    void SetUp() override
    {
        std::signal(SIGPIPE, SIG_IGN);
        ASSERT_GT(m_server.start(0), 0);
        m_cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
        fetchStoryJob();
    }

    const sim::SimBrokenTrunk& story() const
    {
        return m_server.dataset().stories.brokenTrunk.front();
    }

    // Every run of the story's job with its results and job logs, as an
    // artifact sync of all runs leaves them.
    void fetchStoryJob()
    {
        auto cache = Database::open(m_cachePath.toStdString());
        ASSERT_TRUE(cache) << cache.message();
        const sim::SimDataset& data = m_server.dataset();
        SyncBatch batch{data.backends, data.commits, {}, {}};
        for (const sim::SimRow& row : data.rows)
            if (row.run.downstreamRepo == story().backend && row.run.jobName == story().job)
                batch.runs.push_back(row.run);
        ASSERT_TRUE(RunStore(**cache).apply(batch));
        auto blobs = ContentCache::open(m_dir.filePath(QStringLiteral("blobs")).toStdString());
        ASSERT_TRUE(blobs) << blobs.message();
        HttpClient http;
        ArtifactSettings settings;
        settings.githubApiUrl = m_server.githubApiUrl();
        settings.s3Endpoint = m_server.s3Endpoint();
        settings.s3Region = m_server.storeSettings().s3Region;
        const Credentials keys = simCredentials(m_server);
        ArtifactFetcher fetcher(http, *blobs, settings, keys);
        ArtifactSync sync(**cache, fetcher, settings);
        ArtifactSyncOptions options;
        options.policy = ArtifactPolicy::AllRuns;
        options.days = 0;
        options.maxRuns = 100'000;
        auto report = sync.run(options);
        ASSERT_TRUE(report) << report.message();
    }

    // The window on the fetched cache, synced, with `sha`'s cell of the
    // story's job selected and its tests shown.
    std::unique_ptr<MainWindow> showCell(const Sha& sha)
    {
        auto window = std::make_unique<MainWindow>(
            simSession(m_server, m_cachePath, simCredentials(m_server)));
        window->resize(1700, 1000);
        window->show();
        QSignalSpy synced(window->sync(), &SyncCoordinator::syncSucceeded);
        EXPECT_TRUE(synced.wait(kWaitMs));
        EXPECT_TRUE(
            QTest::qWaitFor([&] { return window->matrix()->model().rowCount() > 0; }, kWaitMs));
        const QModelIndex cell = test::jobCell(window->matrix()->model(), window->matrix()->proxy(),
                                               sha.value, story().backend, story().job);
        EXPECT_TRUE(cell.isValid()) << sha.value;
        if (!cell.isValid())
            return window;
        QSignalSpy shown(window->tests(), &TestsCoordinator::testsShown);
        window->matrix()->view()->scrollTo(cell);
        window->matrix()->view()->selectionModel()->setCurrentIndex(
            cell, QItemSelectionModel::ClearAndSelect);
        EXPECT_TRUE(QTest::qWaitFor([&] { return !shown.isEmpty(); }, kWaitMs));
        return window;
    }

    // The story test's triage in the window, with it selected in the table.
    const TestTriage* storyTriage(MainWindow& window)
    {
        auto cache = Database::open(m_cachePath.toStdString());
        EXPECT_TRUE(cache);
        auto id = EvidenceStore(**cache).testIdOf(story().test);
        EXPECT_TRUE(id && *id) << story().test;
        if (!id || !*id)
            return nullptr;
        TestsPanel& panel = *window.tests()->panel();
        EXPECT_TRUE(QTest::qWaitFor([&] { return panel.triageOf(**id) != nullptr; }, kWaitMs));
        EXPECT_TRUE(panel.selectTest(**id));
        QApplication::processEvents();
        return panel.triageOf(**id);
    }

    static void pictures(QWidget& window, const QString& name) { test::keepPictures(window, name); }

    sim::SimServer m_server{world()};
    QTemporaryDir m_dir;
    QString m_cachePath;
};

} // namespace

TEST_F(AttributionFlow, APrTheCulpritBrokeSaysAlreadyBrokenUpstreamLikelyByTheCulprit)
{
    const sim::SimDataset& data = m_server.dataset();
    std::map<Sha, EpochSeconds> times;
    for (const UpstreamCommit& c : data.commits)
        times[c.sha] = c.time;
    // The last PR head the culprit broke whose run of the job failed the test.
    Sha later;
    for (const sim::SimTruthLine& line : data.truth)
        if (line.cause == sim::SimCause::BrokenTrunk && line.test == story().test)
            for (const sim::SimRow& row : data.rows)
                if (row.run.checkRunId == line.checkRunId
                    && row.run.eventType == EventType::PullRequest)
                    later = row.run.upstreamSha;
    ASSERT_FALSE(later.empty());
    auto window = showCell(later);
    const TestTriage* triage = storyTriage(*window);
    ASSERT_NE(triage, nullptr);
    EXPECT_EQ(triage->suggested, triage::FailureClass::PreExisting) << triage->why.toStdString();
    const QString culprit = QStringLiteral("#%1").arg(story().culpritPr.value);
    EXPECT_TRUE(triage->why.contains(QStringLiteral("likely by ") + culprit))
        << triage->why.toStdString();
    const QString why = window->tests()->panel()->detailsView()->whyText();
    EXPECT_TRUE(why.contains(QStringLiteral("likely broken by ") + culprit)) << why.toStdString();
    EXPECT_TRUE(why.contains(QStringLiteral("/pull/%1/files").arg(story().culpritPr.value)))
        << why.toStdString();
    // A compare, if any, joins this PR's previous head and this one.
    std::map<std::string, PrNumber> prOf;
    for (const UpstreamCommit& c : data.commits)
        prOf[c.sha.value] = c.prNumber;
    const QString marker = QStringLiteral("/compare/");
    for (qsizetype at = why.indexOf(marker); at >= 0; at = why.indexOf(marker, at + 1)) {
        const std::string base = why.mid(at + marker.size(), 40).toStdString();
        const std::string head = why.mid(at + marker.size() + 43, 40).toStdString();
        EXPECT_EQ(head, later.value);
        EXPECT_EQ(prOf[base], prOf[later.value]) << "no compare between two PRs' heads";
    }
    pictures(*window, QStringLiteral("attribution_broken_upstream"));
}

TEST_F(AttributionFlow, TheCulpritsOwnHeadSaysItIsThisPrsRegression)
{
    auto window = showCell(m_server.dataset().stories.regressionFirstBadSha);
    const TestTriage* triage = storyTriage(*window);
    ASSERT_NE(triage, nullptr);
    EXPECT_EQ(triage->suggested, triage::FailureClass::Regression) << triage->why.toStdString();
    EXPECT_TRUE(
        triage->why.contains(QStringLiteral("this PR's heads fail it before anyone else's")))
        << triage->why.toStdString();
    pictures(*window, QStringLiteral("attribution_culprit"));
}

// The evidence behind a followed failure's second notification (watch and
// notify), read from the same cache as the window reads it: the culprit's own
// head is its regression; a later PR's failure is already broken upstream,
// likely by the culprit. Both name the culprit.
TEST_F(AttributionFlow, TheEvidenceAttributesFollowedFailuresToTheCulprit)
{
    const sim::SimDataset& data = m_server.dataset();
    auto cache = Database::open(m_cachePath.toStdString());
    ASSERT_TRUE(cache) << cache.message();
    const auto rowOf = [&](const CheckRun& run) -> CheckRunRow {
        auto row = RunStore(**cache).checkRunRowFor(run.checkRunId);
        return row && *row ? **row : CheckRunRow{};
    };
    QHash<qint64, WatchEvent> awaited;
    const auto await = [&](const CheckRun& run) {
        WatchEvent e;
        e.runRowId = rowOf(run);
        e.pr = run.prNumber.value;
        e.sha = QString::fromStdString(run.upstreamSha.value);
        e.backend = QString::fromStdString(run.downstreamRepo);
        e.job = QString::fromStdString(run.jobName);
        awaited.insert(e.runRowId.value, e);
        return e.runRowId;
    };
    CheckRunRow culpritRun, laterRun;
    for (const sim::SimRow& row : data.rows)
        if (row.run.upstreamSha == data.stories.regressionFirstBadSha
            && row.run.downstreamRepo == story().backend && row.run.jobName == story().job)
            culpritRun = await(row.run);
    // The last PR head the culprit broke whose run of the job failed the test.
    for (const sim::SimTruthLine& line : data.truth)
        if (line.cause == sim::SimCause::BrokenTrunk && line.test == story().test)
            for (const sim::SimRow& row : data.rows)
                if (row.run.checkRunId == line.checkRunId
                    && row.run.eventType == EventType::PullRequest)
                    laterRun = await(row.run);
    ASSERT_TRUE(culpritRun);
    ASSERT_TRUE(laterRun);
    const std::vector<CheckRunRow> runs{culpritRun, laterRun};
    auto suggestions = triage::suggestForRuns(**cache, runs);
    ASSERT_TRUE(suggestions) << suggestions.message();
    const std::vector<AttributedFailure> got = attributedFailures(*suggestions, awaited);
    const auto of = [&](CheckRunRow run) {
        return std::find_if(got.begin(), got.end(),
                            [run](const AttributedFailure& f) { return f.event.runRowId == run; });
    };
    ASSERT_NE(of(culpritRun), got.end());
    EXPECT_TRUE(of(culpritRun)->ownRegression);
    EXPECT_EQ(of(culpritRun)->culpritPr, story().culpritPr);
    EXPECT_TRUE(of(culpritRun)->test.endsWith(QString::fromStdString(story().test)))
        << of(culpritRun)->test.toStdString();
    ASSERT_NE(of(laterRun), got.end());
    EXPECT_FALSE(of(laterRun)->ownRegression);
    EXPECT_EQ(of(laterRun)->culpritPr, story().culpritPr);
    const Notice notice = noticeForAttributions(got);
    EXPECT_TRUE(notice.title.contains(QStringLiteral("#%1").arg(story().culpritPr.value)))
        << notice.title.toStdString();
}
