// What the HUD's data is, in the window, through the real path: the
// simulator (which answers as the real HUD does) over loopback, a sync, then
// a nightly's run. The status bar shows the relay's health from its probe
// repo (not a red backend); a nightly shows its duration as not reported and
// its SHA as a main commit, titled through commit-info, with a main..main
// compare (../shared/specs/hud-read-api.md R5, R6 corrected, R11;
// real-backends.md section 2). With RELAYHUD_UI_SHOTS=DIR
// it keeps pictures, in light and dark.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/model/tested_commit.h"
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/sync/artifact_sync.h"
#include "relayhud/sync/hud_sync.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/matrix/cell_state.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/window/details_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QApplication>
#include <QItemSelectionModel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

#include <csignal>

using namespace relayhud;
using namespace relayhud::ui;
using namespace relayhud::ui::test;
using namespace Qt::StringLiterals;

TEST(HudDataFlow, RelayHealthInTheStatusBarAndANightlysOwnTimesAndCommit)
{
    std::signal(SIGPIPE, SIG_IGN);
    sim::SimConfig config;
    config.seed = 1;
    config.commits = 60;
    sim::SimServer server(sim::buildDataset(config));
    ASSERT_GT(server.start(0), 0);
    QTemporaryDir dir;
    MainWindow window(
        simSession(server, dir.filePath(QStringLiteral("cache.sqlite")), simCredentials(server)));
    window.resize(1600, 1000);
    window.show();
    QSignalSpy succeeded(window.sync(), &SyncCoordinator::syncSucceeded);
    ASSERT_TRUE(succeeded.wait(kWaitMs));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, kWaitMs));

    // The probe repo: relay health, never a column of the matrix.
    const QString health = window.syncStatus()->relayHealthText();
    EXPECT_TRUE(health.contains(QStringLiteral("relay healthy"))) << health.toStdString();
    EXPECT_TRUE(health.contains(QString::fromLatin1(kProbeRepo))) << health.toStdString();
    const QAbstractItemModel& model = window.matrix()->proxy();
    for (int c = 0; c < model.columnCount(); ++c)
        EXPECT_NE(model.headerData(c, Qt::Horizontal, MatrixModel::BackendRole).toString(),
                  QString::fromLatin1(kProbeRepo));

    // A nightly of a backend whose delivery-id is the main commit its nightly
    // was cut from, titled as main's commits are ("<title> (#<pr>)").
    QModelIndex nightly;
    for (int r = 0; r < model.rowCount() && !nightly.isValid(); ++r) {
        const QModelIndex first = model.index(r, 0);
        if (first.data(MatrixModel::EventTypeRole).toInt() != static_cast<int>(EventType::Nightly)
            || first.data(MatrixModel::ShaRole).toString().size() != 40
            || !first.data(MatrixModel::CommitTitleRole).toString().contains(u" (#"))
            continue;
        for (int c = 0; c < model.columnCount(); ++c)
            if (model.index(r, c).data(MatrixModel::RunRowIdRole).toLongLong() != 0) {
                nightly = model.index(r, c);
                break;
            }
    }
    ASSERT_TRUE(nightly.isValid()) << "no titled nightly in the matrix";
    window.matrix()->view()->scrollTo(nightly);
    window.matrix()->view()->selectionModel()->setCurrentIndex(nightly,
                                                               QItemSelectionModel::ClearAndSelect);
    RunDetailsPanel& panel = *window.details()->panel();
    const CheckRunRow nightlyRow{nightly.data(MatrixModel::RunRowIdRole).toLongLong()};
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.shownRowId() == nightlyRow; }, kWaitMs));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::DurationField),
              QStringLiteral("not reported (one callback, no start time)"));
    EXPECT_TRUE(panel.fieldText(RunDetailsPanel::ShaField).endsWith(u" (main)"))
        << panel.fieldText(RunDetailsPanel::ShaField).toStdString();
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::BranchField), QStringLiteral("main"));
    EXPECT_TRUE(panel.fieldText(RunDetailsPanel::LevelField).contains(u"allowlist level now"))
        << panel.fieldText(RunDetailsPanel::LevelField).toStdString();
    EXPECT_TRUE(panel.fieldText(RunDetailsPanel::QueueTimeField).contains(u"not measured"))
        << panel.fieldText(RunDetailsPanel::QueueTimeField).toStdString();
    test::keepPictures(window, QStringLiteral("hud-data-nightly"));
}

// real-backends.md 3.1, 3.5: torch-spyre builds a merged PR at its base
// branch's HEAD, while its HUD row names the PR's head; the build's artifact
// names carry the commit built (pytorch-wheel-<sha>, upstream-beta-reports-
// <sha>). Once the artifact pass records it from those names, the run's
// details and its cell's tooltip say which commit was tested, and the run
// compares with nothing else (no earlier tested commit of the job yet).
TEST(HudDataFlow, AMergedPrsBuildShowsTheCommitItTested)
{
    std::signal(SIGPIPE, SIG_IGN);
    sim::SimConfig config;
    config.seed = 1;
    config.commits = 60;
    sim::SimServer server(sim::buildDataset(config));
    ASSERT_GT(server.start(0), 0);
    QTemporaryDir dir;
    const QString cachePath = dir.filePath(QStringLiteral("cache.sqlite"));
    MainWindow window(simSession(server, cachePath, simCredentials(server)));
    window.resize(1600, 1000);
    window.show();
    QSignalSpy succeeded(window.sync(), &SyncCoordinator::syncSucceeded);
    ASSERT_TRUE(succeeded.wait(kWaitMs));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, kWaitMs));

    // A PR head's torch-spyre run, and main's HEAD before it: the newest
    // nightly SHA dispatched earlier (each a main commit).
    const QAbstractItemModel& model = window.matrix()->proxy();
    QModelIndex merged;
    QString base;
    for (int r = model.rowCount() - 1; r >= 0 && !merged.isValid(); --r) {
        const QModelIndex first = model.index(r, 0);
        const auto type = first.data(MatrixModel::EventTypeRole).toInt();
        if (type == static_cast<int>(EventType::Nightly)
            && first.data(MatrixModel::ShaRole).toString().size() == 40) {
            base = first.data(MatrixModel::ShaRole).toString();
            continue;
        }
        if (base.isEmpty() || type != static_cast<int>(EventType::PullRequest)
            || first.data(MatrixModel::BranchRole).toString().startsWith(u"release/"))
            continue;
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex cell = model.index(r, c);
            if (cell.data(MatrixModel::RunRowIdRole).toLongLong() != 0
                && model.headerData(c, Qt::Horizontal, MatrixModel::BackendRole).toString()
                       == u"torch-spyre/torch-spyre") {
                merged = cell;
                break;
            }
        }
    }
    ASSERT_TRUE(merged.isValid()) << "no torch-spyre PR run after a nightly";
    const std::string sha = base.toStdString();
    auto tested = testedCommitFromArtifactNames(
        {"test_indexing.xml", "pytorch-wheel-" + sha, "upstream-beta-reports-" + sha});
    ASSERT_TRUE(tested && tested->has_value());
    {
        auto cache = Database::open(cachePath.toStdString());
        ASSERT_TRUE(cache) << cache.message();
        ASSERT_TRUE(CheckoutStore(**cache).putTestedCommit(
            CheckRunRow{merged.data(MatrixModel::RunRowIdRole).toLongLong()}, **tested));
    }
    QSignalSpy refreshed(window.sync(), &SyncCoordinator::matrixRefreshed);
    window.sync()->reloadMatrix();
    ASSERT_TRUE(refreshed.wait(kWaitMs));

    const auto pr =
        model.headerData(merged.row(), Qt::Vertical, MatrixModel::PrNumberRole).toLongLong();
    // The PR's base where the cache knows it (the sim's pulls API), else none.
    const QString branch =
        model.headerData(merged.row(), Qt::Vertical, MatrixModel::BranchRole).toString();
    const QString expected = u"tested "_s % (branch.isEmpty() ? QString() : branch % u"@"_s)
                             % base.left(7) % u" after #"_s % QString::number(pr)
                             % u" merged (from its artifact name)"_s;
    EXPECT_TRUE(merged.data(Qt::ToolTipRole).toString().contains(expected))
        << merged.data(Qt::ToolTipRole).toString().toStdString();
    window.matrix()->view()->scrollTo(merged);
    window.matrix()->view()->selectionModel()->setCurrentIndex(merged,
                                                               QItemSelectionModel::ClearAndSelect);
    RunDetailsPanel& panel = *window.details()->panel();
    const CheckRunRow row{merged.data(MatrixModel::RunRowIdRole).toLongLong()};
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.shownRowId() == row; }, kWaitMs));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::TestedField), expected);
    EXPECT_TRUE(panel.linkUrl(RunDetailsPanel::CompareLink).isEmpty())
        << "not the PR's previous head: the job's previous tested commit, none yet";
    test::keepPictures(window, QStringLiteral("hud-data-tested-commit"));
}

// real-backends.md 3.2: torch-spyre's variant B callback carries its
// validate-mode child run's conclusion, success while tests failed. After the
// background artifact pass (which finds the reports without an artifact_url,
// in the run or in the child it dispatched), such a cell is drawn as
// "reported success, tests failed", and its details name the commit the run
// really tested (from its artifact names).
TEST(HudDataFlow, AReportedSuccessWhoseTestsFailedIsNotDrawnAsAGreen)
{
    std::signal(SIGPIPE, SIG_IGN);
    sim::SimServer server(sim::buildDataset(sim::SimConfig{}));
    ASSERT_GT(server.start(0), 0);
    QTemporaryDir dir;
    const QString cachePath = dir.filePath(QStringLiteral("cache.sqlite"));
    {
        // torch-spyre's rows synced and its artifacts read, as the app's
        // background pass does it.
        auto cache = Database::open(cachePath.toStdString());
        ASSERT_TRUE(cache) << cache.message();
        HttpClient http;
        HudClient hud(http, server.baseUrl());
        SyncOptions sync;
        sync.days = 30;
        sync.backends = {"torch-spyre/torch-spyre"};
        ASSERT_TRUE(HudSync(hud, **cache).run(sync));
        auto blobs = ContentCache::open(dir.filePath(QStringLiteral("blobs")).toStdString());
        ASSERT_TRUE(blobs) << blobs.message();
        ArtifactSettings settings;
        settings.githubApiUrl = server.githubApiUrl();
        ArtifactFetcher fetcher(http, *blobs, settings, simCredentials(server));
        ArtifactSyncOptions pass;
        pass.policy = ArtifactPolicy::AllRuns;
        pass.days = 30;
        pass.jobLines = false;
        ASSERT_TRUE(ArtifactSync(**cache, fetcher, settings).run(pass));
    }
    MainWindow window(offlineSession(cachePath, QString::fromStdString(server.baseUrl())));
    window.resize(1600, 1000);
    window.show();
    const QAbstractItemModel& model = window.matrix()->proxy();
    QModelIndex claimed;
    ASSERT_TRUE(QTest::qWaitFor(
        [&] {
            for (int r = 0; r < model.rowCount() && !claimed.isValid(); ++r)
                for (int c = 0; c < model.columnCount(); ++c)
                    if (model.index(r, c).data(MatrixModel::CellStateRole).toInt()
                        == static_cast<int>(CellState::SuccessTestsFailed)) {
                        claimed = model.index(r, c);
                        break;
                    }
            return claimed.isValid();
        },
        kWaitMs))
        << "no reported success whose tests failed after the artifact pass";
    EXPECT_EQ(
        model.headerData(claimed.column(), Qt::Horizontal, MatrixModel::BackendRole).toString(),
        u"torch-spyre/torch-spyre"_s);
    EXPECT_TRUE(
        claimed.data(Qt::ToolTipRole).toString().contains(u"reported success, tests failed"_s))
        << claimed.data(Qt::ToolTipRole).toString().toStdString();
    window.matrix()->view()->scrollTo(claimed);
    window.matrix()->view()->selectionModel()->setCurrentIndex(claimed,
                                                               QItemSelectionModel::ClearAndSelect);
    RunDetailsPanel& panel = *window.details()->panel();
    const CheckRunRow row{claimed.data(MatrixModel::RunRowIdRole).toLongLong()};
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.shownRowId() == row; }, kWaitMs));
    EXPECT_TRUE(panel.stateText().startsWith(u"reported success, tests failed"_s))
        << panel.stateText().toStdString();
    EXPECT_TRUE(panel.fieldText(RunDetailsPanel::TestedField).contains(u"from its artifact name"_s))
        << panel.fieldText(RunDetailsPanel::TestedField).toStdString();
    test::keepPictures(window, QStringLiteral("real-reporters-success-tests-failed"));
}
