// SyncController: the worker thread syncs into the cache, failures back off.
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/ui/sync/sync_controller.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;
using namespace std::chrono_literals;

TEST(SyncController, BackoffDoublesFromThirtySecondsUpToTheCap)
{
    EXPECT_EQ(SyncController::backoff(1, 900s), 30s);
    EXPECT_EQ(SyncController::backoff(2, 900s), 60s);
    EXPECT_EQ(SyncController::backoff(4, 900s), 240s);
    EXPECT_EQ(SyncController::backoff(9, 900s), 900s);
    EXPECT_EQ(SyncController::backoff(50, 900s), 900s);
}

TEST(SyncController, SyncsFromTheSimulatorOnItsWorkerThread)
{
    sim::SimConfig config;
    config.commits = 30;
    sim::SimServer server(sim::buildDataset(config));
    ASSERT_GT(server.start(0), 0);
    QTemporaryDir dir;
    SyncRequest request;
    request.hudUrl = server.baseUrl();
    request.cachePath = dir.filePath(QStringLiteral("c.sqlite")).toStdString();
    request.options.days = 30;

    SyncController controller;
    controller.setRequest(request);
    QSignalSpy succeeded(&controller, &SyncController::succeeded);
    QSignalSpy progressed(&controller, &SyncController::progressed);
    controller.syncNow();
    EXPECT_TRUE(controller.isRunning());
    ASSERT_TRUE(succeeded.wait(30000));
    EXPECT_FALSE(controller.isRunning());
    EXPECT_GT(progressed.count(), 0);
    const auto outcome = succeeded.at(0).at(0).value<SyncOutcome>();
    EXPECT_TRUE(outcome.ok);
    EXPECT_GT(outcome.report.runs, 0);

    auto cache = Database::open(request.cachePath);
    ASSERT_TRUE(cache) << cache.message();
    EXPECT_GT(RunStore(**cache).stats()->checkRuns, 0);
}

TEST(SyncController, UnreachableHudFailsAndSchedulesARetry)
{
    QTemporaryDir dir;
    SyncRequest request;
    request.hudUrl = "http://127.0.0.1:1";
    request.cachePath = dir.filePath(QStringLiteral("c.sqlite")).toStdString();
    SyncController controller;
    controller.setRequest(request);
    QSignalSpy failed(&controller, &SyncController::failed);
    controller.syncNow();
    ASSERT_TRUE(failed.wait(30000));
    EXPECT_FALSE(failed.at(0).at(0).toString().isEmpty());
    EXPECT_EQ(failed.at(0).at(1).toInt(), 30);
    EXPECT_EQ(controller.consecutiveFailures(), 1);
}

TEST(SyncController, ShutdownIsPromptAndIdempotent)
{
    QTemporaryDir dir;
    SyncRequest request;
    request.hudUrl = "http://127.0.0.1:1";
    request.cachePath = dir.filePath(QStringLiteral("c.sqlite")).toStdString();
    SyncController controller;
    controller.setRequest(request);
    QSignalSpy started(&controller, &SyncController::started);
    QSignalSpy failed(&controller, &SyncController::failed);
    controller.syncNow();
    QElapsedTimer clock;
    clock.start();
    controller.shutdown();
    controller.shutdown();
    EXPECT_LT(clock.elapsed(), 5000);
    controller.syncNow(); // ignored once shut down
    QCoreApplication::processEvents();
    EXPECT_EQ(started.count(), 1);
    EXPECT_EQ(failed.count(), 0);
}
