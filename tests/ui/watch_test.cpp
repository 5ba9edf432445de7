// Watch and notify (issue 17): what is new on followed items between two
// matrix snapshots, one notification per sync whose click selects the cell,
// quiet hours and mutes, and a notification delivered over a real session
// bus (run under dbus-run-session by ctest where the machine has it).
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/sim/sim_server.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/watch/attributed_failures.h"
#include "relayhud/ui/watch/notifier.h"
#include "relayhud/ui/watch/watch_controller.h"
#include "relayhud/ui/watch/watch_list.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

using relayhud::ui::test::kWaitMs;

MatrixSnapshot twoJobs()
{
    MatrixSnapshot s = test::snapshot({test::commit("a1", 200, 11), test::commit("b2", 100, 22)},
                                      {test::column("org/npu", "test (default, 1, 2, npu)", 1),
                                       test::column("org/npu", "build", 2)});
    return s;
}

WatchList following(std::initializer_list<QString> keys)
{
    WatchList list;
    for (const QString& key : keys)
        list.followed.insert(key);
    return list;
}

const QString kJob = jobKey(QStringLiteral("org/npu"), QStringLiteral("ci"),
                            QStringLiteral("test (default, 1, 2, npu)"));

TEST(WatchList, ANewFailureOnAFollowedJobIsNewAndAFailureThatStaysIsNot)
{
    MatrixSnapshot before = twoJobs();
    test::setCell(before, 1, 0, test::cell(Conclusion::Failure, 5));
    test::setCell(before, 1, 1, test::cell(Conclusion::Success, 6));
    MatrixSnapshot after = before;
    test::setCell(after, 0, 0, test::cell(Conclusion::Failure, 7)); // new commit fails
    test::setCell(after, 0, 1, test::cell(Conclusion::Failure, 8)); // other job: not followed
    const auto events = whatIsNew(before, after, following({kJob}));
    ASSERT_EQ(events.size(), 1U);
    EXPECT_EQ(events[0].kind, WatchEventKind::NewFailure);
    EXPECT_EQ(events[0].runRowId, CheckRunRow{7});
    EXPECT_EQ(events[0].pr, 11);
    EXPECT_TRUE(events[0].notify);
    // Following the backend covers both jobs; nothing followed: nothing new.
    EXPECT_EQ(whatIsNew(before, after, following({backendKey(QStringLiteral("org/npu"))})).size(),
              2U);
    EXPECT_TRUE(whatIsNew(before, after, WatchList{}).empty());
    // A PR is followed through its commits.
    EXPECT_EQ(whatIsNew(before, after, following({prKey(11)})).size(), 2U);
    EXPECT_TRUE(whatIsNew(before, after, following({prKey(22)})).empty());
}

TEST(WatchList, ZombiesAndDisputedGreensAreNewAndMutedItemsAreMarkedNotNotified)
{
    MatrixSnapshot before = twoJobs();
    test::setCell(before, 0, 0, test::running(3));
    test::setCell(before, 0, 1, test::cell(Conclusion::Success, 4));
    MatrixSnapshot after = before;
    MatrixCell zombie = test::running(3);
    zombie.flags |= MatrixCell::Stale;
    test::setCell(after, 0, 0, zombie);
    MatrixCell disputed = test::cell(Conclusion::Success, 4);
    disputed.flags |= MatrixCell::GreenDisputed;
    test::setCell(after, 0, 1, disputed);
    WatchList list = following({backendKey(QStringLiteral("org/npu"))});
    auto events = whatIsNew(before, after, list);
    ASSERT_EQ(events.size(), 2U);
    EXPECT_EQ(events[0].kind, WatchEventKind::Zombie);
    EXPECT_EQ(events[1].kind, WatchEventKind::DisputedGreen);
    list.muted.insert(backendKey(QStringLiteral("org/npu")));
    events = whatIsNew(before, after, list);
    ASSERT_EQ(events.size(), 2U);
    EXPECT_FALSE(events[0].notify);
    EXPECT_EQ(noticeFor(events, {}).items, 0);
}

TEST(WatchList, OneNoticeCountsTheItemsAndPointsAtTheFirst)
{
    std::vector<WatchEvent> events;
    for (int i = 1; i <= 6; ++i)
        events.push_back(WatchEvent{
            WatchEventKind::NewFailure, 100 + i, QStringLiteral("abcdef0123456789"), 5,
            QStringLiteral("org/npu"), QStringLiteral("test (default, 1, 2, npu)"), true});
    const Notice notice = noticeFor(events, {});
    EXPECT_EQ(notice.items, 6);
    EXPECT_EQ(notice.runRowId, CheckRunRow{101});
    EXPECT_EQ(notice.title, QStringLiteral("RelayHUD: 6 new failure(s) on followed items"));
    EXPECT_TRUE(notice.body.startsWith(QStringLiteral("npu default 1/2: failed (#5 abcdef0)")))
        << notice.body.toStdString();
    EXPECT_TRUE(notice.body.endsWith(QStringLiteral("… and 2 more"))) << notice.body.toStdString();
    const Notice relay = noticeFor({}, QStringLiteral("Relay health degraded: 1 of 5 PRs"));
    EXPECT_EQ(relay.items, 1);
    EXPECT_EQ(relay.runRowId, CheckRunRow{0});
}

TEST(WatchList, QuietHoursWrapPastMidnight)
{
    WatchList list;
    EXPECT_FALSE(list.inQuietHours(QTime(3, 0)));
    list.quietFrom = 22;
    list.quietTo = 7;
    EXPECT_TRUE(list.inQuietHours(QTime(23, 30)));
    EXPECT_TRUE(list.inQuietHours(QTime(6, 59)));
    EXPECT_FALSE(list.inQuietHours(QTime(7, 0)));
    EXPECT_FALSE(list.inQuietHours(QTime(12, 0)));
    list.quietFrom = 9;
    list.quietTo = 17;
    EXPECT_TRUE(list.inQuietHours(QTime(9, 0)));
    EXPECT_FALSE(list.inQuietHours(QTime(17, 0)));
}

// Records notices instead of showing them; "clicks" one on request.
class FakeNotifier : public Notifier {
public:
    void show(const Notice& notice) override { shown.push_back(notice); }
    void click(qint64 run) { emit activated(run); }
    std::vector<Notice> shown;
};

TEST(WatchController, QuietHoursMarkButHoldTheNotificationBack)
{
    WatchController watch;
    auto* fake = new FakeNotifier;
    watch.setNotifier(fake);
    WatchList list = following({kJob});
    list.quietFrom = 0;
    list.quietTo = 23;
    watch.setList(list);
    watch.setClock([] { return QTime(12, 0); });
    MatrixSnapshot before = twoJobs();
    MatrixSnapshot after = before;
    test::setCell(after, 0, 0, test::cell(Conclusion::Failure, 9));
    QSignalSpy status(&watch, &WatchController::noticeStatus);
    watch.compare(before, after, {});
    EXPECT_TRUE(fake->shown.empty());
    EXPECT_TRUE(watch.unseen().contains(9));
    ASSERT_EQ(status.count(), 1);
    EXPECT_TRUE(status[0][0].toString().startsWith(QStringLiteral("quiet hours")));
    watch.visited(9);
    EXPECT_TRUE(watch.unseen().isEmpty());
}

triage::Suggestion suggestion(qint64 run, triage::FailureClass cls, const std::string& test,
                              std::int64_t culprit = 0)
{
    triage::Suggestion s;
    s.target.checkRunRow = CheckRunRow{run};
    s.target.testId = TestId{test.empty() ? 0 : 1};
    s.target.identity = test;
    s.cls = cls;
    if (culprit > 0) {
        triage::Evidence breakage;
        breakage.kind = triage::EvidenceKind::Breakage;
        breakage.culpritPr = PrNumber{culprit};
        s.evidence.push_back(breakage);
    }
    return s;
}

WatchEvent failureOn(qint64 run, qint64 pr)
{
    WatchEvent e;
    e.runRowId = CheckRunRow{run};
    e.pr = pr;
    e.sha = QStringLiteral("a1b2c3d4e5");
    e.backend = QStringLiteral("org/npu");
    e.job = QStringLiteral("test (default, 1, 2, npu)");
    return e;
}

TEST(AttributedFailures, OwnRegressionsAndUpstreamBreakagesNameTheirPrAndNothingElseDoes)
{
    QHash<qint64, WatchEvent> awaited;
    awaited.insert(1, failureOn(1, 101)); // its own regression
    awaited.insert(2, failureOn(2, 102)); // broken upstream by #101
    awaited.insert(3, failureOn(3, 103)); // flaky
    awaited.insert(4, failureOn(4, 0));   // a nightly's regression: no PR to name
    WatchEvent muted = failureOn(5, 105);
    muted.notify = false;
    awaited.insert(5, muted);
    using triage::FailureClass;
    const std::vector<triage::Suggestion> suggestions{
        suggestion(1, FailureClass::Regression, "test/test_ops.py::TestOps::test_add"),
        suggestion(1, FailureClass::Regression, "test/test_ops.py::TestOps::test_mul"),
        suggestion(2, FailureClass::PreExisting, "test/test_ops.py::TestOps::test_add", 101),
        suggestion(2, FailureClass::PreExisting, "test/test_ops.py::TestOps::test_old"),
        suggestion(3, FailureClass::Flaky, "test/test_ops.py::TestOps::test_add"),
        suggestion(4, FailureClass::Regression, "test/test_ops.py::TestOps::test_add"),
        suggestion(5, FailureClass::Regression, "test/test_ops.py::TestOps::test_add"),
        suggestion(9, FailureClass::Regression, "not awaited")};
    const std::vector<AttributedFailure> got = attributedFailures(suggestions, awaited);
    ASSERT_EQ(got.size(), 2u) << "one per run and culprit";
    EXPECT_TRUE(got[0].ownRegression);
    EXPECT_EQ(got[0].culpritPr, PrNumber{101});
    EXPECT_EQ(got[0].test, QStringLiteral("test/test_ops.py::TestOps::test_add"));
    EXPECT_FALSE(got[1].ownRegression);
    EXPECT_EQ(got[1].event.pr, 102);
    EXPECT_EQ(got[1].culpritPr, PrNumber{101});

    const Notice notice = noticeForAttributions(got);
    EXPECT_EQ(notice.items, 2);
    EXPECT_EQ(notice.runRowId, CheckRunRow{1});
    EXPECT_EQ(notice.title, QStringLiteral("RelayHUD: failure attributed to #101"));
    EXPECT_EQ(notice.body, QStringLiteral("#101's regression: test_add (npu default 1/2)\n"
                                          "#102: test_add already broken upstream, likely by "
                                          "#101 (npu default 1/2)"));
    EXPECT_EQ(noticeForAttributions({}).items, 0);
}

TEST(WatchController, NewFailuresAwaitTheirEvidenceAndWhatItAttributesIsOneMoreNotice)
{
    WatchController watch;
    auto* fake = new FakeNotifier;
    watch.setNotifier(fake);
    watch.setList(following({kJob}));
    watch.setClock([] { return QTime(12, 0); });
    MatrixSnapshot before = twoJobs();
    MatrixSnapshot after = before;
    test::setCell(after, 0, 0, test::cell(Conclusion::Failure, 9));
    test::setCell(after, 0, 1, test::cell(Conclusion::Failure, 10)); // not followed
    watch.compare(before, after, {});
    ASSERT_EQ(fake->shown.size(), 1u);
    ASSERT_TRUE(watch.awaitsEvidence());
    const QHash<qint64, WatchEvent> awaited = watch.takeAwaitingEvidence();
    EXPECT_EQ(awaited.keys(), QList<qint64>{9});
    EXPECT_EQ(awaited.value(9).pr, 11);
    EXPECT_FALSE(watch.awaitsEvidence()) << "taken once";

    watch.attributionsArrived({});
    EXPECT_EQ(fake->shown.size(), 1u) << "nothing attributed, nothing said";
    const std::vector<AttributedFailure> attributed = attributedFailures(
        {suggestion(9, triage::FailureClass::Regression, "t.py::T::test_x")}, awaited);
    watch.attributionsArrived(attributed);
    ASSERT_EQ(fake->shown.size(), 2u);
    EXPECT_EQ(fake->shown.back().title, QStringLiteral("RelayHUD: failure attributed to #11"));
    EXPECT_EQ(fake->shown.back().runRowId, CheckRunRow{9});

    WatchList quiet = following({kJob});
    quiet.quietFrom = 0;
    quiet.quietTo = 23;
    watch.setList(quiet);
    watch.attributionsArrived(attributed);
    EXPECT_EQ(fake->shown.size(), 2u) << "quiet hours hold it back";
}

// A followed job's new failure after a real sync (the simulator over loopback
// HTTP) raises exactly one notification, and clicking it selects the cell.
TEST(WatchFlow, AFollowedJobsNewFailureRaisesOneNotificationThatSelectsItsCell)
{
    sim::SimConfig config;
    config.seed = 3;
    config.commits = 40;
    const sim::SimDataset data = sim::buildDataset(config);
    // The newest first-attempt failure of a PR run, never retried: the cache
    // starts without it, as if the sync had not seen it yet.
    const sim::SimRow* held = nullptr;
    for (const sim::SimRow& row : data.rows) {
        const CheckRun& r = row.run;
        if (r.reported.conclusion != Conclusion::Failure || r.runAttempt != 1
            || r.prNumber.value == 0)
            continue;
        bool retried = false;
        for (const sim::SimRow& other : data.rows)
            retried = retried
                      || (&other != &row && other.run.upstreamSha == r.upstreamSha
                          && other.run.downstreamRepo == r.downstreamRepo
                          && other.run.workflow == r.workflow && other.run.jobName == r.jobName);
        if (!retried && (!held || r.reported.startedAt > held->run.reported.startedAt))
            held = &row;
    }
    ASSERT_NE(held, nullptr);
    QTemporaryDir dir;
    const QString cachePath = dir.filePath(QStringLiteral("cache.sqlite"));
    {
        auto cache = Database::open(cachePath.toStdString());
        ASSERT_TRUE(cache) << cache.message();
        SyncBatch batch{data.backends, data.commits, {}, {}};
        for (const sim::SimRow& row : data.rows)
            if (&row != held)
                batch.runs.push_back(row.run);
        ASSERT_TRUE(RunStore(**cache).apply(batch));
    }
    sim::SimServer server{sim::SimDataset(data)};
    ASSERT_GT(server.start(0), 0);

    SessionConfig session = ui::test::simSession(server, cachePath, Credentials{});
    session.syncOnStart = false;
    MainWindow window(session);
    auto* fake = new FakeNotifier;
    window.watch()->setNotifier(fake);
    ASSERT_TRUE(QTest::qWaitFor([&] { return window.matrix()->model().rowCount() > 0; }, kWaitMs));
    const CheckRun& run = held->run;
    window.watch()->toggleFollowed(jobKey(QString::fromStdString(run.downstreamRepo),
                                          QString::fromStdString(run.workflow),
                                          QString::fromStdString(run.jobName)));

    QSignalSpy refreshed(window.sync(), &SyncCoordinator::matrixRefreshed);
    QSignalSpy synced(window.sync(), &SyncCoordinator::syncSucceeded);
    window.sync()->syncNow();
    ASSERT_TRUE(synced.wait(kWaitMs));
    ASSERT_TRUE(QTest::qWaitFor([&] { return refreshed.count() > 0; }, kWaitMs));
    ASSERT_EQ(fake->shown.size(), 1U) << "one notification per sync";
    const Notice& notice = fake->shown.front();
    EXPECT_GE(notice.items, 1);
    EXPECT_TRUE(notice.title.contains(QStringLiteral("new failure"))) << notice.title.toStdString();
    EXPECT_GT(window.watch()->unseen().size(), 0);

    // The held-back run is among the marked cells (and so is the shard group
    // it is folded into), and the notice's run is a failure of the followed job.
    const QAbstractItemModel& model = *window.matrix()->view()->model();
    int folded = 0;
    for (int r = 0; r < model.rowCount(); ++r)
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex index = model.index(r, c);
            if (index.data(MatrixModel::ShaRole).toString().toStdString() == run.upstreamSha.value
                && model.headerData(c, Qt::Horizontal, MatrixModel::ShardMembersRole).toInt() > 0
                && index.data(Qt::ToolTipRole)
                       .toString()
                       .contains(QString::fromStdString(run.jobName))) {
                EXPECT_TRUE(index.data(MatrixModel::UnseenRole).toBool());
                ++folded;
            }
        }
    test::keepPictures(window, QStringLiteral("watch_unseen_marks"));
    const QModelIndex heldCell = test::jobCell(
        window.matrix()->model(), model, run.upstreamSha.value, run.downstreamRepo, run.jobName);
    ASSERT_TRUE(heldCell.isValid());
    EXPECT_TRUE(heldCell.data(MatrixModel::UnseenRole).toBool());
    if (folded > 0)
        window.matrix()->model().setShardGroupExpanded(
            heldCell.data(MatrixModel::ShardFamilyRole).toString(), false);

    fake->click(notice.runRowId.value);
    const QModelIndex current = window.matrix()->view()->currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(current.data(MatrixModel::RunRowIdRole).toLongLong(), notice.runRowId.value);
    EXPECT_EQ(current.data(MatrixModel::JobRole).toString().toStdString(), run.jobName);
    // Visiting the cell clears its mark; syncing again raises nothing new.
    EXPECT_FALSE(current.data(MatrixModel::UnseenRole).toBool());
    refreshed.clear();
    window.sync()->syncNow();
    ASSERT_TRUE(synced.wait(kWaitMs));
    ASSERT_TRUE(QTest::qWaitFor([&] { return refreshed.count() > 0; }, kWaitMs));
    EXPECT_EQ(fake->shown.size(), 1U);
}

} // namespace

// A notification server on the session bus, as a desktop's would be: records
// Notify calls and answers with ids.
class FakeNotificationServer : public QObject {
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")
public:
    struct Call {
        QString app, summary, body;
        QStringList actions;
        uint replaces = 0;
    };
    std::vector<Call> calls;

public slots:
    uint Notify(const QString& app, uint replaces, const QString& /*icon*/, const QString& summary,
                const QString& body, const QStringList& actions, const QVariantMap& /*hints*/,
                int /*timeout*/)
    {
        calls.push_back(Call{app, summary, body, actions, replaces});
        return static_cast<uint>(calls.size()) + 41;
    }
    QStringList GetCapabilities() { return {QStringLiteral("actions"), QStringLiteral("body")}; }
};

namespace {

TEST(DesktopNotifierBus, ANoticeReachesTheSessionBusAndItsActionSelectsTheRun)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        GTEST_SKIP() << "no session bus here (ctest runs this under dbus-run-session)";
    FakeNotificationServer server;
    ASSERT_TRUE(bus.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &server,
                                   QDBusConnection::ExportAllSlots));
    if (!bus.registerService(QStringLiteral("org.freedesktop.Notifications")))
        GTEST_SKIP() << "a real notification service owns the name on this bus";

    DesktopNotifier notifier(nullptr);
    QSignalSpy delivered(&notifier, &Notifier::delivered);
    QSignalSpy activated(&notifier, &Notifier::activated);
    Notice notice;
    notice.title = QStringLiteral("RelayHUD: 1 new failure(s) on followed items");
    notice.body = QStringLiteral("npu default 1/2: failed (#5 <abcdef0>)");
    notice.runRowId = CheckRunRow{77};
    notice.items = 1;
    notifier.show(notice);
    ASSERT_TRUE(delivered.wait(5000));
    EXPECT_EQ(delivered[0][0].toString(), QStringLiteral("desktop"));
    ASSERT_EQ(server.calls.size(), 1U);
    EXPECT_EQ(server.calls[0].app, QStringLiteral("RelayHUD"));
    EXPECT_EQ(server.calls[0].summary, notice.title);
    // Markup-capable servers see our plain text escaped.
    EXPECT_EQ(server.calls[0].body, QStringLiteral("npu default 1/2: failed (#5 &lt;abcdef0&gt;)"));
    EXPECT_EQ(server.calls[0].actions.value(0), QStringLiteral("default"));

    // The user clicks it: the server says ActionInvoked(id, "default").
    QDBusMessage signal = QDBusMessage::createSignal(
        QStringLiteral("/org/freedesktop/Notifications"),
        QStringLiteral("org.freedesktop.Notifications"), QStringLiteral("ActionInvoked"));
    signal << uint(42) << QStringLiteral("default");
    ASSERT_TRUE(bus.send(signal));
    ASSERT_TRUE(activated.wait(5000));
    EXPECT_EQ(activated[0][0].toLongLong(), 77);

    // The next sync's notice replaces this one: one on screen at a time.
    notifier.show(notice);
    ASSERT_TRUE(delivered.wait(5000));
    ASSERT_EQ(server.calls.size(), 2U);
    EXPECT_EQ(server.calls[1].replaces, 42U);
    bus.unregisterService(QStringLiteral("org.freedesktop.Notifications"));
}

} // namespace

#include "watch_test.moc"
