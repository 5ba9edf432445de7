// The Merge gating tab (issue 34, part 8): the judgement of verdict/merge_gating.h
// for a PR read from a cache, painted as plain text, with the rule cited.
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/ui/gating/merge_gating_panel.h"

#include "test_support.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

CheckRun gatingRun(const std::string& repo, const std::string& sha, const std::string& job,
                   RunStatus status, Conclusion conclusion)
{
    CheckRun r;
    r.downstreamRepo = repo;
    r.upstreamSha = Sha{sha};
    r.prNumber = PrNumber{77};
    r.workflow = "ci";
    r.jobName = job;
    r.checkRunId = CheckRunId{repo + sha + job};
    r.runId = "5";
    r.reported.status = status;
    r.reported.conclusion = conclusion;
    r.reported.startedAt = 1000;
    return r;
}

QString cacheWithAPr(const QTemporaryDir& dir)
{
    const QString path = dir.filePath(QStringLiteral("cache.sqlite"));
    auto cache = Database::open(path.toStdString());
    EXPECT_TRUE(cache) << cache.message();
    const std::string head(40, 'b');
    const std::string earlier(40, 'a');
    SyncBatch batch;
    batch.backends = {{"org/gate", Level::L4, {}, true}, {"org/opt-in", Level::L3, {}, true}};
    batch.commits = {{Sha{earlier}, 77, "main", EventType::PullRequest, 100, "Fix", "me"},
                     {Sha{head}, 77, "main", EventType::PullRequest, 200, "Fix", "me"}};
    batch.runs = {
        gatingRun("org/gate", head, "build <b>x</b>", RunStatus::InProgress, Conclusion::None),
        gatingRun("org/gate", earlier, "build <b>x</b>", RunStatus::Completed, Conclusion::Failure),
        gatingRun("org/opt-in", head, "test", RunStatus::Completed, Conclusion::Failure)};
    EXPECT_TRUE(RunStore(**cache).apply(batch));
    return path;
}

TEST(MergeGatingPanel, ShowsTheBotsBlockAndDrCisRowsForAPr)
{
    QTemporaryDir dir;
    const QString path = cacheWithAPr(dir);
    MergeGatingPanel panel;
    panel.resize(640, 480);
    const MergeGatingData data = MergeGatingPanel::read(path, PrNumber{77});
    ASSERT_TRUE(data.gating) << data.error.toStdString();
    panel.showData(data);
    // The L4 job is still running on the head: the bot would wait for it.
    EXPECT_TRUE(panel.botText().startsWith(QStringLiteral("● Merge bot: blocks the merge of #77")))
        << panel.botText().toStdString();
    ASSERT_EQ(panel.botTable()->topLevelItemCount(), 2);
    // CI text is plain: the job's markup is shown as typed.
    bool markup = false;
    for (int i = 0; i < panel.botTable()->topLevelItemCount(); ++i)
        markup |= panel.botTable()
                      ->topLevelItem(i)
                      ->text(MergeGatingPanel::BotNameColumn)
                      .contains(QStringLiteral("<b>x</b>"));
    EXPECT_TRUE(markup);
    // Dr. CI: the L3 failure as non-blocking, the earlier head's L4 failure listed.
    EXPECT_TRUE(panel.drciText().contains(QStringLiteral("1 non-blocking (L3)")))
        << panel.drciText().toStdString();
    ASSERT_EQ(panel.drciTable()->topLevelItemCount(), 2);
    QStringList sections;
    for (int i = 0; i < panel.drciTable()->topLevelItemCount(); ++i)
        sections << panel.drciTable()->topLevelItem(i)->text(MergeGatingPanel::DrciSectionColumn);
    EXPECT_TRUE(sections.contains(QStringLiteral("CRCR (non-blocking)")));
    EXPECT_TRUE(sections.contains(QStringLiteral("failure")));
    EXPECT_TRUE(panel.botTable()->toolTip().contains(QStringLiteral("pytorchBotHandler.ts")));
    relayhud::ui::test::keepPictures(panel, QStringLiteral("merge_gating_panel"));
}

TEST(MergeGatingPanel, LoadsOnAWorkerAndSaysWhenARowIsNoPr)
{
    QTemporaryDir dir;
    const QString path = cacheWithAPr(dir);
    MergeGatingPanel panel;
    QSignalSpy loaded(&panel, &MergeGatingPanel::loaded);
    panel.load(path, PrNumber{77});
    // Counted, not waited for: a worker that is done before the continuation
    // is attached may deliver it inside load() already.
    ASSERT_TRUE(QTest::qWaitFor([&] { return loaded.count() == 1; }, relayhud::ui::test::kWaitMs));
    EXPECT_EQ(panel.prNumber(), PrNumber{77});
    EXPECT_TRUE(panel.botText().contains(QStringLiteral("blocks")));
    panel.load(path, PrNumber{0});
    EXPECT_FALSE(panel.isLoading());
    EXPECT_FALSE(panel.botTable()->isVisibleTo(&panel));
    panel.load(path, PrNumber{9999}); // no runs in the cache: said, not an empty view
    ASSERT_TRUE(QTest::qWaitFor([&] { return loaded.count() == 2; }, relayhud::ui::test::kWaitMs));
    EXPECT_FALSE(panel.botTable()->isVisibleTo(&panel));
}

} // namespace
