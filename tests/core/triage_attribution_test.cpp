// The rules that keep "caused by this PR" right on worlds nobody tuned on
// (issue 37), each on a hand-made PR world in a real SQLite cache: a flaky
// failure on any attempt of another SHA, a failure seen once with too few
// runs to compare, this PR's own runs confirming a regression, a job that
// fails random tests once, a nightly's failure gone with the next one, a
// green rerun judged by its own counts, a green report that hides failures,
// and a breakage that began just now.
#include "relayhud/store/checkout_store.h"
#include "triage_suggest_fixture.h"

using namespace relayhud::test::suggest_fixture;
using namespace relayhud::test::outcome_letters;

namespace {

class AttributionTest : public SuggestTest {
protected:
    // Other authors' PRs pass test_a around hour 10.
    void othersPass(int count = 4)
    {
        for (int n = 1; n <= count; ++n)
            head(n, pr(100 + n), 8 + n, {{"test_a", P}}, 1, Conclusion::Success);
    }
};

} // namespace

TEST_F(AttributionTest, AnotherShaWhoseAttemptsDisagreeMakesTheTestFlaky)
{
    othersPass();
    // PR 150, 3 days earlier: attempt 1 failed test_a, its rerun passed. Its
    // newest attempt (the one that settled the SHA) shows no failure.
    head(50, pr(150), -60, {{"test_a", F}});
    head(50, pr(150), -60, {{"test_a", P}}, 2, Conclusion::Success);
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_GE(s.confidence, 0.9);
    EXPECT_EQ(s.why, "failed and passed on attempts of the same SHA on 1 other run of this job "
                     "(#150 (c000050): attempt 1 failed, attempt 2 passed): flaky");
}

TEST_F(AttributionTest, AFailureOfAnotherPrsEarlierAttemptCountsAsItsFailure)
{
    othersPass(3);
    // PR 160 in the window: attempt 1 failed test_a, attempt 2 failed
    // something else and has results without test_a failing.
    head(51, pr(160), 11, {{"test_a", F}});
    head(51, pr(160), 11, {{"test_a", P}, {"test_z", F}}, 2);
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_EQ(s.evidence.front().failedCount, 1) << "#160, by its first attempt";
    EXPECT_EQ(s.evidence.front().passedCount, 3);
}

TEST_F(AttributionTest, AFailureSeenOnceWithFewRunsToCompareIsUnclear)
{
    othersPass(2);
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Untriaged);
    EXPECT_EQ(s.confidence, 0.0);
    EXPECT_EQ(s.why, "unclear — not enough runs: only this PR fails it, on this run alone (no "
                     "rerun or other head of it failed it too), and only 2 other PRs' runs of "
                     "this job within 24 h pass it; a rerun or the PR's next head would tell");
    // Its next head fails it too: this PR's, even with few runs beside it.
    head(61, pr(200), 14, {{"test_a", F}});
    const Suggestion& confirmed = only(suggest(row));
    EXPECT_EQ(confirmed.cls, FailureClass::Regression) << confirmed.why;
    EXPECT_NE(confirmed.why.find("1 of this PR's 1 other runs fail it too"), std::string::npos)
        << confirmed.why;
}

TEST_F(AttributionTest, APrAloneInItsWindowIsCalledOnlyWhenItsOwnRunsAgree)
{
    // Nothing else ran the job within a day: one head says nothing, two
    // heads failing it say this PR's, less surely than with others passing.
    const auto first = head(60, pr(200), 12, {{"test_a", F}});
    EXPECT_EQ(only(suggest(first)).cls, FailureClass::Untriaged);
    head(61, pr(200), 13, {{"test_a", F}});
    const Suggestion& s = only(suggest(first));
    EXPECT_EQ(s.cls, FailureClass::Regression) << s.why;
    EXPECT_LT(s.confidence, 0.9);
    EXPECT_GE(s.confidence, 0.5);
}

TEST_F(AttributionTest, AJobThatFailsRandomTestsOnceCallsAOneOffFailureFlaky)
{
    // Ten other PRs; four of them fail a test no other run fails.
    for (int n = 1; n <= 10; ++n) {
        Tests tests{{"test_a", P}};
        if (n % 3 == 0)
            tests.emplace_back("test_once_" + std::to_string(n), F);
        head(n, pr(100 + n), n, tests, 1,
             tests.size() > 1 ? Conclusion::Failure : Conclusion::Success);
    }
    head(11, pr(111), 11, {{"test_a", P}, {"test_once_11", F}});
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_EQ(s.why, "seen once: no rerun or other head of this PR failed it, and this job fails "
                     "some test once and never again on 4 of 11 other runs: most likely flaky "
                     "(a rerun would tell)");
    // The rerun fails it too: no one-off, this PR's.
    head(60, pr(200), 12, {{"test_a", F}}, 2);
    EXPECT_EQ(only(suggest(row)).cls, FailureClass::Regression);
}

TEST_F(AttributionTest, ANightlysFailureTheNextNightlyPassesIsFlaky)
{
    head(1, kNightly, 0, {{"test_a", P}}, 1, Conclusion::Success);
    const auto row = head(2, kNightly, 24, {{"test_a", F}});
    head(3, kNightly, 48, {{"test_a", P}}, 1, Conclusion::Success);
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_EQ(s.why, "failed on this nightly alone: 1 rerun or next nightly passes it: flaky");
}

TEST_F(AttributionTest, AGreenRerunWithoutResultsPassedByItsOwnCounts)
{
    othersPass();
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    // The rerun went green; its artifact is of another attempt, never fetched.
    nextCounts({900, 850, 0, 50});
    head(60, pr(200), 12, {}, 2, Conclusion::Success, "test", false);
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_EQ(s.confidence, 0.9);
    EXPECT_EQ(s.why, "fails on attempt 1, passed on attempt 2 of the same SHA (c000060), green, "
                     "and 0 of its 900 tests failed by its own counts (its results were not "
                     "fetched): flaky");
    EXPECT_EQ(s.evidence.front().kind, EvidenceKind::Rerun);
}

TEST_F(AttributionTest, AGreenRerunWithoutCountsSaysNothingOfTheTest)
{
    othersPass();
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    head(60, pr(200), 12, {}, 2, Conclusion::Success, "test", false); // no counts
    const Suggestion& s = only(suggest(row));
    EXPECT_NE(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_FALSE(find(s, EvidenceKind::Rerun));
}

TEST_F(AttributionTest, AGreenReportWhoseCountsHideFailuresIsTheBackendsBug)
{
    othersPass();
    nextCounts({3685, 3385, 0, 300});
    const auto row = head(60, pr(200), 12, {{"test_a", F}, {"test_b", E}, {"test_c", P}}, 1,
                          Conclusion::Success);
    const auto all = suggest(row);
    ASSERT_EQ(all.size(), 2u);
    for (const Suggestion& s : all) {
        EXPECT_EQ(s.cls, FailureClass::BackendBug) << s.why;
        EXPECT_EQ(s.why, "the job reported green with 0 of its 3685 tests failed, but its JUnit "
                         "shows 2 tests failing, this one among them: its report hides failures "
                         "(the backend's bug)");
    }
    // Green with no counts (torch-spyre's validate mode): no such claim.
    const auto quiet = head(61, pr(201), 12, {{"test_q", F}}, 1, Conclusion::Success);
    EXPECT_NE(only(suggest(quiet)).cls, FailureClass::BackendBug);
}

TEST_F(AttributionTest, ABreakageThatBeganJustNowIsTheBackendsOnceTwoAuthorsFailIt)
{
    for (int n = 1; n <= 6; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    const auto first = head(20, pr(200, "alice"), 10, {{"test_a", F}});
    const auto second = head(21, pr(201, "bob"), 11, {{"test_a", F}});
    for (const auto row : {first, second}) {
        const Suggestion& s = only(suggest(row));
        EXPECT_EQ(s.cls, FailureClass::BackendBug) << s.why;
        EXPECT_TRUE(find(s, EvidenceKind::Breakage));
    }
}

TEST_F(AttributionTest, OneAuthorsTwoPrsFailingLastAreNoBreakage)
{
    for (int n = 1; n <= 6; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    head(20, pr(200, "alice"), 10, {{"test_a", F}});
    const auto row = head(21, pr(201, "alice"), 11, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression) << "a stack of one author's PRs: " << s.why;
    EXPECT_FALSE(find(s, EvidenceKind::Breakage));
}

TEST_F(AttributionTest, AFlakyTestFailingOnOtherPrsFarAwayIsStillFlaky)
{
    othersPass();
    head(40, pr(140), 12 - 20 * 24, {{"test_a", F}}); // 20 days before
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    head(61, pr(200), 14, {{"test_a", F}}); // even on two heads of this PR
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_EQ(s.evidence.front().failedFurther, 1);
}

TEST_F(AttributionTest, APrThatHappenedToRunFirstWhenTheBackendBrokeIsNoCulprit)
{
    for (int n = 1; n <= 4; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    // From hour 10 every run fails it; PR 200's two heads came first.
    head(20, pr(200), 10, {{"test_a", F}});
    head(21, pr(200), 11, {{"test_a", F}});
    CheckRunRow row;
    for (int n = 30; n <= 34; ++n)
        row = head(n, pr(n + 270), n - 18, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::BackendBug) << s.why;
    const Evidence* breakage = find(s, EvidenceKind::Breakage);
    ASSERT_TRUE(breakage);
    EXPECT_FALSE(breakage->culpritPr) << "no one else's run passed it while #200 failed it";
}

TEST_F(AttributionTest, APrBasedBeforeTheBreakThatStillPassesMakesItUpstreamNotTheBackends)
{
    for (int n = 1; n <= 4; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    // From hour 10 the runs fail it, PR 200's head first; at hour 14 the
    // head of PR 150, based before the break, still passes it, and later
    // PRs fail it again: it comes with main, not with the backend.
    head(20, pr(200), 10, {{"test_a", F}});
    for (int n = 30; n <= 32; ++n)
        head(n, pr(n + 270), n - 19, {{"test_a", F}});
    head(40, pr(150), 14, {{"test_a", P}}, 1, Conclusion::Success);
    CheckRunRow row;
    for (int n = 33; n <= 35; ++n)
        row = head(n, pr(n + 270), n - 18, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::PreExisting) << s.why;
    EXPECT_NE(s.why.find("already broken upstream"), std::string::npos) << s.why;

    // A pass at its very end is the fix, not a base: still the backend's.
    for (int n = 1; n <= 4; ++n)
        head(n, pr(100 + n), n, {{"test_b", P}}, 1, Conclusion::Success, "other");
    CheckRunRow last;
    for (int n = 50; n <= 55; ++n)
        last = head(n, pr(n + 400), n - 40, {{"test_b", F}}, 1, Conclusion::Failure, "other");
    head(56, pr(456), 16.5, {{"test_b", P}}, 1, Conclusion::Success, "other");
    head(57, kNightly, 17, {{"test_b", F}}, 1, Conclusion::Failure, "other");
    EXPECT_EQ(only(suggest(last)).cls, FailureClass::BackendBug) << only(suggest(last)).why;
}

TEST_F(AttributionTest, ANightlyFailingTwiceInARowIsFlakyWhenPrsFailItNowAndThen)
{
    othersPass();
    head(40, pr(140), 11, {{"test_a", F}}); // a PR fails it in the window too
    head(1, kNightly, 0, {{"test_a", F}});
    const auto row = head(2, kNightly, 24, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
}

TEST_F(AttributionTest, AFlakyTestsStreakIsNoBreakage)
{
    // Four PRs in a row fail it, one of them passing it on a rerun: the
    // streak of a flaky test, not a breakage every run carries.
    othersPass();
    head(20, pr(200), 20, {{"test_a", F}});
    head(20, pr(200), 20, {{"test_a", P}}, 2, Conclusion::Success);
    head(21, pr(201), 21, {{"test_a", F}});
    head(22, pr(202), 22, {{"test_a", F}});
    const auto row = head(23, pr(203), 23, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_FALSE(find(s, EvidenceKind::Breakage));
}

TEST_F(AttributionTest, ALoggedFailureWhoseRerunWentGreenIsFlaky)
{
    othersPass();
    // No results, only the log's "FAILED ..." line; the rerun went green.
    const auto row = loggedHead(60, pr(200), 12, "test_logged");
    nextCounts({1302, 1302, 0, 0});
    head(60, pr(200), 12, {}, 2, Conclusion::Success, "test", false);
    const Suggestion& s = only(suggest(row));
    EXPECT_TRUE(s.target.isJob());
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_NE(s.why.find("its log names test/test_ops.py::TestOps::test_logged: fails on attempt "
                         "1, passed on attempt 2"),
              std::string::npos)
        << s.why;
}

TEST_F(AttributionTest, AJobWhoseLogNamesSeveralTestsTakesTheWeightiestClass)
{
    // Four other PRs pass test_a and test_b; PR 150's first attempt failed
    // test_b and its rerun passed it. This PR's job has no results; its
    // log's summary names test_a, then test_b (the line picked).
    for (int n = 1; n <= 4; ++n)
        head(n, pr(100 + n), 8 + n, {{"test_a", P}, {"test_b", P}}, 1, Conclusion::Success);
    head(50, pr(150), -60, {{"test_b", F}});
    head(50, pr(150), -60, {{"test_b", P}}, 2, Conclusion::Success);
    const auto row = loggedHead(60, pr(200), 12, "test_b", {"test_a", "test_b"});
    const Suggestion& s = only(suggest(row));
    EXPECT_TRUE(s.target.isJob());
    EXPECT_EQ(s.cls, FailureClass::Regression) << s.why;
    EXPECT_NE(s.why.find("its log names test/test_ops.py::TestOps::test_a: "), std::string::npos)
        << s.why;
    EXPECT_NE(s.why.find("; 2 failed tests in its log (the others: 1 flaky)"), std::string::npos)
        << s.why;

    // The picked line alone (a line stored before schema 10) says flaky.
    const auto alone = loggedHead(61, pr(201), 12.5, "test_b");
    const Suggestion& t = only(suggest(alone));
    EXPECT_EQ(t.cls, FailureClass::Flaky) << t.why;
    EXPECT_EQ(t.why.find("in its log"), std::string::npos) << t.why;
}

// A PR's run whose actions/checkout took another commit than the PR's head
// (a checkout of pytorch/pytorch without `ref:` takes the default branch,
// actions/checkout action.yml, input `ref`) tested none of the PR's change:
// its failure is never the PR's, however alone it is. torch-spyre's merged
// builds (read from FETCH_REF, the build's name, the artifacts' names) are
// the other case: AMergedPrsBuildComparesWithMainsPreviousTestedCommit.
TEST_F(AttributionTest, APrsRunThatCheckedOutAnotherCommitIsNeverThePrsRegression)
{
    const auto checkedOut = [&](CheckRunRow row, const std::string& sha) {
        ASSERT_TRUE(CheckoutStore(*m_cache).putTestedCommit(
            row, TestedCommit{sha, "", TestedCommitSource::ActionsCheckout, "", 120}));
    };
    const std::string main = "a000080" + std::string(33, 'f');
    othersPass(2);
    const auto row = head(60, pr(200), 12, {{"test_a", F}});
    checkedOut(row, main);
    // Two other runs pass it: too few to say more than "not this PR's".
    const Suggestion& few = only(suggest(row));
    EXPECT_EQ(few.cls, FailureClass::Untriaged) << few.why;
    EXPECT_EQ(few.why, "unclear — this run tested a000080, not the PR's head (its "
                       "actions/checkout took another commit: without `ref:`, the default "
                       "branch), so none of this PR's change is in it; only 2 other runs of "
                       "this job within 24 h pass it: main's next builds would tell");
    // Four pass it around this one: a one-off there, where a PR's own head
    // would be its regression (APrAloneInItsWindowIsCalledOnlyWhenItsOwnRunsAgree).
    head(3, pr(103), 11, {{"test_a", P}}, 1, Conclusion::Success);
    head(4, pr(104), 13, {{"test_a", P}}, 1, Conclusion::Success);
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_DOUBLE_EQ(s.confidence, 0.6);
    EXPECT_EQ(s.why, "this run tested a000080, not the PR's head (its actions/checkout took "
                     "another commit: without `ref:`, the default branch), so none of this "
                     "PR's change is in it; fails here and on none of the 4 other runs of this "
                     "job within 24 h: most likely flaky (a rerun would tell)");
}
