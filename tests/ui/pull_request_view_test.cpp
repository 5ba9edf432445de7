// The matrix's "Pull requests" view (issue 17): one row per PR with each
// job's latest run across its heads, as the PyTorch HUD's per-backend page
// (pytorch/test-infra torchci/pages/crcr/[org]/[repo].tsx buildMatrix(),
// @61a77570), but across backends; earlier heads under an expanded PR; the
// model, proxy, header and main window that show it.
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/commit_header_view.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/matrix/pull_request_rows.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QAction>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabBar>
#include <QTemporaryDir>
#include <QTest>

#include <gmock/gmock.h>

#include <algorithm>
#include <map>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

namespace {

MatrixCell startedCell(Conclusion conclusion, std::int64_t rowId, EpochSeconds started,
                       std::uint8_t attempts = 1)
{
    MatrixCell c = cell(conclusion, rowId, attempts);
    c.startedAt = started;
    return c;
}

// PR 7 has three heads (c7 newest), PR 8 one, and a push and a nightly
// without a PR. Columns: test (0), lint (1), build (2).
MatrixSnapshot threeHeads()
{
    MatrixSnapshot snap = snapshot(
        {commit("c7c7c7c7", 300, 7), commit("b8b8b8b8", 250, 8), commit("b7b7b7b7", 200, 7),
         commit("ffff0000", 180, 0, "main", EventType::Push), commit("a7a7a7a7", 100, 7),
         commit("eeee0000", 50, 0, "main", EventType::Nightly)},
        {column("org/a", "test", 1), column("org/a", "lint", 2), column("org/b", "build", 3)});
    snap.rows[0].title = ""; // pr-info not read for the newest head yet
    snap.rows[2].title = "Fix the scan kernel";
    snap.rows[2].author = "alice";
    // test: failed on the oldest head, passed on the newest.
    setCell(snap, 4, 0, startedCell(Conclusion::Failure, 10, 110));
    setCell(snap, 0, 0, startedCell(Conclusion::Success, 11, 310));
    // lint: only the middle head ran it.
    setCell(snap, 2, 1, startedCell(Conclusion::Failure, 12, 210));
    // build: the newest head's run started first; the middle head's was
    // re-run later, so it is the latest run of the job in the PR.
    setCell(snap, 0, 2, startedCell(Conclusion::Success, 13, 305));
    setCell(snap, 2, 2, startedCell(Conclusion::Failure, 14, 320, 2));
    setCell(snap, 1, 0, startedCell(Conclusion::Success, 20, 260));
    setCell(snap, 3, 0, startedCell(Conclusion::Success, 30, 190));
    setCell(snap, 5, 0, startedCell(Conclusion::Success, 40, 60));
    return snap;
}

std::vector<std::string> shas(const MatrixSnapshot& snap)
{
    std::vector<std::string> out;
    for (const UpstreamCommit& c : snap.rows)
        out.push_back(c.sha.value.substr(0, 2));
    return out;
}

// The row's runs by their numbers, for ElementsAre.
std::vector<std::int64_t> runs(const MatrixSnapshot& snap, std::size_t row)
{
    std::vector<std::int64_t> out;
    for (std::size_t c = 0; c < snap.columns.size(); ++c)
        out.push_back(snap.cell(row, c).runRowId.value);
    return out;
}

} // namespace

TEST(PullRequestRows, OneRowPerPullRequestNewestFirstWithoutPushesAndNightlies)
{
    const PullRequestMatrix prs = pullRequestMatrix(threeHeads(), {});
    // PR 7's latest activity is 320 (the re-run), PR 8's 260.
    EXPECT_THAT(shas(prs.matrix), ElementsAre("c7", "b8"));
    ASSERT_EQ(prs.rows.size(), 2u);
    EXPECT_EQ(prs.rows[0].prNumber, PrNumber{7});
    EXPECT_EQ(prs.rows[0].heads, 3);
    EXPECT_EQ(prs.rows[0].kind, PullRequestRow::Kind::Latest);
    EXPECT_FALSE(prs.rows[0].expanded);
    EXPECT_EQ(prs.rows[1].heads, 1);
    // The row is the newest head, timed at the PR's latest activity, titled
    // from pr-info on any head.
    EXPECT_EQ(prs.matrix.rows[0].time, 320);
    EXPECT_EQ(prs.matrix.rows[0].title, "Fix the scan kernel");
    EXPECT_EQ(prs.matrix.rows[0].author, "alice");
    EXPECT_EQ(prs.matrix.columns.size(), 3u);
    EXPECT_EQ(prs.matrix.cells.size(), 6u);
    EXPECT_EQ(countPullRequests(threeHeads()), 2);
}

TEST(PullRequestRows, EachJobShowsItsLatestRunAcrossTheHeads)
{
    const PullRequestMatrix prs = pullRequestMatrix(threeHeads(), {});
    // test: the newest head's pass, not the oldest head's failure; lint: the
    // only run, from the middle head; build: the middle head's re-run, the
    // latest start (the HUD's "highest run_attempt" would pick it too).
    EXPECT_THAT(runs(prs.matrix, 0), ElementsAre(11, 12, 14));
    EXPECT_EQ(prs.matrix.cell(0, 2).attempts, 2);
    EXPECT_EQ(prs.carried.size(), 2u);
    EXPECT_EQ(prs.carried.at(CheckRunRow{12}), "b7b7b7b7");
    EXPECT_EQ(prs.carried.at(CheckRunRow{14}), "b7b7b7b7");
    EXPECT_THAT(runs(prs.matrix, 1), ElementsAre(20, 0, 0));
}

TEST(PullRequestRows, AnUnstartedRunOnTheNewestHeadIsItsLatest)
{
    MatrixSnapshot snap = threeHeads();
    MatrixCell queued = running(15);
    queued.status = RunStatus::Queued;
    queued.startedAt = 0;
    setCell(snap, 0, 1, queued); // lint queued on the newest head
    const PullRequestMatrix prs = pullRequestMatrix(snap, {});
    EXPECT_EQ(prs.matrix.cell(0, 1).runRowId, CheckRunRow{15});
    EXPECT_EQ(prs.carried.count(CheckRunRow{15}), 0u);
}

TEST(PullRequestRows, AnExpandedPullRequestIsFollowedByItsEarlierHeads)
{
    const PullRequestMatrix prs = pullRequestMatrix(threeHeads(), {7, 8});
    EXPECT_THAT(shas(prs.matrix), ElementsAre("c7", "b7", "a7", "b8"));
    ASSERT_EQ(prs.rows.size(), 4u);
    EXPECT_TRUE(prs.rows[0].expanded);
    EXPECT_EQ(prs.rows[1].kind, PullRequestRow::Kind::EarlierHead);
    EXPECT_EQ(prs.rows[2].kind, PullRequestRow::Kind::EarlierHead);
    EXPECT_EQ(prs.rows[2].prNumber, PrNumber{7});
    EXPECT_FALSE(prs.rows[3].expanded) << "one head: nothing to expand";
    // Earlier heads keep their own cells.
    EXPECT_THAT(runs(prs.matrix, 1), ElementsAre(0, 12, 14));
    EXPECT_THAT(runs(prs.matrix, 2), ElementsAre(10, 0, 0));
}

TEST(PullRequestRows, NoPullRequestsNoRows)
{
    const MatrixSnapshot snap =
        snapshot({commit("ffff0000", 180, 0, "main", EventType::Push)}, {column("org/a", "t", 1)});
    const PullRequestMatrix prs = pullRequestMatrix(snap, {1});
    EXPECT_THAT(prs.matrix.rows, IsEmpty());
    EXPECT_THAT(prs.matrix.cells, IsEmpty());
    EXPECT_EQ(prs.matrix.columns.size(), 1u);
    EXPECT_EQ(pullRequestMatrix(MatrixSnapshot{}, {}).matrix.rows.size(), 0u);
}

TEST(PullRequestModel, TheProxysViewSwitchesTheModelsRowsAndBackKeepingTheCurrentCell)
{
    MatrixModel model;
    model.merge(threeHeads());
    MatrixFilterProxy proxy;
    proxy.setSourceModel(&model);
    CheckedModel checked(&proxy);
    QItemSelectionModel selection(&proxy);
    selection.setCurrentIndex(proxy.index(0, 0), QItemSelectionModel::ClearAndSelect); // c7, test
    EXPECT_EQ(rowsInView(model.commits(), CommitView::PullRequests), 2);

    proxy.setCommitView(CommitView::PullRequests);
    EXPECT_TRUE(model.pullRequestView());
    ASSERT_EQ(proxy.rowCount(), 2);
    EXPECT_EQ(model.commits().rows.size(), 6u) << "the commits stay as merged";
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::RowKindRole).toInt(),
              static_cast<int>(MatrixModel::RowKind::PullRequest));
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::HeadsRole).toInt(), 3);
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong(), 7);
    EXPECT_EQ(selection.currentIndex().data(MatrixModel::ShortShaRole).toString(),
              QStringLiteral("c7c7c7c"))
        << "the newest head's row became its PR's row";
    // The columns that never ran on a PR stay (all three did).
    EXPECT_EQ(proxy.columnCount(), 3);
    // The carried lint cell says which head it ran on, and its commit is that head.
    const int lint = 1;
    EXPECT_EQ(proxy.index(0, lint).data(MatrixModel::CarriedFromRole).toString(),
              QStringLiteral("b7b7b7b7"));
    EXPECT_EQ(proxy.index(0, 0).data(MatrixModel::CarriedFromRole).toString(), QString());
    EXPECT_THAT(proxy.index(0, lint).data(Qt::ToolTipRole).toString().toStdString(),
                ::testing::HasSubstr("ran on an earlier head, b7b7b7b"));
    const QModelIndex source = proxy.mapToSource(proxy.index(0, lint));
    ASSERT_NE(model.runCommitAt(source.row(), source.column()), nullptr);
    EXPECT_EQ(model.runCommitAt(source.row(), source.column())->sha.value, "b7b7b7b7");
    EXPECT_EQ(model.runCommitAt(source.row(), 0)->sha.value, "c7c7c7c7");

    proxy.resetFilters(); // back to every commit
    EXPECT_FALSE(model.pullRequestView());
    EXPECT_EQ(proxy.rowCount(), 6);
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::RowKindRole).toInt(),
              static_cast<int>(MatrixModel::RowKind::Commit));
    EXPECT_EQ(proxy.index(0, lint).data(MatrixModel::RunRowIdRole).toLongLong(), 0);
    EXPECT_EQ(selection.currentIndex().data(MatrixModel::RunRowIdRole).toLongLong(), 11);
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(PullRequestModel, ExpandingInsertsTheEarlierHeadsAndASyncKeepsThemExpanded)
{
    MatrixModel model;
    model.merge(threeHeads());
    MatrixFilterProxy proxy;
    proxy.setSourceModel(&model);
    CheckedModel checked(&proxy);
    proxy.setCommitView(CommitView::PullRequests);
    QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
    model.setExpanded(7, true);
    ASSERT_EQ(proxy.rowCount(), 4);
    EXPECT_TRUE(proxy.headerData(0, Qt::Vertical, MatrixModel::ExpandedRole).toBool());
    EXPECT_FALSE(headers.isEmpty()) << "the PR's row repaints its disclosure";
    EXPECT_EQ(proxy.headerData(1, Qt::Vertical, MatrixModel::RowKindRole).toInt(),
              static_cast<int>(MatrixModel::RowKind::EarlierHead));
    EXPECT_EQ(proxy.headerData(1, Qt::Vertical, MatrixModel::ShortShaRole).toString(),
              QStringLiteral("b7b7b7b"));
    // The lint run is carried into the PR's row, and is its own on its head's.
    EXPECT_EQ(proxy.index(0, 1).data(MatrixModel::CarriedFromRole).toString(),
              QStringLiteral("b7b7b7b7"));
    EXPECT_EQ(proxy.index(1, 1).data(MatrixModel::RunRowIdRole).toLongLong(), 12);
    EXPECT_EQ(proxy.index(1, 1).data(MatrixModel::CarriedFromRole).toString(), QString());

    // A sync brings a fourth head: it becomes the PR's row, the old newest
    // head an earlier one, still expanded.
    MatrixSnapshot next = threeHeads();
    next.rows.insert(next.rows.begin(), commit("d7d7d7d7", 400, 7));
    next.cells.insert(next.cells.begin(), next.columns.size(), MatrixCell{});
    next.cells[0] = startedCell(Conclusion::Failure, 16, 410);
    model.merge(next);
    ASSERT_EQ(proxy.rowCount(), 5);
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::ShortShaRole).toString(),
              QStringLiteral("d7d7d7d"));
    EXPECT_EQ(proxy.headerData(0, Qt::Vertical, MatrixModel::HeadsRole).toInt(), 4);
    EXPECT_EQ(proxy.headerData(1, Qt::Vertical, MatrixModel::ShortShaRole).toString(),
              QStringLiteral("c7c7c7c"));
    EXPECT_EQ(proxy.index(0, 0).data(MatrixModel::RunRowIdRole).toLongLong(), 16);

    model.setExpanded(7, false);
    EXPECT_EQ(proxy.rowCount(), 2);
    EXPECT_THAT(checked.warnings(), IsEmpty());
}

TEST(PullRequestModel, TheHeaderSaysHowManyHeadsAndAClickExpandsThem)
{
    MatrixModel model;
    model.merge(threeHeads());
    MatrixFilterProxy proxy;
    proxy.setSourceModel(&model);
    proxy.setCommitView(CommitView::PullRequests);
    MatrixView view;
    view.setModel(&proxy);
    view.resize(700, 300);
    view.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
    CommitHeaderView* header = view.commitHeader();
    QSignalSpy toggled(header, &CommitHeaderView::pullRequestToggled);
    const QPoint prRow(header->width() / 2, header->sectionViewportPosition(0) + 5);
    const QPoint singleHeadRow(header->width() / 2, header->sectionViewportPosition(1) + 5);
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, singleHeadRow);
    EXPECT_TRUE(toggled.isEmpty()) << "a PR with one head has nothing to show";
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, prRow);
    ASSERT_EQ(toggled.count(), 1);
    EXPECT_EQ(toggled.takeFirst().at(0).toInt(), 0);
    model.setExpanded(7, true);
    keepPictures(view, QStringLiteral("pull-requests-expanded"));
}

// The window's action that `key` triggers; nullptr when none.
static QAction* actionWithShortcut(MainWindow& w, Qt::Key key)
{
    for (QAction* action : w.findChildren<QAction*>())
        if (action->shortcut() == QKeySequence(key))
            return action;
    return nullptr;
}

// A main window over a cache filled from the simulator's data: the tab, the
// PR rows, a click on a PR's heads, and a commit link to an earlier head.
class PullRequestFlow : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
        ui::test::fillCache(m_cachePath.toStdString(), ui::test::dataset());
    }

    QTemporaryDir m_dir;
    QString m_cachePath;
};

TEST_F(PullRequestFlow, ThePullRequestsTabShowsOneRowPerPrAndAClickShowsItsEarlierHeads)
{
    MainWindow w(ui::test::offlineSession(m_cachePath));
    w.resize(1600, 900);
    QSignalSpy refreshed(w.sync(), &SyncCoordinator::matrixRefreshed);
    ASSERT_TRUE(refreshed.wait(30000));
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    MatrixModel& model = w.matrix()->model();
    // The PRs in the matrix and their heads, from the commits it shows.
    std::map<std::int64_t, int> heads;
    for (const UpstreamCommit& c : model.commits().rows)
        if (c.prNumber.value > 0)
            ++heads[c.prNumber.value];
    ASSERT_GT(heads.size(), 3u);
    const auto multi =
        std::find_if(heads.begin(), heads.end(), [](const auto& pr) { return pr.second > 1; });
    ASSERT_NE(multi, heads.end()) << "the simulator pushes PRs more than once";
    QTabBar* tabs = w.commitViewTabs();
    const int prTab = static_cast<int>(CommitView::PullRequests);
    EXPECT_EQ(tabs->tabText(prTab), QStringLiteral("Pull requests (%1)").arg(heads.size()));
    ASSERT_EQ(tabs->count(), 6)
        << "one tab per commit view, then the backends overview and the doctor";
    EXPECT_EQ(tabs->tabText(4), QStringLiteral("Backends"));
    EXPECT_EQ(tabs->tabText(5), QStringLiteral("Doctor"));

    tabs->setCurrentIndex(prTab);
    MatrixFilterProxy& proxy = w.matrix()->proxy();
    ASSERT_EQ(proxy.rowCount(), static_cast<int>(heads.size()));
    int row = 0;
    while (row < proxy.rowCount()
           && proxy.headerData(row, Qt::Vertical, MatrixModel::PrNumberRole).toLongLong()
                  != multi->first)
        ++row;
    ASSERT_LT(row, proxy.rowCount());
    EXPECT_EQ(proxy.headerData(row, Qt::Vertical, MatrixModel::HeadsRole).toInt(), multi->second);

    CommitHeaderView* header = w.matrix()->view()->commitHeader();
    w.matrix()->view()->scrollTo(proxy.index(row, 0));
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {},
                      QPoint(header->width() / 2, header->sectionViewportPosition(row) + 4));
    ASSERT_EQ(proxy.rowCount(), static_cast<int>(heads.size()) + multi->second - 1);
    EXPECT_EQ(proxy.headerData(row + 1, Qt::Vertical, MatrixModel::RowKindRole).toInt(),
              static_cast<int>(MatrixModel::RowKind::EarlierHead));
    keepPictures(w, QStringLiteral("pull-requests-window"));
    // View › Show or hide the PR's earlier heads (H) folds them again from
    // one of the heads, and opens them from the PR's row.
    QAction* toggleHeads = actionWithShortcut(w, Qt::Key_H);
    ASSERT_NE(toggleHeads, nullptr);
    w.matrix()->view()->setCurrentIndex(proxy.index(row + 1, 0));
    toggleHeads->trigger();
    EXPECT_EQ(proxy.rowCount(), static_cast<int>(heads.size()));
    w.matrix()->view()->setCurrentIndex(proxy.index(row, 0));
    toggleHeads->trigger();
    EXPECT_EQ(proxy.rowCount(), static_cast<int>(heads.size()) + multi->second - 1);

    // Selecting an earlier head's commit (a Ctrl+K or a link) in the view of
    // another PR's rows expands that PR.
    std::string earlier;
    std::int64_t other = 0;
    for (const auto& [pr, n] : heads)
        if (n > 1 && pr != multi->first)
            other = pr;
    if (other != 0) {
        const MatrixSnapshot& shown = model.snapshot();
        std::string newest;
        for (const UpstreamCommit& c : shown.rows)
            if (c.prNumber.value == other)
                newest = c.sha.value;
        for (const UpstreamCommit& c : model.commits().rows)
            if (c.prNumber.value == other && c.sha.value != newest)
                earlier = c.sha.value;
        ASSERT_TRUE(w.matrix()->selectCommit(QString::fromStdString(earlier)));
        EXPECT_TRUE(model.isExpanded(other));
        EXPECT_EQ(w.matrix()->view()->currentIndex().data(MatrixModel::ShaRole).toString(),
                  QString::fromStdString(earlier));
        EXPECT_EQ(tabs->currentIndex(), prTab) << "still the pull-request view";
    }

    tabs->setCurrentIndex(static_cast<int>(CommitView::All));
    EXPECT_EQ(proxy.rowCount(), static_cast<int>(model.commits().rows.size()));
}

TEST_F(PullRequestFlow, TheWindowReopensInTheViewItWasLeftIn)
{
    SessionConfig session = ui::test::offlineSession(m_cachePath);
    session.persistWindow = true; // QSettings in the tests' own place (test_main.cpp)
    {
        MainWindow w(session);
        EXPECT_FALSE(w.showView(QStringLiteral("nope")));
        ASSERT_TRUE(w.showView(QStringLiteral("prs")));
        EXPECT_TRUE(w.matrix()->model().pullRequestView());
        w.close();
    }
    {
        MainWindow w(session);
        EXPECT_EQ(w.commitViewTabs()->currentIndex(), static_cast<int>(CommitView::PullRequests));
        EXPECT_TRUE(w.matrix()->model().pullRequestView());
        ASSERT_TRUE(w.showView(QStringLiteral("backends")));
        EXPECT_EQ(w.commitViewTabs()->currentIndex(), 4);
        ASSERT_TRUE(w.showView(QStringLiteral("commits")));
        w.close(); // leaves the shared test settings as a fresh start finds them
    }
}

// Opening a folded shard group (G, or a click on its label) keeps the cell on
// the run it showed, its worst shard's; the run details follow. Folding it
// again comes back to the group's cell.
TEST_F(PullRequestFlow, OpeningAShardGroupKeepsTheCellOnTheRunItShowed)
{
    MainWindow w(ui::test::offlineSession(m_cachePath));
    w.resize(1600, 900);
    QSignalSpy refreshed(w.sync(), &SyncCoordinator::matrixRefreshed);
    ASSERT_TRUE(refreshed.wait(30000));
    MatrixFilterProxy& proxy = w.matrix()->proxy();
    // A folded group's cell whose worst shard is not the group's first.
    QModelIndex cell;
    for (int r = 0; r < proxy.rowCount() && !cell.isValid(); ++r)
        for (int c = 0; c < proxy.columnCount(); ++c) {
            const QModelIndex index = proxy.index(r, c);
            if (proxy.headerData(c, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt() > 0
                && index.data(MatrixModel::CellStateRole).toInt()
                       == static_cast<int>(CellState::Failure)
                && !index.data(Qt::ToolTipRole)
                        .toString()
                        .contains(index.data(MatrixModel::JobRole).toString() + u": failure")) {
                cell = index;
                break;
            }
        }
    ASSERT_TRUE(cell.isValid()) << "the simulator fails a later shard somewhere";
    const CheckRunRow run{cell.data(MatrixModel::RunRowIdRole).toLongLong()};
    w.matrix()->view()->setCurrentIndex(cell);
    QAction* group = actionWithShortcut(w, Qt::Key_G);
    ASSERT_NE(group, nullptr);
    group->trigger();
    const QModelIndex opened = w.matrix()->view()->currentIndex();
    EXPECT_EQ(CheckRunRow{opened.data(MatrixModel::RunRowIdRole).toLongLong()}, run);
    EXPECT_NE(opened.column(), cell.column()) << "on the worst shard's own column";
    EXPECT_TRUE(opened.data(MatrixModel::ShardExpandedRole).toBool());
    EXPECT_TRUE(QTest::qWaitFor([&] { return w.details()->panel()->shownRowId() == run; }, 10000));
    EXPECT_EQ(w.details()->panel()->titleText(), opened.data(MatrixModel::JobRole).toString());
    group->trigger();
    EXPECT_EQ(w.matrix()->view()->currentIndex().data(MatrixModel::RunRowIdRole).toLongLong(),
              run.value);
    EXPECT_GT(proxy
                  .headerData(w.matrix()->view()->currentIndex().column(), Qt::Horizontal,
                              MatrixModel::ShardMembersRole)
                  .toInt(),
              0);
}

// A sync that brings a job's other shards folds the job into a new group:
// a cell selected on a green shard, whose group's cell would show another
// shard's failure, keeps its run (the group opens rather than take the cell
// away) and the panels stay on it. A group the user folds again stays
// folded through later syncs, the cell on the group's.
TEST(MatrixSync, ACellWhoseJobASyncFoldsIntoAShardGroupKeepsItsRunAndTheGroupOpens)
{
    const sim::SimDataset data = ui::test::dataset();
    // A parenthesised first shard, "test (CONFIG, 1, N, RUNNER)", that
    // passed where another shard of its job failed.
    const QRegularExpression firstShard(QStringLiteral(R"(^(.+ \([^,]+, )1, \d+(, [^)]*)?\)$)"));
    const sim::SimRow* chosen = nullptr;
    QString prefix;
    const auto sibling = [&](const CheckRun& run) {
        return run.downstreamRepo == chosen->run.downstreamRepo
               && run.workflow == chosen->run.workflow && run.jobName != chosen->run.jobName
               && QString::fromStdString(run.jobName).startsWith(prefix);
    };
    const auto siblingFailed = [&] {
        return std::any_of(data.rows.begin(), data.rows.end(), [&](const sim::SimRow& row) {
            return sibling(row.run) && row.run.upstreamSha == chosen->run.upstreamSha
                   && row.run.reported.conclusion == Conclusion::Failure;
        });
    };
    for (const sim::SimRow& row : data.rows) {
        const auto match = firstShard.match(QString::fromStdString(row.run.jobName));
        if (!match.hasMatch() || row.run.reported.conclusion != Conclusion::Success)
            continue;
        chosen = &row;
        prefix = match.captured(1);
        if (siblingFailed())
            break;
        chosen = nullptr;
    }
    ASSERT_NE(chosen, nullptr) << "the simulator fails one shard of a job where another passed";
    QTemporaryDir dir;
    const std::string path = dir.filePath(QStringLiteral("cache.sqlite")).toStdString();
    SyncBatch first{data.backends, data.commits, {}, {}};
    SyncBatch later{data.backends, data.commits, {}, {}};
    for (const sim::SimRow& row : data.rows)
        (sibling(row.run) ? later : first).runs.push_back(row.run);
    ASSERT_FALSE(later.runs.empty());
    auto cache = Database::open(path);
    ASSERT_TRUE(cache) << cache.message();
    ASSERT_TRUE(RunStore(**cache).apply(first));

    MainWindow w(ui::test::offlineSession(QString::fromStdString(path)));
    w.resize(1600, 900);
    QSignalSpy refreshed(w.sync(), &SyncCoordinator::matrixRefreshed);
    ASSERT_TRUE(refreshed.wait(30000));
    w.show();
    ASSERT_TRUE(QTest::qWaitForWindowExposed(&w));
    MatrixFilterProxy& proxy = w.matrix()->proxy();
    const QModelIndex cell = jobCell(w.matrix()->model(), proxy, chosen->run.upstreamSha.value,
                                     chosen->run.downstreamRepo, chosen->run.jobName);
    ASSERT_TRUE(cell.isValid());
    EXPECT_EQ(proxy.headerData(cell.column(), Qt::Horizontal, MatrixModel::ShardFamilyRole),
              QString())
        << "one shard alone is no group";
    const CheckRunRow run{cell.data(MatrixModel::RunRowIdRole).toLongLong()};
    w.matrix()->view()->setCurrentIndex(cell);
    const QString job = QString::fromStdString(chosen->run.jobName);
    ASSERT_TRUE(QTest::qWaitFor([&] { return w.details()->panel()->shownRowId() == run; }, 10000));
    ASSERT_EQ(w.details()->panel()->titleText(), job);

    ASSERT_TRUE(RunStore(**cache).apply(later));
    w.sync()->reloadMatrix();
    ASSERT_TRUE(refreshed.wait(30000));
    const QModelIndex kept = w.matrix()->view()->currentIndex();
    ASSERT_TRUE(kept.isValid()) << "the sync took the cell away";
    EXPECT_EQ(kept.data(MatrixModel::RunRowIdRole).toLongLong(), run.value);
    EXPECT_EQ(kept.data(MatrixModel::JobRole).toString(), job);
    const QString family =
        proxy.headerData(kept.column(), Qt::Horizontal, MatrixModel::ShardFamilyRole).toString();
    EXPECT_FALSE(family.isEmpty()) << "the job is in a group now";
    EXPECT_TRUE(
        proxy.headerData(kept.column(), Qt::Horizontal, MatrixModel::ShardExpandedRole).toBool());
    EXPECT_EQ(w.details()->panel()->titleText(), job);

    // G folds the group: the cell goes to the group's, and stays there
    // through the next sync.
    QAction* group = actionWithShortcut(w, Qt::Key_G);
    ASSERT_NE(group, nullptr);
    group->trigger();
    const auto onFoldedGroup = [&] {
        const QModelIndex current = w.matrix()->view()->currentIndex();
        return current.isValid()
               && proxy.headerData(current.column(), Qt::Horizontal, MatrixModel::ShardMembersRole)
                          .toInt()
                      > 1
               && proxy.headerData(current.column(), Qt::Horizontal, MatrixModel::ShardFamilyRole)
                      == family
               && current.data(MatrixModel::ShaRole).toString()
                      == QString::fromStdString(chosen->run.upstreamSha.value);
    };
    EXPECT_TRUE(onFoldedGroup());
    w.sync()->reloadMatrix();
    ASSERT_TRUE(refreshed.wait(30000));
    EXPECT_FALSE(w.matrix()->model().isShardGroupExpanded(family));
    EXPECT_TRUE(onFoldedGroup());
}
