// The integration doctor's page (issue 20) after a real sync from the
// simulator: backends worst first; the zombie story's backend shows its run
// that never completed (with the run, which activating selects in the
// matrix) and its workflow's completed callback without if: always(), at its
// line; the backend whose legs share a job name shows that, from its rows
// and from its workflow; the backend that checks out the default branch shows
// it from its workflow and, once the artifact pass read its job logs, from
// what they checked out; sound backends show no error.
#include "relayhud/hud/hud_summaries.h"
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/ui/backends/backends_panel.h"
#include "relayhud/ui/backends/doctor_panel.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/window/backends_coordinator.h"
#include "relayhud/ui/window/details_coordinator.h"
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

// The findings of the shown backend, as "severity check where" lines.
QStringList findingLines(const DoctorPanel& panel)
{
    QStringList out;
    for (QTreeWidgetItemIterator it(panel.findingsTree()); *it; ++it)
        if (!(*it)->text(1).isEmpty())
            out << (*it)->text(0).remove(u'●').trimmed() + u' ' + (*it)->text(1) + u' '
                       + (*it)->text(2);
    return out;
}

QTreeWidgetItem* findingItem(const DoctorPanel& panel, const QString& check)
{
    for (QTreeWidgetItemIterator it(panel.findingsTree()); *it; ++it)
        if ((*it)->text(1) == check)
            return *it;
    return nullptr;
}

TEST(DoctorPanelFlow, TheSimulatorsPlantedMistakesShowWithTheirLinesAndRuns)
{
    sim::SimServer server(sim::buildDataset(sim::SimConfig{}));
    ASSERT_GT(server.start(0), 0);
    const sim::SimStories& stories = server.dataset().stories;
    ASSERT_FALSE(stories.zombieBackend.empty());
    QTemporaryDir dir;
    Credentials keys;
    keys.githubToken = server.githubToken();
    SessionConfig session =
        ui::test::simSession(server, dir.filePath(QStringLiteral("cache.sqlite")), keys);
    // The failed runs' job logs and a sample of greens': the tested-SHA evidence.
    session.settings.artifactPolicy = ArtifactPolicy::FailedRuns;
    MainWindow window(session);
    window.resize(1920, 1020);
    window.show();
    QSignalSpy synced(window.sync(), &SyncCoordinator::syncSucceeded);
    QSignalSpy artifacts(window.sync(), &SyncCoordinator::artifactsSynced);
    ASSERT_TRUE(synced.wait(kWaitMs));
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, kWaitMs));
    ASSERT_TRUE(artifacts.count() > 0 || artifacts.wait(kWaitMs));

    DoctorPanel* panel = window.backends()->doctorPanel();
    QSignalSpy loaded(panel, &DoctorPanel::loaded);
    ASSERT_TRUE(window.showView(QStringLiteral("doctor")));
    ASSERT_TRUE(loaded.wait(kWaitMs));
    ASSERT_TRUE(panel->isVisible());
    QTreeWidget* backends = panel->backendsList();
    ASSERT_GE(backends->topLevelItemCount(), 5);

    // Worst first: errors, then warnings, never increasing.
    int lastErrors = 1 << 30;
    for (int i = 0; i < backends->topLevelItemCount(); ++i) {
        const int errors = backends->topLevelItem(i)->text(2).toInt();
        EXPECT_LE(errors, lastErrors);
        lastErrors = errors;
        EXPECT_NE(backends->topLevelItem(i)->text(0).toStdString(), std::string(kProbeRepo));
    }

    // The zombie's backend: its never-completed run and the workflow line behind it.
    const QString zombie = QString::fromStdString(stories.zombieBackend);
    ASSERT_TRUE(panel->selectBackend(zombie));
    const QStringList zombieLines = findingLines(*panel);
    EXPECT_TRUE(zombieLines.contains(QStringLiteral("error never-completed 1 run")))
        << zombieLines.join(u'\n').toStdString();
    QTreeWidgetItem* always = findingItem(*panel, QStringLiteral("callback-always"));
    ASSERT_NE(always, nullptr) << zombieLines.join(u'\n').toStdString();
    EXPECT_TRUE(always->text(2).startsWith(QStringLiteral("line ")))
        << always->text(2).toStdString();
    test::keepPictures(window, QStringLiteral("doctor_1920x1080"));

    QTreeWidgetItem* missed = findingItem(*panel, QStringLiteral("never-completed"));
    ASSERT_NE(missed, nullptr);
    panel->findingsTree()->setCurrentItem(missed);
    QTreeWidget* runs = panel->runsList();
    ASSERT_EQ(runs->topLevelItemCount(), 1);
    EXPECT_EQ(runs->topLevelItem(0)->text(5).toStdString(), "in_progress");
    EXPECT_TRUE(
        QString::fromStdString(stories.zombieSha.value).startsWith(runs->topLevelItem(0)->text(0)));

    // The backend whose legs share a job name: both its rows and its workflow say so.
    bool sharedShown = false;
    for (int i = 0; i < backends->topLevelItemCount(); ++i) {
        panel->selectBackend(backends->topLevelItem(i)->text(0));
        const QStringList lines = findingLines(*panel);
        const bool rows = findingItem(*panel, QStringLiteral("shared-job-name")) != nullptr;
        const bool yaml = findingItem(*panel, QStringLiteral("matrix-job-name")) != nullptr;
        EXPECT_EQ(rows, yaml) << backends->topLevelItem(i)->text(0).toStdString();
        sharedShown = sharedShown || (rows && yaml);
        const bool wrongSha =
            backends->topLevelItem(i)->text(0).toStdString() == stories.wrongShaBackend;
        if (backends->topLevelItem(i)->text(0) != zombie && !rows && !wrongSha) {
            EXPECT_EQ(backends->topLevelItem(i)->text(2), QStringLiteral("—"))
                << backends->topLevelItem(i)->text(0).toStdString() << ": "
                << lines.join(u'\n').toStdString();
        }
    }
    EXPECT_TRUE(sharedShown);

    // The backend that checks out the default branch: its workflow's
    // checkouts without ref, and its logs' checkouts of another commit.
    ASSERT_FALSE(stories.wrongShaBackend.empty());
    ASSERT_TRUE(panel->selectBackend(QString::fromStdString(stories.wrongShaBackend)));
    const QStringList wrongLines = findingLines(*panel);
    QTreeWidgetItem* exact = findingItem(*panel, QStringLiteral("exact-sha"));
    ASSERT_NE(exact, nullptr) << wrongLines.join(u'\n').toStdString();
    EXPECT_TRUE(exact->text(2).startsWith(QStringLiteral("line "))) << exact->text(2).toStdString();
    QTreeWidgetItem* tested = findingItem(*panel, QStringLiteral("tested-sha"));
    ASSERT_NE(tested, nullptr) << wrongLines.join(u'\n').toStdString();
    EXPECT_TRUE(tested->text(0).contains(QStringLiteral("error"))) << tested->text(0).toStdString();
    panel->findingsTree()->setCurrentItem(tested);
    ASSERT_GT(runs->topLevelItemCount(), 0);
    for (int i = 0; i < runs->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* run = runs->topLevelItem(i);
        // "<10 hex> (line N)", another commit than the dispatched one beside it.
        EXPECT_TRUE(run->text(1).contains(QStringLiteral("(line "))) << run->text(1).toStdString();
        EXPECT_FALSE(run->text(1).startsWith(run->text(0))) << run->text(0).toStdString();
    }
    test::keepPictures(window, QStringLiteral("doctor_tested_sha_1920x1080"));

    // The Backends tab's Doctor column counts what this tab counts.
    QSignalSpy overview(window.backends()->backendsPanel(), &BackendsPanel::loaded);
    window.showView(QStringLiteral("backends"));
    ASSERT_TRUE(overview.wait(kWaitMs));
    const QTreeWidget* table = window.backends()->backendsPanel()->table();
    int compared = 0;
    for (int i = 0; i < backends->topLevelItemCount(); ++i) {
        const QTreeWidgetItem* doctorRow = backends->topLevelItem(i);
        const auto number = [](const QString& cell) {
            return cell == QStringLiteral("—") ? 0 : cell.toInt();
        };
        QStringList expected;
        if (const int errors = number(doctorRow->text(2)))
            expected << (errors == 1 ? QStringLiteral("1 error")
                                     : QStringLiteral("%1 errors").arg(errors));
        if (const int warnings = number(doctorRow->text(3)))
            expected << (warnings == 1 ? QStringLiteral("1 warning")
                                       : QStringLiteral("%1 warnings").arg(warnings));
        for (int j = 0; j < table->topLevelItemCount(); ++j) {
            const QTreeWidgetItem* row = table->topLevelItem(j);
            if (row->data(1, Qt::UserRole).toString() != doctorRow->text(0))
                continue;
            ++compared;
            const QString shown = row->text(13);
            if (expected.isEmpty()) {
                EXPECT_TRUE(shown == QStringLiteral("sound") || shown == QStringLiteral("—"))
                    << doctorRow->text(0).toStdString() << ": " << shown.toStdString();
            } else {
                EXPECT_EQ(shown, expected.join(u" · ")) << doctorRow->text(0).toStdString();
            }
        }
    }
    EXPECT_EQ(compared, backends->topLevelItemCount());
    ASSERT_TRUE(window.showView(QStringLiteral("doctor")));

    // Activating the zombie's run selects it in the matrix.
    ASSERT_TRUE(panel->selectBackend(zombie));
    panel->findingsTree()->setCurrentItem(findingItem(*panel, QStringLiteral("never-completed")));
    QSignalSpy shown(window.details(), &DetailsCoordinator::runDetailsShown);
    emit panel->runsList()->itemActivated(panel->runsList()->topLevelItem(0), 0);
    EXPECT_FALSE(panel->isVisible()); // back to the matrix
    ASSERT_TRUE(shown.count() > 0 || shown.wait(kWaitMs));
}

} // namespace
