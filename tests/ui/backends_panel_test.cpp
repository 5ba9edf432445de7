// The backends overview (issue 17) after a real sync from the simulator: one
// row per backend, worst first, the HUD's pass rate beside ours, the relay's
// health card from its probe repo; activating a row shows that backend's
// columns in the matrix.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/ui/backends/backends_panel.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/window/backends_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

using relayhud::ui::test::kWaitMs;

TEST(BackendsPanelFlow, AfterASyncEveryBackendHasARowWorstFirstWithTheHudsRateAndOurs)
{
    sim::SimConfig config;
    config.seed = 3;
    config.commits = 40;
    sim::SimServer server(sim::buildDataset(config));
    ASSERT_GT(server.start(0), 0);
    QTemporaryDir dir;
    const SessionConfig session =
        ui::test::simSession(server, dir.filePath(QStringLiteral("cache.sqlite")), Credentials{});
    MainWindow window(session);
    window.resize(1920, 1020);
    window.show();
    QSignalSpy synced(window.sync(), &SyncCoordinator::syncSucceeded);
    ASSERT_TRUE(synced.wait(kWaitMs));

    BackendsPanel* panel = window.backends()->backendsPanel();
    QSignalSpy loaded(panel, &BackendsPanel::loaded);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, kWaitMs));
    window.showView(QStringLiteral("backends"));
    ASSERT_TRUE(loaded.wait(kWaitMs));
    EXPECT_TRUE(panel->isVisible());
    QTreeWidget* table = panel->table();
    ASSERT_GT(table->topLevelItemCount(), 3);
    // The probe repo is the relay's, not a backend.
    for (int i = 0; i < table->topLevelItemCount(); ++i)
        EXPECT_NE(table->topLevelItem(i)->text(1).toStdString(), std::string(kProbeRepo));
    // The HUD answered crcr_summary for the synced window: its rate shows.
    int hudRates = 0;
    for (int i = 0; i < table->topLevelItemCount(); ++i)
        hudRates += table->topLevelItem(i)->text(3).endsWith(u'%') ? 1 : 0;
    EXPECT_GT(hudRates, 0);
    // Worst first, by our pass rate.
    const BackendsData data = BackendsPanel::read(session.settings.cachePath, 30, ArtifactAccess{});
    ASSERT_TRUE(data.error.isEmpty()) << data.error.toStdString();
    for (std::size_t i = 1; i < data.backends.size(); ++i) {
        if (data.backends[i].passRate && data.backends[i - 1].passRate) {
            EXPECT_LE(*data.backends[i - 1].passRate, *data.backends[i].passRate);
        }
    }
    // The HUD's other aggregates the sync keeps, in the HUD's own definitions
    // (hud-read-api.md R12): the nightly summary and the daily pass rates.
    EXPECT_TRUE(data.nightlyAnswered);
    EXPECT_TRUE(data.dailyAnswered);
    int nightlyRates = 0;
    int sparklines = 0;
    for (int i = 0; i < table->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = table->topLevelItem(i);
        const QString repo = item->data(1, Qt::UserRole).toString();
        if (const auto n = data.nightly.find(repo.toStdString()); n != data.nightly.end()) {
            ++nightlyRates;
            EXPECT_TRUE(item->text(11).contains(u'%')) << item->text(11).toStdString();
            EXPECT_TRUE(item->toolTip(11).contains(QStringLiteral("Latest SHA")));
        }
        if (const auto d = data.daily.find(repo.toStdString());
            d != data.daily.end() && d->second.count("pull_request")) {
            ++sparklines;
            // One bar a day, painted from the rates (the delegate's role).
            EXPECT_EQ(item->data(12, Qt::UserRole + 1).toList().size(),
                      static_cast<qsizetype>(d->second.at("pull_request").size()));
            EXPECT_TRUE(item->toolTip(12).contains(QStringLiteral("pull_request")));
        }
    }
    EXPECT_GT(nightlyRates, 0);
    EXPECT_GT(sparklines, 0);
    ASSERT_TRUE(data.relay.has_value());
    EXPECT_TRUE(panel->relayText().contains(QStringLiteral("Relay")));
    EXPECT_FALSE(panel->relayText().contains(QStringLiteral("not reported")));
    // The doctor's column: the zombie story's backend has a run that never completed.
    const QString zombie = QString::fromStdString(server.dataset().stories.zombieBackend);
    bool zombieShown = false;
    for (int i = 0; i < table->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = table->topLevelItem(i);
        EXPECT_FALSE(item->text(13).isEmpty()) << item->text(1).toStdString();
        if (item->data(1, Qt::UserRole).toString() == zombie) {
            zombieShown = true;
            EXPECT_TRUE(item->text(13).contains(QStringLiteral("error")))
                << item->text(13).toStdString();
            EXPECT_TRUE(item->toolTip(13).contains(QStringLiteral("in progress for more than 7 h")))
                << item->toolTip(13).toStdString();
        }
    }
    EXPECT_TRUE(zombieShown || zombie.isEmpty());
    // No workflow was read yet (the Doctor tab reads them): the column says
    // it judged the runs alone.
    for (int i = 0; i < table->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = table->topLevelItem(i);
        if (item->text(13) != QStringLiteral("—")) {
            EXPECT_TRUE(item->text(13).endsWith(QStringLiteral(" (runs only)")))
                << item->text(13).toStdString();
        }
    }
    // L1 backends are in the allowlist (dispatched to, reporting nothing):
    // never "not in the allowlist".
    int l1 = 0;
    for (int i = 0; i < table->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* item = table->topLevelItem(i);
        EXPECT_FALSE(item->text(1).contains(QStringLiteral("not in the allowlist")))
            << item->text(1).toStdString();
        if (item->text(2) == QStringLiteral("L1")) {
            ++l1;
            EXPECT_TRUE(
                item->text(1).endsWith(QStringLiteral("(L1: dispatched to, reports nothing)")))
                << item->text(1).toStdString();
            EXPECT_TRUE(item->toolTip(1).contains(QStringLiteral("takes no results from it")));
        }
    }
    EXPECT_GT(l1, 0) << "the simulator's allowlist has L1 backends";
    test::keepPictures(window, QStringLiteral("backends_overview_1920x1080"));

    // Activating the worst backend shows only its columns.
    const QString worst = table->topLevelItem(0)->data(1, Qt::UserRole).toString();
    emit table->itemActivated(table->topLevelItem(0), 1);
    EXPECT_EQ(window.matrix()->proxy().filters().backends, QSet<QString>{worst});
    EXPECT_FALSE(panel->isVisible()); // back to the matrix
    const QAbstractItemModel& shown = window.matrix()->proxy();
    ASSERT_GT(shown.columnCount(), 0);
    for (int c = 0; c < shown.columnCount(); ++c)
        EXPECT_EQ(shown.headerData(c, Qt::Horizontal, MatrixModel::BackendRole).toString(), worst);
}

} // namespace
