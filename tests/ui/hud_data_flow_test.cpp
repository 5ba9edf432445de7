// What the HUD's data is, in the window, through the real path: the
// simulator (which answers as the real HUD does) over loopback, a sync, then
// a nightly's run. The status bar shows the relay's health from its probe
// repo (not a red backend); a nightly shows its duration as not reported and
// the main commit its nightly-branch commit was cut from
// (../shared/specs/hud-read-api.md R5, R6, R11). With RELAYHUD_UI_SHOTS=DIR
// it keeps pictures, in light and dark.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/ui/details/run_details_panel.h"
#include "relayhud/ui/main_window.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"

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
    QSignalSpy succeeded(&window, &MainWindow::syncSucceeded);
    ASSERT_TRUE(succeeded.wait(kWaitMs));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.matrixModel().rowCount() > 0; }, kWaitMs));

    // The probe repo: relay health, never a column of the matrix.
    const QString health = window.syncStatus()->relayHealthText();
    EXPECT_TRUE(health.contains(QStringLiteral("relay healthy"))) << health.toStdString();
    EXPECT_TRUE(health.contains(QString::fromLatin1(kProbeRepo))) << health.toStdString();
    const QAbstractItemModel& model = window.filterProxy();
    for (int c = 0; c < model.columnCount(); ++c)
        EXPECT_NE(model.headerData(c, Qt::Horizontal, MatrixModel::BackendRole).toString(),
                  QString::fromLatin1(kProbeRepo));

    // A nightly of a backend whose delivery-id is the nightly branch's commit.
    QModelIndex nightly;
    for (int r = 0; r < model.rowCount() && !nightly.isValid(); ++r) {
        const QModelIndex first = model.index(r, 0);
        if (first.data(MatrixModel::EventTypeRole).toInt() != static_cast<int>(EventType::Nightly)
            || first.data(MatrixModel::ShaRole).toString().size() != 40
            || !first.data(MatrixModel::CommitTitleRole).toString().contains(u"nightly release"))
            continue;
        for (int c = 0; c < model.columnCount(); ++c)
            if (model.index(r, c).data(MatrixModel::RunRowIdRole).toLongLong() != 0) {
                nightly = model.index(r, c);
                break;
            }
    }
    ASSERT_TRUE(nightly.isValid()) << "no titled nightly in the matrix";
    window.matrixView()->scrollTo(nightly);
    window.matrixView()->selectionModel()->setCurrentIndex(nightly,
                                                           QItemSelectionModel::ClearAndSelect);
    RunDetailsPanel& panel = *window.detailsPanel();
    const auto nightlyRow = nightly.data(MatrixModel::RunRowIdRole).toLongLong();
    ASSERT_TRUE(QTest::qWaitFor([&] { return panel.shownRowId() == nightlyRow; }, kWaitMs));
    EXPECT_EQ(panel.fieldText(RunDetailsPanel::DurationField),
              QStringLiteral("not reported (one callback, no start time)"));
    EXPECT_TRUE(
        panel.fieldText(RunDetailsPanel::ShaField).contains(u"nightly branch, cut from main"))
        << panel.fieldText(RunDetailsPanel::ShaField).toStdString();
    EXPECT_TRUE(panel.fieldText(RunDetailsPanel::LevelField).contains(u"allowlist level now"))
        << panel.fieldText(RunDetailsPanel::LevelField).toStdString();
    EXPECT_TRUE(panel.fieldText(RunDetailsPanel::QueueTimeField).contains(u"not measured"))
        << panel.fieldText(RunDetailsPanel::QueueTimeField).toStdString();
    test::keepPictures(window, QStringLiteral("hud-data-nightly"));
}
