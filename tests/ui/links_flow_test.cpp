// Links and keys in a main window over a real cache: relayhud:// links select
// their place once the matrix has loaded (or say why not), a second instance's
// link arrives over the local socket, "Copy link" writes links that lead back,
// and Ctrl+K jumps to a PR and to a job.
#include "relayhud/sim/sim_dataset.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/ui/app/instance_channel.h"
#include "relayhud/ui/jump/jump_box.h"
#include "relayhud/ui/jump/jump_model.h"
#include "relayhud/ui/links/app_link.h"
#include "relayhud/ui/matrix/commit_header_view.h"
#include "relayhud/ui/matrix/matrix_filter_proxy.h"
#include "relayhud/ui/matrix/matrix_model.h"
#include "relayhud/ui/matrix/matrix_view.h"
#include "relayhud/ui/status/sync_status_widget.h"
#include "relayhud/ui/tests/tests_model.h"
#include "relayhud/ui/tests/tests_panel.h"
#include "relayhud/ui/window/links_coordinator.h"
#include "relayhud/ui/window/logs_coordinator.h"
#include "relayhud/ui/window/main_window.h"
#include "relayhud/ui/window/matrix_coordinator.h"
#include "relayhud/ui/window/sync_coordinator.h"
#include "relayhud/ui/window/tests_coordinator.h"

#include "sim_session.h"
#include "test_support.h"

#include <QApplication>
#include <QClipboard>
#include <QLineEdit>
#include <QListView>
#include <QMenu>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <gmock/gmock.h>

#include <algorithm>
#include <map>

using namespace relayhud;
using namespace relayhud::ui;
using relayhud::ui::test::offlineSession;
using ::testing::HasSubstr;

namespace {

using relayhud::ui::test::kWaitMs;

// The same job of the same commit, run twice: GitHub gives each attempt its
// own check run id.
struct Retried {
    CheckRun first;
    CheckRun newest;
};

std::optional<Retried> retriedRun(const sim::SimDataset& data)
{
    std::map<std::tuple<std::string, std::string, std::string, std::string>, Retried> byJob;
    for (const auto& row : data.rows) {
        const CheckRun& r = row.run;
        auto [it, added] = byJob.try_emplace(
            {r.downstreamRepo, r.workflow, r.jobName, r.upstreamSha.value}, Retried{r, r});
        if (r.runAttempt < it->second.first.runAttempt)
            it->second.first = r;
        if (r.runAttempt > it->second.newest.runAttempt)
            it->second.newest = r;
    }
    for (const auto& [key, runs] : byJob)
        if (runs.newest.runAttempt > runs.first.runAttempt)
            return runs;
    return std::nullopt;
}

QString runLink(const CheckRun& run, const QString& test = {})
{
    return runLinkUrl(run.checkRunId, test);
}

class LinksFlow : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_data = ui::test::dataset();
        m_cachePath = m_dir.filePath(QStringLiteral("cache.sqlite"));
        ui::test::fillCache(m_cachePath.toStdString(), m_data);
        auto cache = Database::open(m_cachePath.toStdString());
        ASSERT_TRUE(cache) << cache.message();
        m_cache = std::move(*cache);
    }

    CheckRunRow rowOf(const CheckRun& run) const
    {
        auto row = RunStore(*m_cache).checkRunRowFor(run.checkRunId);
        return row && *row ? **row : CheckRunRow{};
    }

    // Two tests stored for `run`, as an artifact fetch would store them.
    void storeTests(const CheckRun& run)
    {
        auto writer = TestResultStore(*m_cache).beginTestRun(
            {rowOf(run), TestRunSource::Artifacts, "junit", "u"});
        ASSERT_TRUE(writer) << writer.message();
        TestRunTotals totals;
        for (const char* name : {"test_add_float16", "test_mul_float32"}) {
            TestCaseResult c;
            c.file = "test/test_ops.py";
            c.className = "TestOps";
            c.name = name;
            c.identity = c.file + "::TestOps::" + c.name;
            c.baseName = "TestOps::" + c.name;
            ASSERT_TRUE((*writer)->add(c));
            ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
        }
        ASSERT_TRUE((*writer)->commit(totals));
    }

    std::unique_ptr<MainWindow> window()
    {
        auto w = std::make_unique<MainWindow>(offlineSession(m_cachePath));
        w->resize(1400, 860);
        return w;
    }

    QTemporaryDir m_dir;
    QString m_cachePath;
    sim::SimDataset m_data;
    std::unique_ptr<Database> m_cache;
};

// The link's outcome: (found, message).
std::pair<bool, QString> outcomeOf(QSignalSpy& spy)
{
    EXPECT_TRUE(spy.count() > 0 || spy.wait(kWaitMs));
    if (spy.isEmpty())
        return {false, QStringLiteral("(no linkOpened)")};
    const QList<QVariant> args = spy.takeFirst();
    return {args.at(1).toBool(), args.at(2).toString()};
}

} // namespace

TEST_F(LinksFlow, ARunLinkSelectsTheCellOfItsNewestAttemptAfterTheFirstLoad)
{
    const auto retried = retriedRun(m_data);
    ASSERT_TRUE(retried) << "the simulated world has no retried job";
    auto w = window();
    QSignalSpy opened(w->links(), &LinksCoordinator::linkOpened);
    // Given before the matrix has loaded: acted on once it has.
    w->logs()->openPaths({runLink(retried->first)});
    EXPECT_EQ(opened.count(), 0);

    const auto [found, message] = outcomeOf(opened);
    ASSERT_TRUE(found) << message.toStdString();
    const QModelIndex current = w->matrix()->view()->currentIndex();
    ASSERT_TRUE(current.isValid());
    EXPECT_EQ(current.data(MatrixModel::RunRowIdRole).toLongLong(), rowOf(retried->newest).value);
    EXPECT_EQ(current.data(MatrixModel::ShaRole).toString(),
              QString::fromStdString(retried->first.upstreamSha.value));
    EXPECT_EQ(current.data(MatrixModel::JobRole).toString(),
              QString::fromStdString(retried->first.jobName));
    EXPECT_THAT(w->syncStatus()->stateText().toStdString(), HasSubstr("Showing"));
}

TEST_F(LinksFlow, ShaAndPullRequestLinksSelectTheirRow)
{
    auto w = window();
    QSignalSpy opened(w->links(), &LinksCoordinator::linkOpened);
    QSignalSpy refreshed(w->sync(), &SyncCoordinator::matrixRefreshed);
    ASSERT_TRUE(refreshed.wait(kWaitMs));
    const MatrixSnapshot& snap = w->matrix()->model().snapshot();
    // A commit below the top whose key is a SHA (a nightly's may be its
    // delivery id, "nightly-2026-12-04", which 12 characters do not pick).
    const auto isSha = [](const UpstreamCommit& c) {
        return c.sha.value.size() == 40
               && c.sha.value.find_first_not_of("0123456789abcdef") == std::string::npos;
    };
    const auto below =
        std::find_if(snap.rows.begin() + std::min<std::ptrdiff_t>(3, std::ssize(snap.rows)),
                     snap.rows.end(), isSha);
    ASSERT_NE(below, snap.rows.end());
    const UpstreamCommit& commit = *below;

    w->links()->openLink(QStringLiteral("relayhud://sha/")
                         + QString::fromStdString(commit.sha.value).left(12));
    auto [found, message] = outcomeOf(opened);
    ASSERT_TRUE(found) << message.toStdString();
    EXPECT_EQ(w->matrix()->view()->currentIndex().data(MatrixModel::ShaRole).toString(),
              QString::fromStdString(commit.sha.value));

    const UpstreamCommit* head = nullptr; // the newest head of the first PR listed
    for (const UpstreamCommit& c : snap.rows)
        if (c.prNumber.value > 0
            && (!head || (c.prNumber == head->prNumber && c.time > head->time)))
            head = &c;
    ASSERT_NE(head, nullptr);
    w->links()->openLink(pullRequestLinkUrl(head->prNumber));
    std::tie(found, message) = outcomeOf(opened);
    ASSERT_TRUE(found) << message.toStdString();
    EXPECT_EQ(w->matrix()->view()->currentIndex().data(MatrixModel::ShaRole).toString(),
              QString::fromStdString(head->sha.value));
}

TEST_F(LinksFlow, LinksToWhatTheCacheLacksSaySoInTheStatusBar)
{
    auto w = window();
    QSignalSpy opened(w->links(), &LinksCoordinator::linkOpened);
    w->links()->openLink(QStringLiteral("relayhud://run/99999999999999"));
    auto [found, message] = outcomeOf(opened);
    EXPECT_FALSE(found);
    EXPECT_THAT(message.toStdString(), HasSubstr("Check run 99999999999999 is not in the cache"));
    EXPECT_EQ(w->syncStatus()->stateText(), message);

    w->links()->openLink(QStringLiteral("relayhud://pr/987654321"));
    std::tie(found, message) = outcomeOf(opened);
    EXPECT_FALSE(found);
    EXPECT_THAT(message.toStdString(), HasSubstr("PR #987654321 has no commit"));

    w->links()->openLink(QStringLiteral("relayhud://run/not-a-number"));
    std::tie(found, message) = outcomeOf(opened);
    EXPECT_FALSE(found);
    EXPECT_THAT(message.toStdString(), HasSubstr("Cannot open relayhud://run/not-a-number"));
    EXPECT_EQ(w->syncStatus()->stateText(), message);
}

TEST_F(LinksFlow, ARunLinkWithATestSelectsThatTestInTheTestsPanel)
{
    const auto retried = retriedRun(m_data);
    ASSERT_TRUE(retried);
    storeTests(retried->newest);
    const QString wanted = QStringLiteral("test/test_ops.py::TestOps::test_mul_float32");
    auto w = window();
    QSignalSpy opened(w->links(), &LinksCoordinator::linkOpened);
    w->links()->openLink(runLink(retried->newest, wanted));
    auto [found, message] = outcomeOf(opened);
    ASSERT_TRUE(found) << message.toStdString();
    const QModelIndex test =
        w->tests()->panel()->model().indexOfTest(w->tests()->panel()->selectedTestId());
    EXPECT_EQ(test.data(TestsModel::IdentityRole).toString(), wanted);

    // The same run again, its tests already on screen; a test it does not have.
    w->links()->openLink(
        runLink(retried->newest, QStringLiteral("test/test_ops.py::TestOps::nope")));
    std::tie(found, message) = outcomeOf(opened);
    EXPECT_FALSE(found);
    EXPECT_THAT(message.toStdString(), HasSubstr("TestOps::nope is not among its tests"));
}

TEST_F(LinksFlow, ASecondInstanceForwardsItsLinkToTheFirst)
{
    const auto retried = retriedRun(m_data);
    ASSERT_TRUE(retried);
    auto w = window();
    QSignalSpy refreshed(w->sync(), &SyncCoordinator::matrixRefreshed);
    ASSERT_TRUE(refreshed.wait(kWaitMs));
    const QString name = m_dir.filePath(QStringLiteral("relayhud.sock"));
    // The first instance, as the launcher wires it.
    InstanceChannel first(name);
    ASSERT_TRUE(first.listen()) << first.errorString().toStdString();
    QObject::connect(&first, &InstanceChannel::received, w.get(),
                     [&](const QStringList& arguments) { w->logs()->openPaths(arguments); });
    QSignalSpy opened(w->links(), &LinksCoordinator::linkOpened);

    InstanceChannel second(name);
    QSignalSpy forwarded(&second, &InstanceChannel::forwarded);
    second.forward({runLink(retried->first)});
    ASSERT_TRUE(forwarded.wait(kWaitMs));

    const auto [found, message] = outcomeOf(opened);
    ASSERT_TRUE(found) << message.toStdString();
    EXPECT_EQ(w->matrix()->view()->currentIndex().data(MatrixModel::RunRowIdRole).toLongLong(),
              rowOf(retried->newest).value);
}

TEST_F(LinksFlow, CopyLinkOnACellACommitAndATestLeadsBack)
{
    const auto retried = retriedRun(m_data);
    ASSERT_TRUE(retried);
    storeTests(retried->newest);
    auto w = window();
    w->show();
    QSignalSpy opened(w->links(), &LinksCoordinator::linkOpened);
    w->links()->openLink(runLink(retried->first));
    ASSERT_TRUE(outcomeOf(opened).first);
    MatrixView* view = w->matrix()->view();
    const QModelIndex cell = view->currentIndex();

    // The cell's menu, as a right click opens it.
    QGuiApplication::clipboard()->setText(QStringLiteral("(nothing copied yet)"));
    QString chosen;
    QTimer::singleShot(0, [&] {
        auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget());
        ASSERT_NE(menu, nullptr);
        for (QAction* action : menu->actions())
            if (action->text() == QStringLiteral("Copy link")) {
                chosen = action->text();
                action->trigger();
            }
        menu->close();
    });
    emit view->customContextMenuRequested(view->visualRect(cell).center());
    EXPECT_EQ(chosen, QStringLiteral("Copy link"));
    // The newest attempt's id: the run the cell shows, read off the GUI thread.
    EXPECT_TRUE(QTest::qWaitFor(
        [&] { return QGuiApplication::clipboard()->text() == runLink(retried->newest); }, kWaitMs))
        << QGuiApplication::clipboard()->text().toStdString();

    EXPECT_EQ(w->links()->commitLink(cell.row()),
              QStringLiteral("relayhud://sha/")
                  + QString::fromStdString(retried->first.upstreamSha.value));
    ASSERT_TRUE(QTest::qWaitFor([&] { return w->tests()->panel()->isShowingTable(); }, kWaitMs));
    const QString identity = QStringLiteral("test/test_ops.py::TestOps::test_add_float16");
    EXPECT_EQ(w->links()->testLink(identity), runLink(retried->newest, identity));

    // Each leads back to its place.
    const QString link = w->links()->testLink(identity);
    w->matrix()->view()->selectionModel()->clearCurrentIndex();
    w->links()->openLink(link);
    const auto [found, message] = outcomeOf(opened);
    ASSERT_TRUE(found) << message.toStdString();
    EXPECT_EQ(view->currentIndex(), cell);
}

TEST_F(LinksFlow, CtrlKJumpsToAPullRequestAndToAJob)
{
    auto w = window();
    QSignalSpy refreshed(w->sync(), &SyncCoordinator::matrixRefreshed);
    w->show();
    w->activateWindow();
    ASSERT_TRUE(QTest::qWaitForWindowActive(w.get()));
    ASSERT_TRUE(refreshed.count() > 0 || refreshed.wait(kWaitMs));
    const MatrixSnapshot& snap = w->matrix()->model().snapshot();
    // The PR with the most heads, and its newest.
    std::map<PrNumber, const UpstreamCommit*> newest;
    std::map<PrNumber, int> heads;
    for (const UpstreamCommit& c : snap.rows)
        if (c.prNumber.value > 0) {
            ++heads[c.prNumber];
            if (!newest[c.prNumber] || c.time > newest[c.prNumber]->time)
                newest[c.prNumber] = &c;
        }
    ASSERT_FALSE(heads.empty());
    const auto pr = std::max_element(heads.begin(), heads.end(), [](auto& a, auto& b) {
                        return a.second < b.second;
                    })->first;

    QTest::keyClick(w.get(), Qt::Key_K, Qt::ControlModifier);
    auto* box = w->findChild<JumpBox*>(QStringLiteral("jumpBox"));
    ASSERT_NE(box, nullptr);
    ASSERT_TRUE(box->isVisible());
    EXPECT_TRUE(box->edit()->hasFocus());
    const QString number = QString::number(pr.value);
    QTest::keyClicks(box->edit(), QStringLiteral("#") + number.left(number.size() - 2));
    EXPECT_GT(box->model().rowCount(), 1);
    test::keepPictures(*w, QStringLiteral("jump-box"));
    QTest::keyClicks(box->edit(), number.right(2));
    ASSERT_GT(box->model().rowCount(), 0);
    EXPECT_EQ(box->model().entry(0)->kind, JumpEntry::Kind::PullRequest);
    QTest::keyClick(box->edit(), Qt::Key_Return);
    EXPECT_FALSE(box->isVisible());
    EXPECT_EQ(w->matrix()->view()->currentIndex().data(MatrixModel::ShaRole).toString(),
              QString::fromStdString(newest[pr]->sha.value));

    // A job by a few characters of its name: its column, on the newest row
    // that ran it.
    // The last column whose first 6 characters few other jobs share.
    const auto sharing = [&](const QString& part) {
        return std::count_if(snap.columns.begin(), snap.columns.end(), [&](const auto& c) {
            return QString::fromStdString(c.job).contains(part, Qt::CaseInsensitive);
        });
    };
    auto job = snap.columns.rbegin();
    while (job != snap.columns.rend() && sharing(QString::fromStdString(job->job).left(6)) > 8)
        ++job;
    ASSERT_NE(job, snap.columns.rend());
    QTest::keyClick(w.get(), Qt::Key_K, Qt::ControlModifier);
    ASSERT_TRUE(box->isVisible());
    EXPECT_TRUE(box->edit()->text().isEmpty());
    QTest::keyClicks(box->edit(), QString::fromStdString(job->job).left(6));
    int row = 0;
    while (row < box->model().rowCount()
           && !(box->model().entry(row)->kind == JumpEntry::Kind::Job
                && box->model().entry(row)->backend == QString::fromStdString(job->backend)
                && box->model().entry(row)->job == QString::fromStdString(job->job)
                && box->model().entry(row)->workflow == QString::fromStdString(job->workflow)))
        ++row;
    ASSERT_LT(row, box->model().rowCount()) << "the job is not among the matches";
    for (int i = 0; i < row; ++i)
        QTest::keyClick(box->edit(), Qt::Key_Down);
    QTest::keyClick(box->edit(), Qt::Key_Enter);
    const QModelIndex current = w->matrix()->view()->currentIndex();
    EXPECT_EQ(current.data(MatrixModel::JobRole).toString(), QString::fromStdString(job->job));
    EXPECT_EQ(current.data(MatrixModel::BackendRole).toString(),
              QString::fromStdString(job->backend));
    EXPECT_NE(current.data(MatrixModel::RunRowIdRole).toLongLong(), 0);
    for (int r = 0; r < current.row(); ++r) // no newer row ran it
        EXPECT_EQ(current.siblingAtRow(r).data(MatrixModel::RunRowIdRole).toLongLong(), 0);

    // Nothing to match: the box says so and Enter moves nothing.
    QTest::keyClick(w.get(), Qt::Key_K, Qt::ControlModifier);
    QTest::keyClicks(box->edit(), QStringLiteral("zzzzqqq"));
    EXPECT_EQ(box->model().rowCount(), 0);
    EXPECT_THAT(box->noteText().toStdString(), HasSubstr("Nothing matches"));
    QTest::keyClick(box->edit(), Qt::Key_Escape);
    EXPECT_FALSE(box->isVisible());
    EXPECT_EQ(w->matrix()->view()->currentIndex(), current);
}
