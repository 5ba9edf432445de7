// Automatic failure classes (triage/suggest.h): each rule of evidence on
// hand-made PR worlds in a real SQLite cache (PR heads with authors, nightly
// commits), the precedence between them, and bad input. The job failure
// line store and its picking: triage_job_line_test.cpp.
#include "relayhud/store/checkout_store.h"
#include "relayhud/store/test_result_store.h"
#include "triage_suggest_fixture.h"

using namespace relayhud::test::suggest_fixture;
using namespace relayhud::test::outcome_letters;

TEST_F(SuggestTest, AFailureOnlyThisPrShowsIsItsRegressionBroughtByItsLastPush)
{
    for (int n = 1; n <= 5; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    head(20, pr(200), 2, {{"test_a", P}}, 1, Conclusion::Success);
    head(9, pr(300), 3, {{"test_a", P}}, 1, Conclusion::Success, "build"); // another job
    const auto row = head(21, pr(200), 6, {{"test_a", F}, {"test_b", P}});
    // Seen once: this PR's regression, but a flaky test's first failure
    // would look the same.
    const Suggestion once = only(suggest(row));
    EXPECT_EQ(once.cls, FailureClass::Regression);
    EXPECT_LT(once.confidence, 0.9);
    // Its rerun fails it too: a regression holds on every attempt.
    head(21, pr(200), 6, {{"test_a", F}, {"test_b", P}}, 2);
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression);
    EXPECT_GE(s.confidence, 0.9);
    EXPECT_EQ(s.target.identity, "test/test_ops.py::TestOps::test_a");
    ASSERT_FALSE(s.evidence.empty());
    const Evidence& others = s.evidence.front();
    EXPECT_EQ(others.kind, EvidenceKind::Concurrent);
    EXPECT_EQ(others.failedCount, 0);
    EXPECT_EQ(others.passedCount, 5) << "the build job's run is no evidence";
    EXPECT_EQ(others.windowSeconds, 24 * 3600);
    ASSERT_EQ(others.passed.size(), 5u);
    EXPECT_EQ(others.passed.front().prNumber, PrNumber{105}) << "nearest first";
    const Evidence* previous = find(s, EvidenceKind::Baseline);
    ASSERT_TRUE(previous);
    EXPECT_EQ(previous->run->sha.value, sha(20));
    EXPECT_EQ(previous->run->prNumber, PrNumber{200});
    EXPECT_EQ(previous->outcome, P);
    EXPECT_EQ(previous->compareUrl,
              "https://github.com/pytorch/pytorch/compare/" + sha(20) + "..." + sha(21))
        << "a compare between two heads of one PR";
    EXPECT_EQ(s.why, "fails here and on none of the 5 other PRs' runs of this job within 24 h"
                     "; 1 of this PR's 2 other runs fail it too"
                     "; passed on this PR's previous head c000020: brought by the push of "
                     "c000021: this PR's regression");
    for (const Evidence& e : s.evidence)
        EXPECT_TRUE(e.compareUrl.empty() || e.kind == EvidenceKind::Baseline);
}

TEST_F(SuggestTest, ABreakageEveryPrCarriesSinceACulpritPrIsPreExistingAndNamesTheCulprit)
{
    head(1, pr(101), 1, {{"test_a", P}}, 1, Conclusion::Success);
    const auto culprit1 = head(30, pr(300), 2, {{"test_a", F}});
    head(2, pr(102), 3, {{"test_a", P}}, 1, Conclusion::Success);
    const auto culprit2 = head(31, pr(300), 4, {{"test_a", F}});
    head(3, pr(103), 5, {{"test_a", P}}, 1, Conclusion::Success);
    std::vector<CheckRunRow> later;
    for (int k = 1; k <= 6; ++k)
        later.push_back(head(40 + k, pr(400 + k), 5 + k, {{"test_a", F}, {"test_b", P}}));

    const Suggestion& s = only(suggest(later[3]));
    EXPECT_EQ(s.cls, FailureClass::PreExisting);
    const Evidence& b = s.evidence.front();
    ASSERT_EQ(b.kind, EvidenceKind::Breakage);
    EXPECT_EQ(b.culpritPr, PrNumber{300});
    ASSERT_TRUE(b.firstSeen);
    EXPECT_EQ(b.firstSeen->sha.value, sha(30));
    ASSERT_TRUE(b.run);
    EXPECT_EQ(b.run->prNumber, PrNumber{401}) << "the onset: where it spread to other PRs";
    EXPECT_EQ(b.pullUrl, "https://github.com/pytorch/pytorch/pull/300/files");
    EXPECT_GE(b.brokenSources, 3);
    EXPECT_NE(s.why.find("first seen on #300 (c000030)"), std::string::npos) << s.why;
    EXPECT_NE(s.why.find("already broken upstream, likely by #300"), std::string::npos) << s.why;
    for (const Evidence& e : s.evidence)
        EXPECT_TRUE(e.compareUrl.empty()) << "PR 404 has no earlier head: no compare at all";

    // The culprit's own heads: its regression, with the breakage as evidence.
    for (const auto row : {culprit1, culprit2}) {
        const Suggestion& c = only(suggest(row));
        EXPECT_EQ(c.cls, FailureClass::Regression);
        EXPECT_EQ(c.evidence.front().kind, EvidenceKind::Breakage);
        EXPECT_NE(c.why.find("this PR's heads fail it before anyone else's"), std::string::npos)
            << c.why;
    }
    // A head of the culprit once every PR fails the test (it merged, then got
    // a follow-up): trunk was already broken, by its own earlier heads.
    const auto after = head(32, pr(300), 12, {{"test_a", F}});
    const Suggestion& late = only(suggest(after));
    EXPECT_EQ(late.cls, FailureClass::PreExisting) << late.why;
    EXPECT_NE(late.why.find("likely by this PR's own earlier heads (merged?)"), std::string::npos)
        << late.why;
}

TEST_F(SuggestTest, EveryRunFailingAtOnceWithNoPrFirstIsABackendBug)
{
    for (int n = 1; n <= 3; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    head(50, kNightly, 3.5, {{"test_a", P}}, 1, Conclusion::Success);
    std::vector<CheckRunRow> rows;
    for (int k = 1; k <= 5; ++k)
        rows.push_back(head(10 + k, pr(200 + k), 3 + k, {{"test_a", F}}));
    head(51, kNightly, 6.5, {{"test_a", F}});
    const Suggestion& s = only(suggest(rows[2]));
    EXPECT_EQ(s.cls, FailureClass::BackendBug);
    ASSERT_EQ(s.evidence.front().kind, EvidenceKind::Breakage);
    EXPECT_FALSE(s.evidence.front().culpritPr);
    EXPECT_NE(s.why.find("no PR failed it first: the backend changed"), std::string::npos) << s.why;
}

TEST_F(SuggestTest, FailuresOnOtherPrsWithoutACommonStartAreFlaky)
{
    CheckRunRow row;
    for (int n = 1; n <= 10; ++n) {
        const bool fails = n == 3 || n == 8;
        row = head(n, pr(100 + n), n, {{"test_a", fails ? F : P}}, 1,
                   fails ? Conclusion::Failure : Conclusion::Success);
        if (n == 8)
            break;
    }
    for (int n = 9; n <= 10; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky);
    const Evidence& e = s.evidence.front();
    EXPECT_EQ(e.kind, EvidenceKind::Concurrent);
    EXPECT_EQ(e.failedCount, 1);
    EXPECT_EQ(e.passedCount, 8);
    ASSERT_EQ(e.others.size(), 1u);
    EXPECT_EQ(e.others.front().prNumber, PrNumber{103});
    EXPECT_EQ(s.why, "fails on 1 of 9 other PRs' runs of this job within 24 h too, without a "
                     "common start: flaky");
}

TEST_F(SuggestTest, TheSameAuthorsOtherPrsAreNoEvidence)
{
    // Dr. CI's rule (drciUtils.ts isSameAuthor): a stack of one author's PRs
    // shares its changes, so its failures do not make this one flaky.
    for (int n = 1; n <= 4; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    head(10, pr(500, "alice"), 5, {{"test_a", F}});
    const auto row = head(11, pr(501, "alice"), 6, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression);
    EXPECT_EQ(s.evidence.front().failedCount, 0);
    EXPECT_EQ(s.evidence.front().passedCount, 4);
}

TEST_F(SuggestTest, OnlyRunsWithinTheWindowAreConcurrentAndFlakinessLooksFurther)
{
    head(1, pr(101), 1, {{"test_a", F}});
    for (int n = 2; n <= 4; ++n)
        head(n, pr(100 + n), 797 + n, {{"test_a", P}}, 1, Conclusion::Success);
    const auto row = head(5, pr(200), 805, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression) << "PR 101 is 804 h away, past 30 days: " << s.why;
    EXPECT_EQ(s.evidence.front().passedCount, 3);
    SuggestOptions wide;
    wide.attribution.windowSeconds = 805 * 3600;
    EXPECT_EQ(only(suggest(row, wide)).cls, FailureClass::Flaky);

    // Another PR failed it 300 h before: outside the day, inside the month.
    head(6, pr(106), 505, {{"test_a", F}});
    const Suggestion& f = only(suggest(row));
    EXPECT_EQ(f.cls, FailureClass::Flaky);
    EXPECT_EQ(f.evidence.front().kind, EvidenceKind::Concurrent);
    EXPECT_EQ(f.evidence.front().failedFurther, 1);
    EXPECT_EQ(f.why, "fails on none of 3 other PRs' runs within 24 h, but on 1 within 30 days, "
                     "never for long: flaky");
}

TEST_F(SuggestTest, ANightlysNewFailureIsARegressionInTheMainRangeSinceThePreviousNightly)
{
    head(60, kNightly, 0, {{"test_a", P}}, 1, Conclusion::Success);
    for (int n = 1; n <= 3; ++n)
        head(n, pr(100 + n), n, {{"test_a", P}}, 1, Conclusion::Success);
    const auto row = head(61, kNightly, 24, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression);
    const Evidence& e = s.evidence.front();
    ASSERT_EQ(e.kind, EvidenceKind::Baseline);
    EXPECT_EQ(e.run->sha.value, sha(60));
    // A nightly's SHA is itself the main commit (real-backends.md section 2;
    // hud-read-api.md R6, corrected): main..main.
    EXPECT_EQ(e.compareUrl,
              "https://github.com/pytorch/pytorch/compare/" + sha(60) + "..." + sha(61))
        << "two nightlies' own SHAs, both main commits";
    EXPECT_NE(s.why.find("passed on the previous nightly c000060: regression in main"),
              std::string::npos)
        << s.why;
}

// real-backends.md section 2: a nightly id may be free text (vLLM's
// "buildkite-<n>-<uuid>", a "nightly-<date>"): not an upstream commit, so
// no compare range and no link.
TEST_F(SuggestTest, AFreeTextNightlyIdIsNotAnUpstreamCommitAndGetsNoRange)
{
    head(62, kNightly, 0, {{"test_a", P}}, 1, Conclusion::Success, "test", true,
         "nightly-2026-12-01");
    const auto row = head(63, kNightly, 24, {{"test_a", F}}, 1, Conclusion::Failure, "test", true,
                          "buildkite-4242-0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b");
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression);
    const Evidence& e = s.evidence.front();
    ASSERT_EQ(e.kind, EvidenceKind::Baseline);
    EXPECT_EQ(e.run->sha.value, "nightly-2026-12-01");
    EXPECT_EQ(e.compareUrl, "") << "free text is no commit to compare";
    EXPECT_NE(s.why.find("(not an upstream commit: range unknown)"), std::string::npos) << s.why;
}

TEST_F(SuggestTest, ATestThatErrsBecauseTheDeviceIsBusyIsInfraNotARegression)
{
    for (int n = 1; n <= 4; ++n)
        head(n, pr(100 + n), n, {{"test_busy", P}}, 1, Conclusion::Success);
    const auto row = head(10, pr(200), 5, {{"test_busy", E}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Infra);
    const Evidence& e = s.evidence.front();
    EXPECT_EQ(e.kind, EvidenceKind::TestLine);
    EXPECT_EQ(e.rule, "Device busy or unavailable");
    EXPECT_EQ(e.ruleClass, FailureClass::Infra);
    EXPECT_NE(s.why.find("device or resource busy"), std::string::npos) << s.why;
    EXPECT_TRUE(find(s, EvidenceKind::Concurrent)) << "attribution was looked at too";
}

TEST_F(SuggestTest, AJobWithoutResultsIsJudgedByTheTestItsLogNamesAndSoAreItsPeers)
{
    // Results for a few runs only (the test is known); the others are known
    // from their logs' failure lines alone.
    head(1, pr(101), 1, {{"test_a", P}, {"test_b", P}}, 1, Conclusion::Success);
    loggedHead(2, pr(102), 2, "test_a");
    head(3, pr(103), 3, {{"test_a", P}}, 1, Conclusion::Success);
    loggedHead(4, pr(104), 4, "test_b"); // says nothing of test_a
    loggedHead(5, pr(105), 5, "test_a");
    head(6, pr(106), 6, {{"test_a", P}}, 1, Conclusion::Success);
    const auto row = loggedHead(7, pr(200), 7, "test_a");
    const Suggestion& s = only(suggest(row));
    EXPECT_TRUE(s.target.isJob());
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    EXPECT_EQ(s.why, "job failed without test results; its log names "
                     "test/test_ops.py::TestOps::test_a: fails on 2 of 5 other PRs' runs of this "
                     "job within 24 h too, without a common start: flaky");
    const Evidence* others = find(s, EvidenceKind::Concurrent);
    ASSERT_TRUE(others);
    EXPECT_EQ(others->failedCount, 2) << "PRs 102 and 105, by their logs";
    EXPECT_EQ(others->passedCount, 3) << "PR 104's log says nothing of test_a";
    EXPECT_TRUE(find(s, EvidenceKind::FailureLine));

    // test_b: PR 104's log named it 4 h before.
    const auto second = loggedHead(8, pr(300), 8, "test_b");
    const Suggestion& b = only(suggest(second));
    EXPECT_EQ(b.cls, FailureClass::Flaky) << b.why;
    // A test no stored result ever named is still compared through the logs:
    // no other PR's run fails it, so it is this PR's.
    const auto unknown = loggedHead(9, pr(400), 9, "test_never_stored");
    const Suggestion& u = only(suggest(unknown));
    EXPECT_EQ(u.cls, FailureClass::Regression) << u.why;
    const Evidence* peers = find(u, EvidenceKind::Concurrent);
    ASSERT_TRUE(peers);
    EXPECT_EQ(peers->failedCount, 0);
    EXPECT_GT(peers->passedCount, 0);
    EXPECT_FALSE(find(u, EvidenceKind::Rerun)) << "no result to rerun-match";
}

TEST_F(SuggestTest, AGreenRunWithoutResultsPassesEveryTest)
{
    // Where artifacts expired only the failures' logs are left; the green
    // runs beside them still say pytest failed nothing. Without them the two
    // logged failures would look like a breakage every run shares.
    loggedHead(1, pr(101), 1, "test_a");
    head(2, pr(102), 2, {}, 1, Conclusion::Success, "test", false);
    head(3, pr(103), 3, {}, 1, Conclusion::Success, "test", false);
    head(4, pr(104), 4, {}, 1, Conclusion::Success, "test", false);
    loggedHead(5, pr(105), 5, "test_a");
    head(6, pr(106), 6, {}, 1, Conclusion::Failure, "test", false); // says nothing
    const auto row = loggedHead(7, pr(200), 7, "test_a");
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << s.why;
    const Evidence* others = find(s, EvidenceKind::Concurrent);
    ASSERT_TRUE(others);
    EXPECT_EQ(others->failedCount, 2) << "PRs 101 and 105, by their logs";
    EXPECT_EQ(others->passedCount, 3) << "PRs 102-104 are green; 106 failed without a word";
    EXPECT_FALSE(find(s, EvidenceKind::Breakage));
}

TEST_F(SuggestTest, ThePreviousRunIsTheNewestAttemptOfTheNearestEarlierShaWithResults)
{
    run(1, {{"test_a", F}});
    run(2, {{"test_a", F}}, 1);
    run(2, {{"test_a", P}}, 2, Conclusion::Success);
    run(3, {}, 1, Conclusion::Failure, "test", kSpyre, false); // ran, no results: skipped
    const auto row = run(4, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    const Evidence* previous = find(s, EvidenceKind::Baseline);
    ASSERT_TRUE(previous);
    EXPECT_EQ(previous->run->sha.value, sha(2));
    EXPECT_EQ(previous->run->runAttempt, 2);
    EXPECT_EQ(previous->outcome, P);
}

TEST_F(SuggestTest, APassOnAnotherAttemptOfTheSameShaIsFlaky)
{
    run(1, {{"test_a", P}});
    const auto first = run(2, {{"test_a", F}}, 1);
    const auto rerun = run(2, {{"test_a", P}}, 2, Conclusion::Success);
    const Suggestion& s = only(suggest(first));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << "a passing retry beats every other rule";
    EXPECT_DOUBLE_EQ(s.confidence, 0.95);
    const Evidence& e = s.evidence.front();
    EXPECT_EQ(e.kind, EvidenceKind::Rerun);
    ASSERT_TRUE(e.run);
    EXPECT_EQ(e.run->checkRunRow, rerun);
    EXPECT_EQ(e.run->runAttempt, 2);
    EXPECT_EQ(e.outcome, P);
    EXPECT_EQ(s.why, "fails on attempt 1, passed on attempt 2 of the same SHA (c000002): flaky");
    // The previous run was looked at too, so "why?" can show it.
    ASSERT_TRUE(find(s, EvidenceKind::Baseline));
    EXPECT_EQ(find(s, EvidenceKind::Baseline)->outcome, P);
}

TEST_F(SuggestTest, AJobThatFailedWithoutFailingTestsAndAnInfraLineIsInfra)
{
    run(1, {{"test_a", P}});
    const auto row = run(2, {{"test_a", P}, {"test_b", TestOutcome::Skipped}});
    line(row, "Runner lost", FailureClass::Infra);
    const Suggestion& s = only(suggest(row));
    EXPECT_TRUE(s.target.isJob());
    EXPECT_FALSE(s.target.outcome);
    EXPECT_EQ(s.cls, FailureClass::Infra);
    const Evidence& e = s.evidence.front();
    EXPECT_EQ(e.kind, EvidenceKind::FailureLine);
    EXPECT_EQ(e.rule, "Runner lost");
    EXPECT_EQ(e.line, 1234u);
    EXPECT_EQ(e.text, "##[error]The operation was canceled.");
    ASSERT_EQ(e.captures.size(), 1u);
    EXPECT_EQ(e.ruleClass, FailureClass::Infra);
    EXPECT_EQ(e.logHash, "abc");
    EXPECT_EQ(s.why,
              "job failed with no failing test; line 1234 matches rule 'Runner lost' (infra)");
    EXPECT_TRUE(s.group.empty()) << "one backend is no outage";

    // No results at all, cancelled with a runner lost or timed out: the same.
    const auto cancelled = run(3, {}, 1, Conclusion::Cancelled, "test", kSpyre, false);
    line(cancelled, "Runner lost", FailureClass::Infra);
    const Suggestion& c = only(suggest(cancelled));
    EXPECT_EQ(c.cls, FailureClass::Infra);
    EXPECT_EQ(c.why, "job was cancelled without test results; line 1234 matches rule 'Runner "
                     "lost' (infra)");
    // Cancelled, and its log says only that: no class, and why not.
    const auto stopped = run(5, {}, 1, Conclusion::Cancelled, "test", kSpyre, false);
    line(stopped, "Job cancelled", FailureClass::Unset);
    const Suggestion& n = only(suggest(stopped));
    EXPECT_EQ(n.cls, FailureClass::Untriaged);
    EXPECT_EQ(n.why, "job was cancelled without test results; line 1234 matches rule 'Job "
                     "cancelled', which names no class; no runner loss or outage across "
                     "backends says why it was cancelled");
    const auto timedOut = run(4, {}, 1, Conclusion::TimedOut, "test", kSpyre, false);
    line(timedOut, "Job timed out", FailureClass::Infra);
    const Suggestion& t = only(suggest(timedOut));
    EXPECT_EQ(t.cls, FailureClass::Infra);
    EXPECT_EQ(t.why.rfind("job timed out without test results;", 0), 0u) << t.why;
}

TEST_F(SuggestTest, AJobWithFailingTestsGetsNoJobSuggestion)
{
    const auto row = run(1, {{"test_a", F}});
    line(row, "Runner lost", FailureClass::Infra);
    const Suggestion& s = only(suggest(row));
    EXPECT_FALSE(s.target.isJob());
    EXPECT_EQ(s.cls, FailureClass::Untriaged) << "an infra line never explains a failing test";
    EXPECT_TRUE(find(s, EvidenceKind::FailureLine));
}

TEST_F(SuggestTest, InfraFailuresOfSeveralBackendsAtOnceAreOneOutage)
{
    const std::string xpu = "intel/torch-xpu-ops";
    const std::string npu = "Ascend/pytorch";
    const auto spyre = run(5, {}, 1, Conclusion::Failure, "test", kSpyre, false);
    // The same backend's other job: one backend still, the same outage.
    const auto spyre2 = run(5, {}, 1, Conclusion::Failure, "test2", kSpyre, false);
    const auto intel = run(5, {}, 1, Conclusion::Failure, "build", xpu, false);
    // Another SHA, but started within the window: the same outage.
    const auto ascend = run(6, {}, 1, Conclusion::TimedOut, "test", npu, false);
    // Same SHA, but its tests fail: not part of it.
    const auto failing = run(5, {{"test_a", F}}, 1, Conclusion::Failure, "test", "other/repo");
    // Far away in time, other SHA: not part of it.
    const auto later = run(60, {}, 1, Conclusion::Failure, "test", "late/repo", false);
    for (const auto row : {spyre, spyre2, intel, ascend, failing, later})
        line(row, "Runner lost", FailureClass::Infra);

    const Suggestion& s = only(suggest(spyre));
    EXPECT_EQ(s.cls, FailureClass::Infra);
    ASSERT_EQ(s.evidence.front().kind, EvidenceKind::Outage);
    const auto& others = s.evidence.front().others;
    ASSERT_EQ(others.size(), 2u);
    std::set<std::string> repos{others[0].downstreamRepo, others[1].downstreamRepo};
    EXPECT_EQ(repos, (std::set<std::string>{xpu, npu}));
    EXPECT_TRUE(find(s, EvidenceKind::FailureLine));
    EXPECT_NE(s.why.find("one outage across 3 backends"), std::string::npos) << s.why;
    EXPECT_FALSE(s.group.empty());
    EXPECT_EQ(only(suggest(intel)).group, s.group);
    const Suggestion& s2 = only(suggest(spyre2));
    EXPECT_EQ(s2.group, s.group);
    EXPECT_EQ(s2.evidence.front().others.size(), 2u) << "one run per other backend";
    EXPECT_EQ(only(suggest(ascend)).group, s.group);
    EXPECT_TRUE(only(suggest(later)).group.empty());
    // A job cancelled in the middle of it: the outage says why (issue 37).
    const auto cut = run(5, {}, 1, Conclusion::Cancelled, "test3", kSpyre, false);
    line(cut, "Job cancelled", FailureClass::Unset);
    const Suggestion& c = only(suggest(cut));
    EXPECT_EQ(c.cls, FailureClass::Infra) << c.why;
    EXPECT_EQ(c.group, s.group);
    EXPECT_NE(c.why.find("which names no class; one outage across 3 backends"), std::string::npos)
        << c.why;

    SuggestOptions narrow;
    narrow.outageWindowSeconds = 10; // only the same SHA now
    const Suggestion& n = only(suggest(spyre, narrow));
    ASSERT_EQ(n.evidence.front().kind, EvidenceKind::Outage);
    ASSERT_EQ(n.evidence.front().others.size(), 1u);
    EXPECT_EQ(n.evidence.front().others[0].downstreamRepo, xpu);
}

TEST_F(SuggestTest, StrictXpassIsAnUnexpectedPassAndXfailIsExpected)
{
    run(1, {{"test_a", P}, {"test_b", P}});
    const auto row = run(2, {{"test_a", X}, {"test_b", XF}, {"test_c", P}});
    const auto all = suggest(row);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].target.identity, "test/test_ops.py::TestOps::test_a");
    EXPECT_EQ(all[0].cls, FailureClass::UnexpectedPass);
    EXPECT_EQ(all[0].evidence.front().kind, EvidenceKind::Outcome);
    EXPECT_EQ(all[0].evidence.front().outcome, X);
    EXPECT_NE(all[0].why.find("promote"), std::string::npos);
    EXPECT_EQ(all[1].cls, FailureClass::Expected);
    EXPECT_EQ(all[1].evidence.front().outcome, XF);
    SuggestOptions noExpected;
    noExpected.includeExpected = false;
    EXPECT_EQ(only(suggest(row, noExpected)).cls, FailureClass::UnexpectedPass);
}

TEST_F(SuggestTest, WithNothingToCompareTheJobLinesRuleNamesTheClass)
{
    const auto row = run(1, {{"test_a", F}});
    line(row, "pytest failed test", FailureClass::BackendBug);
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::BackendBug);
    EXPECT_EQ(s.evidence.front().kind, EvidenceKind::FailureLine);
    EXPECT_TRUE(find(s, EvidenceKind::NoBaseline));
    EXPECT_EQ(s.why, "no other run of this job to compare; the job's line 1234 matches rule "
                     "'pytest failed test' (backend bug)");

    // The job itself, failed without failing tests, with a test-or-config line.
    const auto collect = run(2, {}, 1, Conclusion::Failure, "lint", kSpyre, false);
    line(collect, "pytest collection error", FailureClass::TestOrConfig);
    EXPECT_EQ(only(suggest(collect)).cls, FailureClass::TestOrConfig);
}

TEST_F(SuggestTest, NothingToCompareAndNoLineIsUntriaged)
{
    const auto row = run(1, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Untriaged);
    EXPECT_DOUBLE_EQ(s.confidence, 0.0);
    EXPECT_EQ(s.evidence.front().kind, EvidenceKind::NoBaseline);
    EXPECT_EQ(s.why, "no other run of this job to compare, and no rule names a class");

    // A failed job whose log had no line, or was not read.
    const auto noLog = run(3, {}, 1, Conclusion::Failure, "build", kSpyre, false);
    EXPECT_EQ(only(suggest(noLog)).cls, FailureClass::Untriaged);
    EXPECT_NE(only(suggest(noLog)).why.find("not read"), std::string::npos);
    line(noLog, "", FailureClass::Unset, JobLineState::NoLog);
    const Suggestion& gone = only(suggest(noLog));
    EXPECT_EQ(gone.cls, FailureClass::Untriaged);
    EXPECT_EQ(gone.evidence.front().kind, EvidenceKind::NoLine);
    EXPECT_NE(gone.why.find("the job log is gone"), std::string::npos) << gone.why;
}

TEST_F(SuggestTest, APassingRunGetsNothingAndManyRunsKeepTheirOrder)
{
    const auto green = run(1, {{"test_a", P}}, 1, Conclusion::Success);
    EXPECT_TRUE(suggest(green).empty());
    const auto a = run(2, {{"test_a", F}, {"test_b", E}});
    const auto b = run(0, {{"test_c", X}});
    auto all = suggestForRuns(*m_cache, {b, green, a});
    ASSERT_TRUE(all) << all.message();
    ASSERT_EQ(all->size(), 3u);
    EXPECT_EQ((*all)[0].target.checkRunRow, b);
    EXPECT_EQ((*all)[1].target.identity, "test/test_ops.py::TestOps::test_a");
    EXPECT_EQ((*all)[2].target.identity, "test/test_ops.py::TestOps::test_b");
    EXPECT_EQ((*all)[1].cls, FailureClass::Regression);
}

TEST_F(SuggestTest, AnUnknownRunIsAClearError)
{
    auto s = suggestForRun(*m_cache, CheckRunRow{9999}, {});
    ASSERT_FALSE(s);
    EXPECT_NE(s.message().find("check run 9999"), std::string::npos) << s.message();
}

// real-backends.md 3.1: torch-spyre builds each merged PR at its base's HEAD.
// Such a run's baseline is the job's previous build of another main commit
// (another PR's), compared main..main by the commits tested, never the PR's
// own earlier head (which was never built).
TEST_F(SuggestTest, AMergedPrsBuildComparesWithMainsPreviousTestedCommit)
{
    const auto tested = [&](CheckRunRow row, int n) {
        const std::string main =
            "a0000" + std::to_string(n / 10) + std::to_string(n % 10) + std::string(33, 'f');
        ASSERT_TRUE(CheckoutStore(*m_cache).putTestedCommit(
            row, TestedCommit{main, "", TestedCommitSource::JobName,
                              "Build PyTorch@" + main + " + torch-spyre", 0}));
    };
    head(70, pr(170), 0, {{"test_a", P}}, 1, Conclusion::Success); // #170's earlier head, unbuilt
    tested(head(71, pr(171), 1, {{"test_a", P}}, 1, Conclusion::Success), 71);
    const auto row = head(72, pr(170), 2, {{"test_a", F}});
    tested(row, 72);
    const Suggestion& s = only(suggest(row));
    const Evidence* baseline = nullptr;
    for (const Evidence& e : s.evidence)
        if (e.kind == EvidenceKind::Baseline)
            baseline = &e;
    ASSERT_NE(baseline, nullptr);
    EXPECT_EQ(baseline->run->sha.value, sha(71)) << "main's previous build, by #171";
    EXPECT_EQ(baseline->compareUrl, "https://github.com/pytorch/pytorch/compare/a000071"
                                        + std::string(33, 'f') + "...a000072"
                                        + std::string(33, 'f'));
    // What changed is main's range where #170 merged; other merges may sit
    // in it, so it is said so, and less surely than a PR head's regression.
    EXPECT_EQ(s.cls, FailureClass::Regression);
    EXPECT_LE(s.confidence, 0.6);
    EXPECT_NE(s.why.find("this run tested main at a000072, not the PR's head; passed on main's "
                         "previous build a000071: regression in main a000071...a000072 (the "
                         "PR's merge, if it is in that range, or another merge in it)"),
              std::string::npos)
        << s.why;
    EXPECT_EQ(s.why.find("this PR's previous head"), std::string::npos) << s.why;
}

TEST(CompareUrl, BuildsTheUpstreamRangeOrNothing)
{
    EXPECT_EQ(compareUrl("pytorch/pytorch", Sha{"aaa"}, Sha{"bbb"}),
              "https://github.com/pytorch/pytorch/compare/aaa...bbb");
    EXPECT_EQ(compareUrl("pytorch/pytorch", Sha{}, Sha{"bbb"}), "");
    EXPECT_EQ(compareUrl("", Sha{"aaa"}, Sha{"bbb"}), "");
    // real-backends.md section 2: free-text nightly ids are no commits.
    EXPECT_EQ(compareUrl("pytorch/pytorch", Sha{"nightly-2026-12-01"}, Sha{"bbb"}), "");
    EXPECT_EQ(compareUrl("pytorch/pytorch", Sha{"aaa"},
                         Sha{"buildkite-4242-0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b"}),
              "");
    EXPECT_EQ(evidenceKindName(EvidenceKind::Baseline), "previous head");
    EXPECT_EQ(pullFilesUrl("pytorch/pytorch", PrNumber{158123}),
              "https://github.com/pytorch/pytorch/pull/158123/files");
    EXPECT_EQ(pullFilesUrl("pytorch/pytorch", PrNumber{}), "");
    EXPECT_EQ(evidenceKindName(EvidenceKind::Outage), "outage");
}

// ---------------------------------------------------------------- the store

TEST_F(SuggestTest, AClassWhoseRunsAwaitTheirResultsIsProvisionalUntilEveryOneIsIn)
{
    std::vector<std::pair<CheckRunRow, Tests>> waiting;
    for (int n = 1; n <= 10; ++n) {
        if (n == 8)
            continue;
        const bool fails = n == 3;
        const Tests tests{{"test_a", fails ? F : P}};
        const bool fetched = n >= 7;
        const auto row = head(n, pr(100 + n), n, tests, 1,
                              fails ? Conclusion::Failure : Conclusion::Success, "test", fetched);
        if (!fetched)
            waiting.emplace_back(row, tests);
    }
    const auto row = head(8, pr(108), 8, {{"test_a", F}, {"test_b", XF}});
    const std::vector<Suggestion> partial = suggest(row);
    ASSERT_EQ(partial.size(), 2u);
    const Suggestion& early = partial[0];
    EXPECT_TRUE(early.provisional());
    EXPECT_EQ(early.coverage.fetched, 4) << "PRs 107, 109, 110 and this run";
    EXPECT_EQ(early.coverage.needed, 5) << "and PR 103's failed run: a green's says enough";
    EXPECT_EQ(coverageText(early.coverage), "4 of 5 runs' results fetched");
    EXPECT_EQ(early.cls, FailureClass::Regression) << early.why;
    // The xfail test's class is its own outcome's: nothing to wait for.
    EXPECT_EQ(partial[1].cls, FailureClass::Expected);
    EXPECT_FALSE(partial[1].provisional());

    for (const auto& [waitingRow, tests] : waiting)
        finish(waitingRow, tests, true);
    const Suggestion& late = suggest(row).front();
    EXPECT_FALSE(late.provisional());
    EXPECT_EQ(coverageText(late.coverage), "10 of 10 runs' results fetched");

    // A green without results needs none: nothing to wait for.
    head(12, pr(112), 9, {}, 1, Conclusion::Success, "test", false);
    EXPECT_FALSE(suggest(row).front().provisional());
    EXPECT_EQ(late.cls, FailureClass::Flaky) << late.why;
    EXPECT_GT(late.confidence, 0.0);

    // A run that will never have results (no reports in its artifacts) is
    // not waited for.
    const auto empty = head(11, pr(111), 9, {}, 1, Conclusion::Failure, "test", false);
    EXPECT_TRUE(suggest(row).front().provisional()) << "not fetched yet";
    ASSERT_TRUE(TestResultStore(*m_cache).recordTestRunState(
        {empty, TestRunSource::Artifacts, "a", "u"}, TestRunState::NoReports, "no JUnit report"));
    EXPECT_FALSE(suggest(row).front().provisional());
}
