// Keyboard triage across the matrix (issue 36) in a real main window: j walks
// the untriaged failures of one run, then crosses to the next failed cell's
// (over the simulator, tests fetched over loopback); the selection survives a
// tab switch, the filters and a sync; Hide green hides rows and columns.
// Links, jumps and the sheet of keys: keys_sheet_flow_test.cpp.
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/filter_bar.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/matrix/triage_walk.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include "sim_session.h"
#include "test_support.h"
#include "tests_fixtures.h"

#include <QApplication>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeView>

#include <gmock/gmock.h>

#include <iostream>
#include <set>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;

namespace {

const QString kBackend = QStringLiteral("spyre-labs/spyre-inductor-ci");

WalkCell walkCellOf(const QModelIndex& index)
{
    return {index.row(), index.column(),
            static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt()),
            index.data(MatrixModel::TriageRole).toInt()
                == static_cast<int>(MatrixModel::TriageMark::Untriaged)};
}

std::vector<WalkCell> shownCells(const QAbstractItemModel& shown)
{
    std::vector<WalkCell> cells;
    for (int r = 0; r < shown.rowCount(); ++r)
        for (int c = 0; c < shown.columnCount(); ++c)
            cells.push_back(walkCellOf(shown.index(r, c)));
    return cells;
}

qint64 runOf(const QModelIndex& index)
{
    return index.data(MatrixModel::RunRowIdRole).toLongLong();
}

// The shown run's untriaged failing tests, in the table's order (ungrouped).
std::vector<TestId> untriagedTests(const TestsPanel& panel)
{
    std::vector<TestId> ids;
    const TestsModel& model = panel.model();
    for (int row = 0; row < model.rowCount(); ++row) {
        const StoredTestResult* r = model.result(model.index(row, 0));
        const TestTriage* triage = r ? model.triage(r->testId) : nullptr;
        if (r && isFailingOutcome(r->outcome) && triage && !triage->hasHuman())
            ids.push_back(r->testId);
    }
    return ids;
}

void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier)
{
    QWidget* focus = QApplication::focusWidget();
    ASSERT_NE(focus, nullptr) << "nothing has the keyboard focus";
    QTest::keyClick(focus, key, modifiers);
}

class KeyboardTriageFlow : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_GT(m_server.start(0), 0); }

    std::unique_ptr<MainWindow> openSynced()
    {
        SessionConfig config = simSession(m_server, m_dir.filePath(QStringLiteral("c.sqlite")),
                                          simCredentials(m_server));
        config.settings.groupShards = false; // one run per cell
        auto window = std::make_unique<MainWindow>(std::move(config));
        window->resize(1600, 1000);
        window->show();
        QApplication::setActiveWindow(window.get());
        QSignalSpy synced(window->sync(), &SyncCoordinator::syncSucceeded);
        EXPECT_TRUE(synced.wait(kWaitMs));
        EXPECT_TRUE(
            QTest::qWaitFor([&] { return window->matrix()->model().rowCount() > 0; }, kWaitMs));
        return window;
    }

    // Waits until the tests dock shows the current cell's run.
    static bool waitForTestsOf(MainWindow& w, QSignalSpy& shown)
    {
        const qint64 run = runOf(w.matrix()->view()->currentIndex());
        return QTest::qWaitFor(
            [&] {
                for (const QList<QVariant>& args : shown)
                    if (args.at(0).toLongLong() == run)
                        return true;
                return false;
            },
            kWaitMs);
    }

    sim::SimServer m_server{dataset()};
    QTemporaryDir m_dir;
};

} // namespace

TEST_F(KeyboardTriageFlow, JWalksEveryUntriagedFailureAcrossThreeRunsAndKGoesBack)
{
    auto w = openSynced();
    TestsPanel& panel = *w->tests()->panel();
    w->matrix()->proxy().setBackends({kBackend});
    w->matrix()->proxy().setCellFilter(CellFilter::Untriaged);
    const TriageWalk walk(shownCells(w->matrix()->proxy()));
    ASSERT_GE(walk.stops().size(), 3u) << "the simulated world has too few untriaged failures";
    QSignalSpy shown(w->tests(), &TestsCoordinator::testsShown);

    w->matrix()->view()->selectionModel()->clear();
    w->matrix()->view()->setFocus();
    press(Qt::Key_J);
    const QModelIndex first = w->matrix()->view()->currentIndex();
    EXPECT_EQ(walkCellOf(first), walk.stops().front()) << "the newest, worst failure first";
    ASSERT_TRUE(waitForTestsOf(*w, shown));
    std::vector<qint64> runs{runOf(first)};
    std::vector<TestId> lastTestOfRun;
    QApplication::processEvents();
    test::keepPictures(*w, QStringLiteral("j-walk-run1"));
    for (int presses = 0; runs.size() < 3 && presses < 400; ++presses) {
        const QModelIndex before = w->matrix()->view()->currentIndex();
        const std::vector<TestId> left = untriagedTests(panel);
        const TestId testBefore = panel.selectedTestId();
        shown.clear();
        press(Qt::Key_J);
        const QModelIndex after = w->matrix()->view()->currentIndex();
        if (runOf(after) == runs.back()) { // a step within the run
            ASSERT_NE(panel.selectedTestId(), testBefore);
            EXPECT_THAT(untriagedTests(panel), ::testing::Contains(panel.selectedTestId()));
            continue;
        }
        // Crossed: only from the run's last untriaged failure (or a run
        // without any), to the next stop in reading order.
        if (!left.empty() && panel.isShowingTable()) {
            EXPECT_EQ(testBefore, left.back()) << "j left the run before its last failure";
        }
        lastTestOfRun.push_back(testBefore);
        const auto expected = walk.step(walkCellOf(before), true);
        ASSERT_TRUE(expected);
        EXPECT_EQ(walkCellOf(after), expected->cell);
        ASSERT_TRUE(waitForTestsOf(*w, shown));
        const std::vector<TestId> fresh = untriagedTests(panel);
        if (!fresh.empty()) {
            EXPECT_EQ(panel.selectedTestId(), fresh.front()) << "a new run opens on its first";
        }
        runs.push_back(runOf(after));
        QApplication::processEvents(); // the layout catches up with the new texts
        test::keepPictures(*w, QStringLiteral("j-walk-run%1").arg(runs.size()));
    }
    ASSERT_EQ(runs.size(), 3u) << "j never crossed to a third run";
    EXPECT_EQ(std::set<qint64>(runs.begin(), runs.end()).size(), 3u);

    // k on the third run's first untriaged failure goes back to the second
    // run, on its last.
    if (!untriagedTests(panel).empty()) {
        ASSERT_EQ(panel.selectedTestId(), untriagedTests(panel).front());
    }
    shown.clear();
    press(Qt::Key_K);
    EXPECT_EQ(runOf(w->matrix()->view()->currentIndex()), runs[1]);
    ASSERT_TRUE(waitForTestsOf(*w, shown));
    EXPECT_EQ(panel.selectedTestId(), lastTestOfRun.back());

    // n / p go cell by cell, whatever tests are left.
    press(Qt::Key_N);
    EXPECT_EQ(runOf(w->matrix()->view()->currentIndex()), runs[2]);
    press(Qt::Key_P);
    EXPECT_EQ(runOf(w->matrix()->view()->currentIndex()), runs[1]);
}

TEST_F(KeyboardTriageFlow, TheSelectionSurvivesATabSwitchTheFiltersAndASync)
{
    auto w = openSynced();
    TestsPanel& panel = *w->tests()->panel();
    QSignalSpy shown(w->tests(), &TestsCoordinator::testsShown);
    QSignalSpy details(w->details(), &DetailsCoordinator::runDetailsShown);
    const QModelIndex cell = failedCellWithArtifacts(w->matrix()->proxy(), kBackend);
    ASSERT_TRUE(cell.isValid());
    w->matrix()->view()->selectionModel()->setCurrentIndex(cell,
                                                           QItemSelectionModel::ClearAndSelect);
    ASSERT_TRUE(waitForTestsOf(*w, shown));
    ASSERT_TRUE(details.count() > 0 || details.wait(kWaitMs));
    const qint64 run = runOf(cell);
    ASSERT_TRUE(panel.enterRun(false)); // the last untriaged failure: not the default one
    const TestId test = panel.selectedTestId();
    const QString title = panel.titleText();
    const auto same = [&](const char* after) {
        SCOPED_TRACE(after);
        EXPECT_EQ(runOf(w->matrix()->view()->currentIndex()), run);
        EXPECT_EQ(w->details()->panel()->shownRowId().value, run);
        EXPECT_EQ(panel.titleText(), title);
        EXPECT_TRUE(panel.isShowingTable());
        EXPECT_EQ(panel.selectedTestId(), test);
        EXPECT_EQ(panel.view()->currentIndex().data(TestsModel::TestIdRole).toLongLong(),
                  test.value);
    };
    const int loadsBefore = static_cast<int>(shown.count());

    // A view with no row for the commit (the simulator's commits aim at no
    // release branch): the panels keep the run, and the cell comes back.
    QTabBar* tabs = w->commitViewTabs();
    tabs->setCurrentIndex(3);
    ASSERT_EQ(w->matrix()->proxy().filters().view, CommitView::Release);
    EXPECT_EQ(w->matrix()->proxy().rowCount(), 0);
    EXPECT_EQ(w->details()->panel()->shownRowId().value, run) << "an empty tab keeps the panels";
    EXPECT_EQ(panel.selectedTestId(), test);
    tabs->setCurrentIndex(0);
    same("back from an empty tab");
    tabs->setCurrentIndex(1); // pull requests, and back
    EXPECT_EQ(w->details()->panel()->shownRowId().value, run);
    tabs->setCurrentIndex(0);
    same("back from the pull requests");
    tabs->setCurrentIndex(4); // the backends overview, and back
    tabs->setCurrentIndex(0);
    same("back from the backends overview");

    // Hide green (the filter bar's choice), then off again; the other choices.
    QComboBox* cells = w->findChild<QComboBox*>(QStringLiteral("cellFilter"));
    ASSERT_NE(cells, nullptr);
    for (int choice : {1, 0, 2, 3, 0}) {
        cells->setCurrentIndex(choice);
        same(qPrintable(cells->currentText()));
    }
    // A text filter that hides the cell's column, then cleared.
    w->findChild<FilterBar*>()->textEdit()->setText(QStringLiteral("no-such-job-anywhere"));
    EXPECT_FALSE(w->matrix()->view()->currentIndex().isValid());
    EXPECT_EQ(panel.selectedTestId(), test);
    w->findChild<FilterBar*>()->textEdit()->clear();
    same("a text filter cleared");
    EXPECT_EQ(shown.count(), loadsBefore) << "no switch or filter reloaded the tests";

    // A sync merges a new snapshot under the cell.
    QSignalSpy refreshed(w->sync(), &SyncCoordinator::matrixRefreshed);
    w->sync()->syncNow();
    ASSERT_TRUE(refreshed.wait(kWaitMs));
    same("a sync");
}

TEST_F(KeyboardTriageFlow, HideGreenHidesGreenRowsAndColumns)
{
    auto w = openSynced();
    MatrixFilterProxy& proxy = w->matrix()->proxy();
    const int rows = proxy.rowCount();
    const int columns = proxy.columnCount();
    QComboBox* cells = w->findChild<QComboBox*>(QStringLiteral("cellFilter"));
    ASSERT_NE(cells, nullptr);
    cells->setCurrentIndex(1);
    EXPECT_TRUE(proxy.filters().hideAllGreen);
    const auto green = [](const QModelIndex& i) {
        return isGreenish(static_cast<CellState>(i.data(MatrixModel::CellStateRole).toInt()));
    };
    // Every row and column left has a cell that is not green...
    for (int r = 0; r < proxy.rowCount(); ++r) {
        bool any = false;
        for (int c = 0; c < proxy.columnCount(); ++c)
            any = any || !green(proxy.index(r, c));
        EXPECT_TRUE(any) << "row " << r;
    }
    for (int c = 0; c < proxy.columnCount(); ++c) {
        bool any = false;
        for (int r = 0; r < proxy.rowCount(); ++r)
            any = any || !green(proxy.index(r, c));
        EXPECT_TRUE(any) << "column " << c;
    }
    // ...and every one that went had none.
    const MatrixModel& model = w->matrix()->model();
    int greenRows = 0;
    for (int r = 0; r < model.rowCount(); ++r) {
        bool any = false;
        for (int c = 0; c < model.columnCount(); ++c)
            any = any || !green(model.index(r, c));
        greenRows += any ? 0 : 1;
    }
    int greenColumns = 0;
    for (int c = 0; c < model.columnCount(); ++c) {
        bool any = false;
        for (int r = 0; r < model.rowCount(); ++r)
            any = any || !green(model.index(r, c));
        greenColumns += any ? 0 : 1;
    }
    EXPECT_GT(greenRows + greenColumns, 0) << "nothing green to hide in the simulated world";
    EXPECT_EQ(proxy.rowCount(), rows - greenRows);
    EXPECT_EQ(proxy.columnCount(), columns - greenColumns);
    std::cout << "[ measured ] Hide green: " << rows << " x " << columns << " -> "
              << proxy.rowCount() << " x " << proxy.columnCount() << " (rows x columns)\n";
    QApplication::processEvents();
    test::keepPictures(*w, QStringLiteral("filter-hide-green"));

    cells->setCurrentIndex(3); // untriaged only
    for (int r = 0; r < proxy.rowCount(); ++r) {
        bool any = false;
        for (int c = 0; c < proxy.columnCount(); ++c)
            any = any
                  || proxy.index(r, c).data(MatrixModel::TriageRole).toInt()
                         == static_cast<int>(MatrixModel::TriageMark::Untriaged);
        EXPECT_TRUE(any) << "row " << r;
    }
    std::cout << "[ measured ] Untriaged only: " << proxy.rowCount() << " x " << proxy.columnCount()
              << "\n";
    QApplication::processEvents();
    test::keepPictures(*w, QStringLiteral("filter-untriaged"));
}
