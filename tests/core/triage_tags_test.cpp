// Human triage tags in the cache: set with undo, restart, the reads the
// tests table and the matrix use, and the failing tests clustering reads.
#include "outcome_letters.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/triage_store.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::testing;
using triage::FailureClass;

namespace {

using namespace relayhud::test::outcome_letters;

const std::string kRepo = "torch-spyre/torch-spyre";

std::string identity(const std::string& name) { return "test/test_ops.py::TestOps::" + name; }

TriageTag tagOn(const std::string& sha, const std::string& job, int attempt,
                const std::string& test, FailureClass cls, std::int64_t timeMs,
                const std::string& note = {})
{
    TriageTag tag;
    tag.target = {kRepo, "CI", job, Sha{sha}, attempt, test};
    tag.cls = cls;
    tag.note = note;
    tag.bugUrl = note.empty() ? "" : "https://github.com/org/repo/issues/1";
    tag.author = "alice";
    tag.timeMs = timeMs;
    return tag;
}

class TriageCache : public ::testing::Test {
protected:
    void SetUp() override { m_cache = openCacheOk(":memory:"); }

    // A run of `job` on `sha` with the given results (and their totals, as
    // the JUnit reader counts them); returns the check run row.
    CheckRunRow run(const std::string& sha, EpochSeconds time, const std::string& job, int attempt,
                    const std::vector<std::tuple<std::string, TestOutcome, std::string>>& tests)
    {
        const auto row =
            addRun(*m_cache, completedRun(sha, job, attempt, Conclusion::Failure, time), time);
        if (tests.empty())
            return row;
        auto writer =
            TestResultStore(*m_cache).beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
        EXPECT_TRUE(writer);
        TestRunTotals totals;
        for (const auto& [name, outcome, message] : tests) {
            EXPECT_TRUE((*writer)->add(makeCase("TestOps", name, outcome, message)));
            ++totals.outcomes[static_cast<std::size_t>(outcome)];
        }
        EXPECT_TRUE((*writer)->commit(totals));
        return row;
    }

    std::optional<TriageTag> stored(const TriageTarget& target)
    {
        auto found = TriageStore(*m_cache).triageTagsFor({target});
        EXPECT_TRUE(found) << (found ? "" : found.message());
        return found ? found->front() : std::nullopt;
    }

    relayhud::testing::TestCache m_cache;
};

} // namespace

TEST_F(TriageCache, SetReturnsWhatWasThereAndRestoreUndoesStepByStep)
{
    const TriageTag first = tagOn("s1", "build", 1, identity("test_a"), FailureClass::Flaky, 1000);
    const TriageTag second =
        tagOn("s1", "build", 1, identity("test_a"), FailureClass::Regression, 2000, "broke it");

    auto before1 = TriageStore(*m_cache).setTriageTags({first});
    ASSERT_TRUE(before1) << before1.message();
    ASSERT_EQ(before1->size(), 1u);
    EXPECT_FALSE(before1->front());
    EXPECT_EQ(stored(first.target), first);

    auto before2 = TriageStore(*m_cache).setTriageTags({second});
    ASSERT_TRUE(before2);
    EXPECT_EQ(before2->front(), first);
    EXPECT_EQ(stored(first.target), second);

    ASSERT_TRUE(TriageStore(*m_cache).restoreTriageTags({second.target}, *before2));
    EXPECT_EQ(stored(first.target), first);
    ASSERT_TRUE(TriageStore(*m_cache).restoreTriageTags({first.target}, *before1));
    EXPECT_FALSE(stored(first.target));
    EXPECT_TRUE(TriageStore(*m_cache).triageTags()->empty());
}

TEST_F(TriageCache, ABatchIsUndoneAsAWholeEvenWhenItNamesATargetTwice)
{
    const TriageTag kept = tagOn("s1", "build", 1, "", FailureClass::Infra, 500);
    ASSERT_TRUE(TriageStore(*m_cache).setTriageTags({kept}));
    const std::vector<TriageTag> batch{
        tagOn("s1", "build", 1, "", FailureClass::Flaky, 1000),
        tagOn("s1", "build", 1, identity("test_b"), FailureClass::Expected, 1000),
        tagOn("s1", "build", 1, "", FailureClass::BackendBug, 1001),
    };
    auto before = TriageStore(*m_cache).setTriageTags(batch);
    ASSERT_TRUE(before);
    EXPECT_EQ((*before)[0], kept);
    EXPECT_FALSE((*before)[1]);
    EXPECT_EQ((*before)[2], batch[0]); // the batch's own first tag
    EXPECT_EQ(stored(kept.target)->cls, FailureClass::BackendBug);

    std::vector<TriageTarget> targets;
    for (const auto& tag : batch)
        targets.push_back(tag.target);
    ASSERT_TRUE(TriageStore(*m_cache).restoreTriageTags(targets, *before));
    EXPECT_EQ(stored(kept.target), kept);
    EXPECT_FALSE(stored(batch[1].target));
}

TEST_F(TriageCache, ABadTagInABatchWritesNothing)
{
    const TriageTag good = tagOn("s1", "build", 1, "", FailureClass::Infra, 1);
    struct Case {
        const char* what;
        TriageTag tag;
        const char* message;
    };
    std::vector<Case> cases;
    cases.push_back({"no repo", good, "needs a repository"});
    cases.back().tag.target.repo.clear();
    cases.push_back({"no sha", good, "needs a repository, workflow, job and SHA"});
    cases.back().tag.target.sha = Sha{};
    cases.push_back({"attempt 0", good, "attempt starts at 1"});
    cases.back().tag.target.attempt = 0;
    cases.push_back({"unset class", good, "needs a class"});
    cases.back().tag.cls = FailureClass::Unset;
    cases.push_back({"class out of range", good, "needs a class"});
    cases.back().tag.cls = static_cast<FailureClass>(42);
    for (const Case& c : cases) {
        auto r = TriageStore(*m_cache).setTriageTags({good, c.tag});
        ASSERT_FALSE(r) << c.what;
        EXPECT_NE(r.message().find(c.message), std::string::npos) << c.what << ": " << r.message();
        EXPECT_TRUE(TriageStore(*m_cache).triageTags()->empty()) << c.what;
    }
    auto mismatch = TriageStore(*m_cache).restoreTriageTags({good.target}, {});
    ASSERT_FALSE(mismatch);
    EXPECT_NE(mismatch.message().find("undo of 1 triage tags holds 0"), std::string::npos);
    auto wrongTarget = TriageStore(*m_cache).restoreTriageTags(
        {good.target}, {tagOn("s2", "build", 1, "", FailureClass::Infra, 1)});
    ASSERT_FALSE(wrongTarget);
    EXPECT_NE(wrongTarget.message().find("another target"), std::string::npos);
}

TEST(TriageTagsFile, TagsSurviveARestart)
{
    ScratchDir dir("triage");
    const std::string path = dir.file("cache.sqlite");
    const std::vector<TriageTag> tags{
        tagOn("s1", "build", 2, "", FailureClass::Infra, 1'700'000'000'123, "runner lost"),
        tagOn("s1", "build", 2, identity("test_é"), FailureClass::TestOrConfig, 1'700'000'000'124),
    };
    {
        auto cache = openCacheOk(path);
        ASSERT_TRUE(cache);
        ASSERT_TRUE(TriageStore(*cache).setTriageTags(tags));
    }
    auto reopened = openCacheOk(path);
    ASSERT_TRUE(reopened);
    auto read = TriageStore(*reopened).triageTags();
    ASSERT_TRUE(read);
    EXPECT_EQ(*read, tags);
}

TEST_F(TriageCache, ACheckRunsTagsAreItsJobsThenItsTestsOnly)
{
    const auto row = run("s1", 100, "build", 2, {{"test_a", F, "boom"}});
    run("s1", 100, "build", 1, {});
    ASSERT_TRUE(TriageStore(*m_cache).setTriageTags({
        tagOn("s1", "build", 2, identity("test_z"), FailureClass::Flaky, 3),
        tagOn("s1", "build", 2, "", FailureClass::Infra, 2),
        tagOn("s1", "build", 2, identity("test_a"), FailureClass::Regression, 1),
        tagOn("s1", "build", 1, "", FailureClass::Infra, 1), // another attempt
        tagOn("s1", "lint", 2, "", FailureClass::Infra, 1),  // another job
        tagOn("s2", "build", 2, "", FailureClass::Flaky, 1), // another SHA
    }));
    auto tags = TriageStore(*m_cache).triageTagsForCheckRun(row);
    ASSERT_TRUE(tags) << tags.message();
    ASSERT_EQ(tags->size(), 3u);
    EXPECT_TRUE((*tags)[0].target.isJob());
    EXPECT_EQ((*tags)[1].target.test, identity("test_a"));
    EXPECT_EQ((*tags)[2].target.test, identity("test_z"));

    auto target = TriageStore(*m_cache).triageTargetOf(row, identity("test_a"));
    ASSERT_TRUE(target);
    EXPECT_EQ(*target, (TriageTarget{kRepo, "CI", "build", Sha{"s1"}, 2, identity("test_a")}));
    auto unknown = TriageStore(*m_cache).triageTagsForCheckRun(CheckRunRow{9999});
    ASSERT_FALSE(unknown);
    EXPECT_NE(unknown.message().find("check run 9999 is not in the cache"), std::string::npos);
}

TEST_F(TriageCache, TagsBySha)
{
    ASSERT_TRUE(TriageStore(*m_cache).setTriageTags({
        tagOn("s2", "build", 1, "", FailureClass::Infra, 1),
        tagOn("s1", "build", 1, "", FailureClass::Flaky, 1),
        tagOn("s3", "build", 1, "", FailureClass::Flaky, 1),
    }));
    auto some = TriageStore(*m_cache).triageTags({Sha{"s3"}, Sha{"s1"}, Sha{"s1"}, Sha{"nope"}});
    ASSERT_TRUE(some);
    ASSERT_EQ(some->size(), 2u);
    EXPECT_EQ((*some)[0].target.sha.value, "s1");
    EXPECT_EQ((*some)[1].target.sha.value, "s3");
    EXPECT_EQ(TriageStore(*m_cache).triageTags()->size(), 3u);
}

TEST_F(TriageCache, ProgressCountsFailingTestsAndTheTriagedAmongThem)
{
    const auto red = run("s1", 100, "build", 1,
                         {{"test_f", F, "m"},
                          {"test_e", E, "m"},
                          {"test_x", X, "m"},
                          {"test_p", P, ""},
                          {"test_xf", XF, ""}});
    const auto infra = run("s1", 100, "lint", 1, {});
    const auto green = run("s2", 200, "build", 1, {{"test_p", P, ""}});
    ASSERT_TRUE(TriageStore(*m_cache).setTriageTags({
        tagOn("s1", "build", 1, identity("test_f"), FailureClass::Flaky, 1),
        tagOn("s1", "build", 1, identity("test_e"), FailureClass::Untriaged, 1), // cleared
        tagOn("s1", "build", 1, identity("test_p"), FailureClass::Flaky, 1),     // passed
        tagOn("s1", "build", 1, identity("test_gone"), FailureClass::Flaky, 1),  // not in run
        tagOn("s1", "lint", 1, "", FailureClass::Infra, 1),
    }));
    auto progress =
        TriageStore(*m_cache).triageProgress({red, infra, green, CheckRunRow{9999}, red});
    ASSERT_TRUE(progress) << progress.message();
    ASSERT_EQ(progress->size(), 5u);
    const TriageProgress& r = (*progress)[0];
    EXPECT_EQ(r.checkRunRow, red);
    EXPECT_EQ(r.failingTests, 3);
    EXPECT_EQ(r.triagedTests, 1);
    EXPECT_FALSE(r.jobClass);
    EXPECT_FALSE(r.allTriaged());
    EXPECT_EQ((*progress)[4].triagedTests, 1); // a row asked twice

    const TriageProgress& i = (*progress)[1];
    EXPECT_EQ(i.failingTests, 0);
    EXPECT_EQ(i.jobClass, FailureClass::Infra);
    EXPECT_TRUE(i.allTriaged());
    EXPECT_EQ((*progress)[2].failingTests, 0);
    EXPECT_FALSE((*progress)[2].allTriaged());
    EXPECT_EQ((*progress)[3].failingTests, 0);

    ASSERT_TRUE(TriageStore(*m_cache).setTriageTags({
        tagOn("s1", "build", 1, identity("test_e"), FailureClass::BackendBug, 2),
        tagOn("s1", "build", 1, identity("test_x"), FailureClass::UnexpectedPass, 2),
    }));
    auto after = TriageStore(*m_cache).triageProgress({red});
    ASSERT_TRUE(after);
    EXPECT_EQ(after->front().triagedTests, 3);
    EXPECT_TRUE(after->front().allTriaged());
    EXPECT_TRUE(TriageStore(*m_cache).triageProgress({})->empty());
}

TEST_F(TriageCache, FailuresForClusteringReadFailingResultsNewestShaFirst)
{
    run("s1", 100, "build", 1,
        {{"test_a", F, "\n  \nAssertionError: 3 != 4\nmore"}, {"test_p", P, ""}});
    run("s2", 200, "build", 1, {{"test_a", E, "RuntimeError: boom"}});
    run("s2", 200, "build", 2, {{"test_b", X, ""}});
    run("s3", 300, "lint", 1, {{"test_c", XF, "expected"}});

    auto all = TriageStore(*m_cache).failuresForClustering({});
    ASSERT_TRUE(all) << all.message();
    ASSERT_EQ(all->size(), 3u);
    EXPECT_EQ((*all)[0].sha.value, "s2");
    EXPECT_EQ((*all)[2].sha.value, "s1");
    const FailureRecord& oldest = (*all)[2];
    EXPECT_EQ(oldest.commitTime, 100);
    EXPECT_EQ(oldest.repo, kRepo);
    EXPECT_EQ(oldest.workflow, "CI");
    EXPECT_EQ(oldest.job, "build");
    EXPECT_EQ(oldest.attempt, 1);
    EXPECT_EQ(oldest.test, identity("test_a"));
    EXPECT_EQ(oldest.outcome, F);
    EXPECT_EQ(oldest.reason, "AssertionError: 3 != 4");
    EXPECT_EQ(oldest.target(),
              (TriageTarget{kRepo, "CI", "build", Sha{"s1"}, 1, identity("test_a")}));

    auto newest = TriageStore(*m_cache).failuresForClustering({0, 0, 1});
    ASSERT_TRUE(newest);
    EXPECT_TRUE(newest->empty()); // s3 is the newest SHA and has no failures
    auto two = TriageStore(*m_cache).failuresForClustering({0, 0, 2});
    ASSERT_TRUE(two);
    EXPECT_EQ(two->size(), 2u);
    auto window = TriageStore(*m_cache).failuresForClustering({50, 150, 0});
    ASSERT_TRUE(window);
    ASSERT_EQ(window->size(), 1u);
    EXPECT_EQ(window->front().sha.value, "s1");
}
