// Keyboard triage through the real path: the simulator over loopback, the
// cache, the tests panel's keys, the undo stack, the triage worker, the
// matrix marks, a restart, and a team's export imported into another cache.
#include "relayhud/store/database.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/ui/clusters/clusters_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/tests/test_details_view.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"
#include "relayhud/ui/window/triage_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <gtest/gtest.h>

#include <memory>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

const QString kBackend = QStringLiteral("spyre-labs/spyre-inductor-ci");

class TriageFlow : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_GT(m_server.start(0), 0);
        qputenv("RELAYHUD_AUTHOR", "alice");
    }
    void TearDown() override { qunsetenv("RELAYHUD_AUTHOR"); }

    // `groupShards` false: one run per cell, so that "every failure of the
    // cell" is the shown run's (a shard group's mark waits for every shard).
    std::unique_ptr<MainWindow> openWindow(const QString& cachePath, bool groupShards = true)
    {
        SessionConfig config = simSession(m_server, cachePath, simCredentials(m_server));
        config.settings.groupShards = groupShards;
        auto window = std::make_unique<MainWindow>(std::move(config));
        window->show();
        QApplication::setActiveWindow(window.get());
        return window;
    }

    // Syncs, selects the first failed cell of the backend with artifacts and
    // waits until its tests are shown. Returns the cell's row/column.
    QPersistentModelIndex showFailedCell(MainWindow& window)
    {
        QSignalSpy synced(window.sync(), &SyncCoordinator::syncSucceeded);
        QSignalSpy shown(window.tests(), &TestsCoordinator::testsShown);
        if (!synced.wait(kWaitMs)
            || !QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, kWaitMs))
            return {};
        const QModelIndex cell = failedCellWithArtifacts(window.matrix()->proxy(), kBackend);
        if (!cell.isValid())
            return {};
        window.matrix()->view()->selectionModel()->setCurrentIndex(
            cell, QItemSelectionModel::ClearAndSelect);
        if (!QTest::qWaitFor([&] { return !shown.isEmpty(); }, kWaitMs))
            return {};
        return cell;
    }

    static void press(TestsPanel& panel, Qt::Key key)
    {
        panel.view()->setFocus(Qt::OtherFocusReason);
        QTest::keyClick(panel.view(), key);
    }

    static std::vector<TriageTag> storedTags(const QString& cachePath)
    {
        auto cache = Database::open(cachePath.toStdString());
        EXPECT_TRUE(cache) << cache.message();
        if (!cache)
            return {};
        auto tags = TriageStore(**cache).triageTags();
        EXPECT_TRUE(tags) << tags.message();
        return tags ? *tags : std::vector<TriageTag>{};
    }

    sim::SimServer m_server{dataset()};
    QTemporaryDir m_dir;
};

} // namespace

// A cluster's texts come from CI (reasons, a nightly's free-text "SHA"):
// markup in them is shown as text in every tooltip, never rendered.
TEST(ClustersModelText, MarkupInCiTextIsShownAsTextInTooltips)
{
    auto data = std::make_shared<ClustersData>();
    triage::FailureCluster c;
    c.key = "RuntimeError: <b>key</b>";
    c.example = "RuntimeError: <img src=x>";
    c.count = 1;
    c.firstSeenSha = Sha{"<h1>APPROVED</h1>"};
    c.backends = {"org/<i>repo</i>"};
    c.jobs = {"CI / <u>test</u>"};
    data->clusters.push_back(c);
    ClustersModel model;
    test::CheckedModel checked(&model);
    model.setData(data);
    for (const int column : {int(ClustersModel::ReasonColumn), int(ClustersModel::FirstSeenColumn),
                             int(ClustersModel::BackendsColumn)}) {
        const QString tip = model.index(0, column).data(Qt::ToolTipRole).toString();
        SCOPED_TRACE(column);
        EXPECT_FALSE(tip.isEmpty());
        for (const char* tag : {"<b>", "<img", "<h1>", "<i>", "<u>"})
            EXPECT_FALSE(tip.contains(QLatin1String(tag))) << tip.toStdString();
    }
    EXPECT_TRUE(model.index(0, ClustersModel::FirstSeenColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("&lt;h1&gt;APPROVED&lt;/h1&gt;")));
}

TEST_F(TriageFlow, OneKeyTagsAFailureUndoRedoAndItSurvivesARestart)
{
    const QString cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
    TestId testId;
    {
        auto window = openWindow(cachePath);
        ASSERT_TRUE(showFailedCell(*window).isValid());
        TestsPanel& panel = *window->tests()->panel();
        // Every failing test comes with a suggestion and its "why".
        ASSERT_TRUE(panel.selectNextUntriaged(true)) << "a failed cell has an untriaged failure";
        testId = panel.selectedTestId();
        const TestTriage* suggested = panel.triageOf(testId);
        ASSERT_NE(suggested, nullptr);
        EXPECT_FALSE(suggested->hasHuman());
        EXPECT_FALSE(suggested->why.isEmpty()) << "a suggestion says why";
        EXPECT_FALSE(panel.detailsView()->whyText().isEmpty());
        EXPECT_TRUE(panel.model()
                        .indexOfTest(testId, TestsModel::ClassColumn)
                        .data(TestsModel::ClassRole)
                        .isValid());

        QSignalSpy written(window->triage(), &TriageCoordinator::triageWritten);
        press(panel, Qt::Key_I); // infra
        const TestTriage* tagged = panel.triageOf(testId);
        ASSERT_NE(tagged, nullptr);
        ASSERT_TRUE(tagged->hasHuman()) << "the key shows at once";
        EXPECT_EQ(tagged->tag->cls, triage::FailureClass::Infra);
        EXPECT_EQ(tagged->tag->author, "alice");
        EXPECT_TRUE(panel.model()
                        .indexOfTest(testId, TestsModel::ClassColumn)
                        .data(TestsModel::ClassHumanRole)
                        .toBool());
        ASSERT_TRUE(written.wait(kWaitMs));
        ASSERT_EQ(storedTags(cachePath).size(), 1u);

        window->triage()->undoStack()->undo();
        EXPECT_FALSE(panel.triageOf(testId)->hasHuman()) << "undo goes back to the suggestion";
        ASSERT_TRUE(written.wait(kWaitMs));
        EXPECT_TRUE(storedTags(cachePath).empty()) << "undo removes the row it added";

        window->triage()->undoStack()->redo();
        ASSERT_TRUE(written.wait(kWaitMs));
        const auto tags = storedTags(cachePath);
        ASSERT_EQ(tags.size(), 1u);
        EXPECT_EQ(tags[0].cls, triage::FailureClass::Infra);
        EXPECT_EQ(tags[0].target.repo, kBackend.toStdString());
        EXPECT_FALSE(tags[0].target.test.empty());

        // j moves on to the next untriaged failure, never back to the tagged
        // one: with none left in this run, on to the next failed cell.
        const bool another = panel.selectNextUntriaged(true);
        if (another)
            panel.selectTest(testId);
        const qint64 run =
            window->matrix()->view()->currentIndex().data(MatrixModel::RunRowIdRole).toLongLong();
        press(panel, Qt::Key_J);
        if (another)
            EXPECT_NE(panel.selectedTestId(), testId);
        else
            EXPECT_NE(window->matrix()
                          ->view()
                          ->currentIndex()
                          .data(MatrixModel::RunRowIdRole)
                          .toLongLong(),
                      run)
                << "no other untriaged failure in the run: on to the next failed cell";
    }
    // A restart reads the tag back from the cache.
    auto again = openWindow(cachePath);
    ASSERT_TRUE(showFailedCell(*again).isValid());
    const TestTriage* restored = again->tests()->panel()->triageOf(testId);
    ASSERT_NE(restored, nullptr);
    ASSERT_TRUE(restored->hasHuman());
    EXPECT_EQ(restored->tag->cls, triage::FailureClass::Infra);
}

TEST_F(TriageFlow, TaggingEveryFailureMarksTheCellAndExportImportRoundTrips)
{
    const QString cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
    auto window = openWindow(cachePath, false);
    const QPersistentModelIndex cell = showFailedCell(*window);
    ASSERT_TRUE(cell.isValid());
    EXPECT_EQ(cell.data(MatrixModel::TriageRole).toInt(),
              static_cast<int>(MatrixModel::TriageMark::Untriaged));
    TestsPanel& panel = *window->tests()->panel();
    QSignalSpy written(window->triage(), &TriageCoordinator::triageWritten);
    QSignalSpy refreshed(window->sync(), &SyncCoordinator::matrixRefreshed);
    panel.view()->selectAll();
    press(panel, Qt::Key_F); // flaky, every failure at once
    ASSERT_TRUE(written.wait(kWaitMs));
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            return cell.data(MatrixModel::TriageRole).toInt()
                   == static_cast<int>(MatrixModel::TriageMark::Triaged);
        },
        kWaitMs))
        << "the matrix marks a cell whose failures are all triaged";
    const auto tags = storedTags(cachePath);
    ASSERT_GE(tags.size(), 1u);
    test::keepPicture(*window, QStringLiteral("triage_tagged.png"));

    const QString exported = m_dir.filePath(QStringLiteral("team.json"));
    window->triage()->exportTriage(exported);
    ASSERT_TRUE(QTest::qWaitFor([&] { return QFile::exists(exported); }, kWaitMs));

    // Another maintainer's cache of the same relay data takes them in.
    const QString otherPath = m_dir.filePath(QStringLiteral("other.sqlite"));
    auto other = openWindow(otherPath);
    ASSERT_TRUE(showFailedCell(*other).isValid());
    QSignalSpy imported(other->triage(), &TriageCoordinator::triageImported);
    other->triage()->importTriage(exported);
    ASSERT_TRUE(imported.wait(kWaitMs));
    EXPECT_EQ(imported.takeFirst().at(0).toString(), QString());
    EXPECT_EQ(storedTags(otherPath), tags) << "the round trip keeps every field";
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const TestTriage* shown = other->tests()->panel()->triageOf(panel.selectedTestId());
            return shown && shown->hasHuman();
        },
        kWaitMs))
        << "the shown run picks up the imported tags";

    // A broken file changes nothing and says why.
    const QString broken = m_dir.filePath(QStringLiteral("broken.json"));
    QFile file(broken);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("{\"format\": \"relayhud-triage\", \"version\": 1, \"tags\": [{\"repo\": ");
    file.close();
    other->triage()->importTriage(broken);
    ASSERT_TRUE(imported.wait(kWaitMs));
    EXPECT_FALSE(imported.takeFirst().at(0).toString().isEmpty());
    EXPECT_EQ(storedTags(otherPath), tags);
}

TEST_F(TriageFlow, OneKeyOnAClusterTagsEveryMemberAndUndoTakesThemAllBack)
{
    const QString cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
    auto window = openWindow(cachePath);
    ASSERT_TRUE(showFailedCell(*window).isValid()); // fetches that run's results
    ClustersPanel& panel = *window->triage()->clustersPanel();
    test::CheckedModel checked(&panel.model()); // through every reload below
    QSignalSpy clustered(window->triage(), &TriageCoordinator::clustersShown);
    window->triage()->reloadClusters();
    ASSERT_TRUE(clustered.wait(kWaitMs));
    ASSERT_GT(panel.model().rowCount(), 0);
    panel.view()->setCurrentIndex(panel.model().index(0, 0));
    const std::size_t members = panel.selectedTargets().size();
    ASSERT_EQ(members, panel.model().cluster(0)->count);
    EXPECT_FALSE(panel.membersText().isEmpty());

    QSignalSpy written(window->triage(), &TriageCoordinator::triageWritten);
    panel.view()->setFocus(Qt::OtherFocusReason);
    QTest::keyClick(panel.view(), Qt::Key_B);
    ASSERT_TRUE(written.wait(kWaitMs));
    auto tags = storedTags(cachePath);
    ASSERT_EQ(tags.size(), members);
    panel.resize(1400, 320);
    test::keepPicture(panel, QStringLiteral("triage_clusters.png"));
    for (const TriageTag& tag : tags)
        EXPECT_EQ(tag.cls, triage::FailureClass::BackendBug);
    // The clusters are read again with their new tag.
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const triage::FailureCluster* first = panel.model().cluster(0);
            return first && first->tagState == triage::ClusterTagState::Tagged;
        },
        kWaitMs));

    window->triage()->undoStack()->undo();
    ASSERT_TRUE(written.wait(kWaitMs));
    EXPECT_TRUE(storedTags(cachePath).empty());
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            const triage::FailureCluster* first = panel.model().cluster(0);
            return first && first->tagState != triage::ClusterTagState::Tagged;
        },
        kWaitMs));
    EXPECT_TRUE(checked.warnings().isEmpty()) << checked.warnings().join(u'\n').toStdString();
}
