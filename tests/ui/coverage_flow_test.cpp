// What a green covered, through the real path (issue 7): the simulator over
// loopback with its backends' outcome configs, every run's artifacts synced
// into the cache, the matrix's verdict marks, the Coverage tab of the
// incomplete-green story's run, and a missing mandatory test opening its
// entry in the config editor.
#include "relayhud/sim/sim_configs.h"
#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/charts/charts_panel.h"
#include "relayhud/ui/config/config_editor_window.h"
#include "relayhud/ui/config/config_tree_model.h"
#include "relayhud/ui/coverage/coverage_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/window/config_coordinator.h"
#include "relayhud/ui/window/coverage_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QApplication>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLabel>
#include <QSignalSpy>
#include <QStyle>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

class CoverageFlow : public ::testing::Test {
protected:
    void SetUp() override
    {
        ASSERT_GT(m_server.start(0), 0);
        auto written = sim::writeOutcomeConfigs(
            m_server.dataset(), m_dir.filePath(QStringLiteral("configs")).toStdString());
        ASSERT_TRUE(written) << written.message();
        for (const auto& [repo, path] : *written)
            m_configs.insert(QString::fromStdString(repo), QString::fromStdString(path));
    }

    // A window judged against the simulator's configs; results are fetched
    // when a run is opened, as most users have it.
    std::unique_ptr<MainWindow> syncedWindow()
    {
        SessionConfig session = simSession(m_server, m_dir.filePath(QStringLiteral("cache.sqlite")),
                                           simCredentials(m_server));
        session.settings.outcomeConfigs = m_configs;
        auto window = std::make_unique<MainWindow>(session);
        window->resize(1500, 950);
        window->show();
        QApplication::setActiveWindow(window.get());
        QSignalSpy synced(window->sync(), &SyncCoordinator::syncSucceeded);
        EXPECT_TRUE(synced.wait(kWaitMs));
        EXPECT_TRUE(
            QTest::qWaitFor([&] { return window->matrix()->model().rowCount() > 0; }, kWaitMs));
        window->coverage()->coverageDock()->show();
        window->coverage()->coverageDock()->raise();
        return window;
    }

    // Opens the cell (its results are fetched) and waits for its verdict
    // mark and its Coverage tab.
    static bool open(MainWindow& window, const QModelIndex& cell, MatrixModel::VerdictMark mark)
    {
        const CheckRunRow row{cell.data(MatrixModel::RunRowIdRole).toLongLong()};
        const QPersistentModelIndex kept(cell);
        window.matrix()->view()->selectionModel()->setCurrentIndex(
            cell, QItemSelectionModel::ClearAndSelect);
        const CoveragePanel* panel = window.coverage()->coveragePanel();
        const bool shown = QTest::qWaitFor(
            [&] {
                return kept.data(MatrixModel::VerdictRole).toInt() == static_cast<int>(mark)
                       && panel->shown() && panel->shown()->checkRunRow == row
                       && panel->shown()->testRun;
            },
            kWaitMs);
        if (!shown) {
            std::string reasons;
            if (panel->shown())
                for (const std::string& reason : panel->shown()->reasons)
                    reasons += "\n  " + reason;
            ADD_FAILURE() << "mark " << kept.data(MatrixModel::VerdictRole).toInt() << ", panel "
                          << (panel->shown() ? verdict::verdictName(panel->shown()->verdict)
                                             : "empty")
                          << "; status: " << window.syncStatus()->stateText().toStdString()
                          << reasons;
        }
        return shown;
    }

    static int markCount(MainWindow& window, MatrixModel::VerdictMark mark)
    {
        const QAbstractItemModel& m = window.matrix()->model();
        int count = 0;
        for (int r = 0; r < m.rowCount(); ++r)
            for (int c = 0; c < m.columnCount(); ++c)
                count +=
                    m.index(r, c).data(MatrixModel::VerdictRole).toInt() == static_cast<int>(mark)
                        ? 1
                        : 0;
        return count;
    }

    static QModelIndex cellOf(MainWindow& window, const Sha& sha, const std::string& backend,
                              const std::string& job)
    {
        return test::jobCell(window.matrix()->model(), window.matrix()->proxy(), sha.value, backend,
                             job);
    }

    sim::SimServer m_server{dataset()};
    QTemporaryDir m_dir;
    QMap<QString, QString> m_configs;
};

} // namespace

TEST_F(CoverageFlow, TheIncompleteGreenIsMarkedAndItsCoverageTabNamesTheMissingTests)
{
    const sim::SimStories& story = m_server.dataset().stories;
    ASSERT_FALSE(story.incompleteGreenShas.empty()) << "the dataset has the story";
    auto window = syncedWindow();
    EXPECT_EQ(markCount(*window, MatrixModel::VerdictMark::Verified)
                  + markCount(*window, MatrixModel::VerdictMark::Unverified),
              0)
        << "nothing fetched, nothing judged";

    // An ordinary green of the same job, on a commit outside the story: verified.
    QModelIndex ordinary;
    for (const UpstreamCommit& commit : m_server.dataset().commits) {
        const QModelIndex cell =
            cellOf(*window, commit.sha, story.incompleteGreenBackend, story.incompleteGreenJob);
        const bool inStory = std::find(story.incompleteGreenShas.begin(),
                                       story.incompleteGreenShas.end(), commit.sha)
                             != story.incompleteGreenShas.end();
        if (!inStory && cell.isValid()
            && cell.data(MatrixModel::CellStateRole).toInt() == static_cast<int>(CellState::Success)
            && cell.data(MatrixModel::HasArtifactsRole).toBool())
            ordinary = cell;
    }
    ASSERT_TRUE(ordinary.isValid());
    ASSERT_TRUE(open(*window, ordinary, MatrixModel::VerdictMark::Verified));
    CoveragePanel* panel = window->coverage()->coveragePanel();
    EXPECT_EQ(panel->banner()->text(), QStringLiteral("Verified green"));
    EXPECT_EQ(panel->missingGroup(), nullptr);

    // torch-spyre's config decides its tests through regex names, as the
    // real configs do: a green of it explains which listing decided what.
    // The newest commits' artifacts have not expired.
    QModelIndex spyre;
    const auto& commits = m_server.dataset().commits;
    for (auto it = commits.rbegin(); it != commits.rend(); ++it) {
        const UpstreamCommit& commit = *it;
        const QAbstractItemModel& m = window->matrix()->proxy();
        for (int r = 0; r < m.rowCount() && !spyre.isValid(); ++r) {
            if (m.headerData(r, Qt::Vertical, MatrixModel::ShaRole).toString().toStdString()
                != commit.sha.value)
                continue;
            for (int c = 0; c < m.columnCount() && !spyre.isValid(); ++c) {
                const QModelIndex candidate = m.index(r, c);
                if (m.headerData(c, Qt::Horizontal, MatrixModel::BackendRole).toString()
                        == QStringLiteral("spyre-labs/spyre-inductor-ci")
                    && candidate.data(MatrixModel::CellStateRole).toInt()
                           == static_cast<int>(CellState::Success)
                    && candidate.data(MatrixModel::HasArtifactsRole).toBool()
                    && m.headerData(c, Qt::Horizontal, MatrixModel::JobRole)
                           .toString()
                           .startsWith(QStringLiteral("test")))
                    spyre = candidate;
            }
        }
        if (spyre.isValid())
            break;
    }
    ASSERT_TRUE(spyre.isValid()) << "a torch-spyre green with artifacts";
    ASSERT_TRUE(open(*window, spyre, MatrixModel::VerdictMark::Verified));
    QTreeWidgetItem* listings = nullptr;
    for (int i = 0; i < panel->testsTree()->topLevelItemCount(); ++i)
        if (panel->testsTree()->topLevelItem(i)->text(0).startsWith(
                QStringLiteral("Config entries")))
            listings = panel->testsTree()->topLevelItem(i);
    ASSERT_NE(listings, nullptr);
    ASSERT_GT(listings->childCount(), 0);
    QTreeWidgetItem* regex = listings->child(0); // regexes come first
    EXPECT_TRUE(regex->text(0).contains(QStringLiteral(".*")) && regex->text(0).contains(u'|'))
        << regex->text(0).toStdString();
    EXPECT_TRUE(regex->text(1).startsWith(QStringLiteral("mandatory_success · ")))
        << regex->text(1).toStdString();
    ASSERT_GT(regex->childCount(), 0) << "examples of the tests it decided";
    regex->setExpanded(true);
    panel->testsTree()->scrollToItem(regex->child(regex->childCount() - 1));
    if (!qEnvironmentVariableIsEmpty("RELAYHUD_UI_SHOTS")) { // the whole tab, tall enough
        CoveragePanel whole;
        whole.resize(1200, 1500);
        whole.showVerdict(*panel->shown());
        whole.show();
        QApplication::processEvents();
        test::keepPicture(whole, QStringLiteral("coverage-tab-regex.png"));
    }
    QSignalSpy selected(panel, &CoveragePanel::testActivated);
    emit panel->testsTree()->itemClicked(regex->child(0), 0);
    ASSERT_EQ(selected.count(), 1);

    // The story's green: flagged in the matrix, its missing tests listed.
    const QModelIndex cell = cellOf(*window, story.incompleteGreenShas.front(),
                                    story.incompleteGreenBackend, story.incompleteGreenJob);
    ASSERT_TRUE(cell.isValid());
    ASSERT_TRUE(open(*window, cell, MatrixModel::VerdictMark::Unverified));
    EXPECT_EQ(panel->banner()->text(), QStringLiteral("Green, incomplete"));
    ASSERT_NE(panel->missingGroup(), nullptr);
    QStringList missing;
    for (int i = 0; i < panel->missingGroup()->childCount(); ++i)
        missing << panel->missingGroup()->child(i)->text(0);
    for (const std::string& name : story.incompleteGreenMissingTests)
        EXPECT_TRUE(missing.contains(QString::fromStdString(name))) << name;
    test::keepPicture(*window, QStringLiteral("coverage-tab-incomplete.png"));
    if (!qEnvironmentVariableIsEmpty("RELAYHUD_UI_SHOTS")) { // the same in a dark palette
        const QPalette palette = QApplication::palette();
        const QString style = QApplication::style()->name();
        applyDarkPalette(*qApp);
        QApplication::processEvents();
        test::keepPicture(*window, QStringLiteral("coverage-tab-incomplete-dark.png"));
        QApplication::setPalette(palette);
        QApplication::setStyle(style);
    }

    // A missing test opens the backend's config at its entry.
    emit panel->testsTree()->itemClicked(panel->missingGroup()->child(0), 0);
    ConfigEditorWindow* editor = window->configs()->openEditor();
    ASSERT_NE(editor, nullptr);
    EXPECT_TRUE(editor->isVisible());
    EXPECT_EQ(editor->model()->documentCount(), 1u) << "the backend's config was opened";
    editor->close();
}

TEST_F(CoverageFlow, TheHiddenFailureIsDisputedAndTheViewsShowNightliesAndReleases)
{
    const sim::SimStories& story = m_server.dataset().stories;
    ASSERT_FALSE(story.hiddenFailureShas.empty());
    auto window = syncedWindow();
    const QModelIndex cell = cellOf(*window, story.hiddenFailureShas.front(),
                                    story.hiddenFailureBackend, story.hiddenFailureJob);
    ASSERT_TRUE(cell.isValid());
    ASSERT_TRUE(open(*window, cell, MatrixModel::VerdictMark::Disputed))
        << "the self-reported green whose JUnit fails tests is disputed";
    EXPECT_EQ(window->coverage()->coveragePanel()->banner()->text(),
              QStringLiteral("Green, disputed"));

    // The charts of the synced cache, for a person to look at (their own
    // tests are charts_panel_test.cpp).
    if (!qEnvironmentVariableIsEmpty("RELAYHUD_UI_SHOTS")) {
        QSignalSpy drawn(window->coverage()->chartsPanel(), &ChartsPanel::chartShown);
        window->coverage()->chartsDock()->show();
        window->coverage()->chartsDock()->raise();
        window->coverage()->chartsPanel()->reload();
        if (drawn.wait(kWaitMs))
            test::keepPicture(*window, QStringLiteral("charts-tab.png"));
    }
    // A click on a commit's point selects the commit in the matrix.
    const QString sha = QString::fromStdString(story.hiddenFailureShas.front().value);
    emit window->coverage()->chartsPanel()->commitActivated(sha);
    EXPECT_EQ(window->matrix()->view()->currentIndex().data(MatrixModel::ShaRole).toString(), sha);

    QTabBar* views = window->commitViewTabs();
    views->setCurrentIndex(static_cast<int>(CommitView::Scheduled));
    const QAbstractItemModel& shown = window->matrix()->proxy();
    ASSERT_GT(shown.rowCount(), 0);
    for (int r = 0; r < shown.rowCount(); ++r) {
        const auto type = static_cast<EventType>(
            shown.headerData(r, Qt::Vertical, MatrixModel::EventTypeRole).toInt());
        EXPECT_TRUE(type == EventType::Nightly || type == EventType::Periodic);
    }
    EXPECT_LT(shown.columnCount(), window->matrix()->model().columnCount())
        << "jobs that never run on a schedule are left out";
    EXPECT_TRUE(views->tabText(static_cast<int>(CommitView::Scheduled))
                    .contains(QString::number(shown.rowCount())));
    test::keepPicture(*window, QStringLiteral("view-nightly.png"));

    // The HUD's rows do not say which branch a PR targets: no commit is known
    // to aim at release/*, and the view says why instead of showing nothing.
    views->setCurrentIndex(static_cast<int>(CommitView::Release));
    EXPECT_EQ(shown.rowCount(), 0);
    EXPECT_TRUE(window->matrix()->view()->emptyText().contains(QStringLiteral("release/*")));
    test::keepPicture(*window, QStringLiteral("view-release.png"));
}
