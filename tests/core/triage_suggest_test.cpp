// Automatic failure classes (triage/suggest.h): each rule of evidence on
// hand-made histories in a real SQLite cache, the precedence between them,
// the job failure line store, and bad input.
#include "relayhud/triage/job_line.h"
#include "relayhud/triage/suggest.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>

using namespace relayhud;
using namespace relayhud::testing;
using namespace relayhud::triage;

namespace {

constexpr auto P = TestOutcome::Passed;
constexpr auto F = TestOutcome::Failed;
constexpr auto E = TestOutcome::Error;
constexpr auto XF = TestOutcome::XFailed;
constexpr auto XP = TestOutcome::XPassStrict;
const std::string kSpyre = "torch-spyre/torch-spyre";

// A 40-hex SHA whose short form is "c0000<n>" for n < 100.
std::string sha(int n)
{
    std::string s = "c0000" + std::to_string(n / 10) + std::to_string(n % 10);
    return s + std::string(40 - s.size(), 'e');
}

using Tests = std::vector<std::pair<std::string, TestOutcome>>;

class SuggestTest : public ::testing::Test {
protected:
    void SetUp() override { m_cache = openCacheOk(":memory:"); }

    // A finished run of `job` on SHA n (commit time 1000 n) with these
    // results (none stored when `tests` is empty and `store` is false).
    std::int64_t run(int n, const Tests& tests, int attempt = 1,
                     Conclusion conclusion = Conclusion::Failure, const std::string& job = "test",
                     const std::string& repo = kSpyre, bool store = true)
    {
        const EpochSeconds time = 1'000'000 + 1000 * n;
        CheckRun r = completedRun(sha(n), job, attempt, conclusion, time);
        r.downstreamRepo = repo;
        r.checkRunId = CheckRunId{repo + "-" + r.checkRunId.value};
        const auto row = addRun(*m_cache, r, time);
        if (!store)
            return row;
        auto writer = m_cache->beginTestRun({row, TestRunSource::Artifacts, "a", "u"});
        EXPECT_TRUE(writer);
        TestRunTotals totals;
        for (const auto& [name, outcome] : tests) {
            EXPECT_TRUE((*writer)->add(makeCase("TestOps", name, outcome)));
            ++totals.outcomes[static_cast<std::size_t>(outcome)];
        }
        EXPECT_TRUE((*writer)->commit(totals));
        return row;
    }

    void line(std::int64_t row, const std::string& rule, FailureClass cls,
              JobLineState state = JobLineState::Matched)
    {
        JobFailureLine l;
        l.checkRunRow = row;
        l.rulesHash = 42;
        l.state = state;
        l.rule = rule;
        l.cls = cls;
        l.line = 1234;
        l.text = "##[error]The operation was canceled.";
        l.captures = {"##[error]The operation was canceled."};
        l.logHash = "abc";
        l.message = state == JobLineState::Matched ? "" : "the job log is gone";
        l.pickedAt = 5;
        ASSERT_TRUE(m_cache->putJobFailureLine(l));
    }

    std::vector<Suggestion> suggest(std::int64_t row, const SuggestOptions& options = {})
    {
        auto s = suggestForRun(*m_cache, row, options);
        EXPECT_TRUE(s) << (s ? "" : s.message());
        return s ? std::move(*s) : std::vector<Suggestion>{};
    }

    // By value: the callers pass the vector suggest() just returned.
    static Suggestion only(std::vector<Suggestion> all)
    {
        EXPECT_EQ(all.size(), 1u);
        return all.empty() ? Suggestion{} : std::move(all.front());
    }

    static const Evidence* find(const Suggestion& s, EvidenceKind kind)
    {
        for (const auto& e : s.evidence)
            if (e.kind == kind)
                return &e;
        return nullptr;
    }

    std::unique_ptr<Cache> m_cache;
};

} // namespace

TEST_F(SuggestTest, APassOnTheBaselineIsARegressionWithTheCompareLink)
{
    run(1, {{"test_a", P}, {"test_b", P}});
    run(2, {{"test_a", P}}, 1, Conclusion::Success, "build"); // another job: not a baseline
    const auto row = run(3, {{"test_a", F}, {"test_b", P}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression);
    EXPECT_EQ(s.target.checkRunRow, row);
    EXPECT_EQ(s.target.identity, "test/test_ops.py::TestOps::test_a");
    EXPECT_EQ(s.target.outcome, F);
    EXPECT_FALSE(s.target.isJob());
    ASSERT_FALSE(s.evidence.empty());
    const Evidence& base = s.evidence.front();
    EXPECT_EQ(base.kind, EvidenceKind::Baseline);
    ASSERT_TRUE(base.run);
    EXPECT_EQ(base.run->sha.value, sha(1));
    EXPECT_EQ(base.run->runAttempt, 1);
    EXPECT_EQ(base.run->jobName, "test");
    EXPECT_EQ(base.outcome, P);
    EXPECT_EQ(base.compareUrl,
              "https://github.com/pytorch/pytorch/compare/" + sha(1) + "..." + sha(3));
    EXPECT_EQ(s.why, "passed on c000001 (attempt 1), fails here: regression in c000001...c000003");
    EXPECT_TRUE(find(s, EvidenceKind::History));
}

TEST_F(SuggestTest, AFailureOnTheBaselineTooIsPreExisting)
{
    run(1, {{"test_a", E}});
    const auto row = run(2, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::PreExisting);
    EXPECT_EQ(s.evidence.front().kind, EvidenceKind::Baseline);
    EXPECT_EQ(s.evidence.front().outcome, E);
    EXPECT_NE(s.why.find("failed on c000001 (attempt 1) too"), std::string::npos) << s.why;
}

TEST_F(SuggestTest, TheBaselineIsTheNewestAttemptOnTheNearestEarlierShaWithResults)
{
    run(1, {{"test_a", F}});
    run(2, {{"test_a", F}}, 1);
    run(2, {{"test_a", P}}, 2, Conclusion::Success);
    run(3, {}, 1, Conclusion::Failure, "test", kSpyre, false); // ran, no results: skipped
    const auto row = run(4, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Regression);
    EXPECT_EQ(s.evidence.front().run->sha.value, sha(2));
    EXPECT_EQ(s.evidence.front().run->runAttempt, 2);
}

TEST_F(SuggestTest, APassOnAnotherAttemptOfTheSameShaIsFlaky)
{
    run(1, {{"test_a", P}});
    const auto first = run(2, {{"test_a", F}}, 1);
    const auto rerun = run(2, {{"test_a", P}}, 2, Conclusion::Success);
    const Suggestion& s = only(suggest(first));
    EXPECT_EQ(s.cls, FailureClass::Flaky) << "a passing retry beats the regression rule";
    const Evidence& e = s.evidence.front();
    EXPECT_EQ(e.kind, EvidenceKind::Rerun);
    ASSERT_TRUE(e.run);
    EXPECT_EQ(e.run->checkRunRow, rerun);
    EXPECT_EQ(e.run->runAttempt, 2);
    EXPECT_EQ(e.outcome, P);
    EXPECT_EQ(s.why, "fails on attempt 1, passed on attempt 2 of the same SHA (c000002): flaky");
    // The baseline was looked at too, so "why?" can show it.
    ASSERT_TRUE(find(s, EvidenceKind::Baseline));
    EXPECT_EQ(find(s, EvidenceKind::Baseline)->outcome, P);
}

TEST_F(SuggestTest, AHistoryThatFlipsBeyondTheThresholdIsFlaky)
{
    std::int64_t row = 0;
    for (int n = 1; n <= 8; ++n)
        row = run(n, {{"test_a", n % 2 ? P : F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Flaky);
    const Evidence& e = s.evidence.front();
    EXPECT_EQ(e.kind, EvidenceKind::History);
    EXPECT_EQ(e.historyRuns, 8);
    EXPECT_EQ(e.historyWindow, 20);
    EXPECT_DOUBLE_EQ(e.flipRate, 1.0);
    EXPECT_EQ(s.why, "flips 100% of the time over its last 8 runs (threshold 30%): flaky");

    // Too few runs, or a higher threshold: the baseline decides.
    SuggestOptions strict;
    strict.flipThreshold = 1.0;
    EXPECT_EQ(only(suggest(row, strict)).cls, FailureClass::Regression);
    SuggestOptions shortWindow;
    shortWindow.historyShas = 5;
    EXPECT_EQ(only(suggest(row, shortWindow)).cls, FailureClass::Regression);
}

TEST_F(SuggestTest, AFlipRateAtTheThresholdIsNotFlaky)
{
    // P P P P F F F: one flip in six pairs (0.17), a streak, not flakiness.
    std::int64_t row = 0;
    for (int n = 1; n <= 7; ++n)
        row = run(n, {{"test_a", n <= 4 ? P : F}});
    EXPECT_EQ(only(suggest(row)).cls, FailureClass::PreExisting);
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

    // No results at all, cancelled or timed out: the same.
    const auto cancelled = run(3, {}, 1, Conclusion::Cancelled, "test", kSpyre, false);
    line(cancelled, "Job cancelled", FailureClass::Infra);
    const Suggestion& c = only(suggest(cancelled));
    EXPECT_EQ(c.cls, FailureClass::Infra);
    EXPECT_EQ(c.why, "job was cancelled without test results; line 1234 matches rule 'Job "
                     "cancelled' (infra)");
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
    const auto row = run(2, {{"test_a", XP}, {"test_b", XF}, {"test_c", P}});
    const auto all = suggest(row);
    ASSERT_EQ(all.size(), 2u);
    EXPECT_EQ(all[0].target.identity, "test/test_ops.py::TestOps::test_a");
    EXPECT_EQ(all[0].cls, FailureClass::UnexpectedPass);
    EXPECT_EQ(all[0].evidence.front().kind, EvidenceKind::Outcome);
    EXPECT_EQ(all[0].evidence.front().outcome, XP);
    EXPECT_NE(all[0].why.find("promote"), std::string::npos);
    EXPECT_EQ(all[1].cls, FailureClass::Expected);
    EXPECT_EQ(all[1].evidence.front().outcome, XF);
    SuggestOptions noExpected;
    noExpected.includeExpected = false;
    EXPECT_EQ(only(suggest(row, noExpected)).cls, FailureClass::UnexpectedPass);
}

TEST_F(SuggestTest, WithoutBaselineTheJobLinesRuleNamesTheClass)
{
    const auto row = run(1, {{"test_a", F}});
    line(row, "pytest failed test", FailureClass::BackendBug);
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::BackendBug);
    EXPECT_EQ(s.evidence.front().kind, EvidenceKind::FailureLine);
    EXPECT_TRUE(find(s, EvidenceKind::NoBaseline));
    EXPECT_EQ(s.why, "no earlier run of this job to compare; the job's line 1234 matches rule "
                     "'pytest failed test' (backend bug)");

    // The job itself, failed without failing tests, with a test-or-config line.
    const auto collect = run(2, {}, 1, Conclusion::Failure, "lint", kSpyre, false);
    line(collect, "pytest collection error", FailureClass::TestOrConfig);
    EXPECT_EQ(only(suggest(collect)).cls, FailureClass::TestOrConfig);
}

TEST_F(SuggestTest, NoBaselineNoFlipsAndNoLineIsUntriaged)
{
    const auto row = run(1, {{"test_a", F}});
    const Suggestion& s = only(suggest(row));
    EXPECT_EQ(s.cls, FailureClass::Untriaged);
    EXPECT_EQ(s.evidence.front().kind, EvidenceKind::NoBaseline);
    EXPECT_EQ(s.why, "no earlier run of this job to compare, not flaky, and no rule names a class");

    // A test new since the baseline falls through too.
    const auto next = run(2, {{"test_b", F}});
    const Suggestion& n = only(suggest(next));
    EXPECT_EQ(n.cls, FailureClass::Untriaged);
    EXPECT_EQ(n.evidence.front().kind, EvidenceKind::Baseline);
    EXPECT_FALSE(n.evidence.front().outcome);
    EXPECT_NE(n.why.find("not run on c000001"), std::string::npos) << n.why;

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
    const auto b = run(3, {{"test_c", XP}});
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
    auto s = suggestForRun(*m_cache, 9999, {});
    ASSERT_FALSE(s);
    EXPECT_NE(s.message().find("check run 9999"), std::string::npos) << s.message();
}

TEST(CompareUrl, BuildsTheUpstreamRangeOrNothing)
{
    EXPECT_EQ(compareUrl("pytorch/pytorch", Sha{"aaa"}, Sha{"bbb"}),
              "https://github.com/pytorch/pytorch/compare/aaa...bbb");
    EXPECT_EQ(compareUrl("pytorch/pytorch", Sha{}, Sha{"bbb"}), "");
    EXPECT_EQ(compareUrl("", Sha{"aaa"}, Sha{"bbb"}), "");
    EXPECT_EQ(evidenceKindName(EvidenceKind::Baseline), "baseline");
    EXPECT_EQ(evidenceKindName(EvidenceKind::Outage), "outage");
}

// ---------------------------------------------------------------- the store

TEST_F(SuggestTest, AJobLineRoundTripsAndIsReplaced)
{
    const auto row = run(1, {}, 1, Conclusion::Failure, "test", kSpyre, false);
    EXPECT_FALSE(*m_cache->jobFailureLine(row));
    JobFailureLine l;
    l.checkRunRow = row;
    l.rulesHash = 0xF00DFACECAFEBEEFULL; // above INT64_MAX: stored as its bit pattern
    l.state = JobLineState::Matched;
    l.rule = "Network failure";
    l.cls = FailureClass::Infra;
    l.line = 77;
    l.text = "Could not resolve host: \"ghcr.io\"";
    l.captures = {"Could not resolve host", "caf\xC3\xA9"};
    l.logHash = "deadbeef";
    l.pickedAt = 1234;
    ASSERT_TRUE(m_cache->putJobFailureLine(l));
    auto back = m_cache->jobFailureLine(row);
    ASSERT_TRUE(back && *back);
    EXPECT_EQ((*back)->rulesHash, l.rulesHash);
    EXPECT_EQ((*back)->state, JobLineState::Matched);
    EXPECT_EQ((*back)->rule, l.rule);
    EXPECT_EQ((*back)->cls, FailureClass::Infra);
    EXPECT_EQ((*back)->line, 77u);
    EXPECT_EQ((*back)->text, l.text);
    EXPECT_EQ((*back)->captures, l.captures);
    EXPECT_EQ((*back)->logHash, "deadbeef");
    EXPECT_EQ((*back)->pickedAt, 1234);
    l.state = JobLineState::NoMatch;
    l.captures.clear();
    ASSERT_TRUE(m_cache->putJobFailureLine(l));
    EXPECT_EQ((*m_cache->jobFailureLine(row))->state, JobLineState::NoMatch);
    EXPECT_TRUE((*m_cache->jobFailureLine(row))->captures.empty());
    EXPECT_STREQ(jobLineStateName(JobLineState::FetchFailed), "fetch failed");

    l.checkRunRow = 9999; // no such run: the foreign key refuses it
    auto bad = m_cache->putJobFailureLine(l);
    ASSERT_FALSE(bad);
    EXPECT_NE(bad.message().find("check run 9999"), std::string::npos) << bad.message();
}

TEST_F(SuggestTest, TheJobLineQueueHoldsFailedRunsWithoutACurrentLine)
{
    const auto failed = run(1, {}, 1, Conclusion::Failure, "a", kSpyre, false);
    const auto cancelled = run(2, {}, 1, Conclusion::Cancelled, "b", kSpyre, false);
    run(3, {}, 1, Conclusion::Success, "c", kSpyre, false);
    const auto noId = [&] {
        CheckRun r = completedRun(sha(4), "d", 1, Conclusion::Failure, 1'004'000);
        r.checkRunId = CheckRunId{};
        r.runId = "no-id";
        UpstreamCommit commit{r.upstreamSha, 0, "main", EventType::Push, 1'004'000, "", ""};
        EXPECT_TRUE(m_cache->apply(SyncBatch{{}, {commit}, {r}, {}}));
    };
    noId();
    auto rows = [&](std::uint64_t hash, EpochSeconds retryBefore) {
        JobLineQueueQuery q;
        q.rulesHash = hash;
        q.retryFailedBefore = retryBefore;
        auto queue = m_cache->jobLineQueue(q);
        EXPECT_TRUE(queue) << (queue ? "" : queue.message());
        std::vector<std::int64_t> out;
        for (const auto& c : queue ? *queue : std::vector<JobLineCandidate>{})
            out.push_back(c.checkRunRow);
        return out;
    };
    EXPECT_EQ(rows(42, 0), (std::vector<std::int64_t>{cancelled, failed}));
    const auto candidates = *m_cache->jobLineQueue({});
    EXPECT_EQ(candidates[0].downstreamRepo, kSpyre);
    EXPECT_EQ(candidates[0].conclusion, Conclusion::Cancelled);
    EXPECT_FALSE(candidates[0].checkRunId.value.empty());

    line(failed, "Runner lost", FailureClass::Infra);              // hash 42, picked at 5
    line(cancelled, "", FailureClass::Unset, JobLineState::NoLog); // final
    EXPECT_TRUE(rows(42, 100).empty());
    EXPECT_EQ(rows(43, 0), (std::vector<std::int64_t>{cancelled, failed})) << "a new rule set";
    line(failed, "", FailureClass::Unset, JobLineState::FetchFailed);
    EXPECT_TRUE(rows(42, 5).empty()) << "not before the retry time";
    EXPECT_EQ(rows(42, 6), (std::vector<std::int64_t>{failed}));
}

TEST_F(SuggestTest, TriageRunsAreFailedJobsAndRunsWithFailingResults)
{
    const auto failed = run(1, {{"test_a", P}}, 1, Conclusion::Failure);
    run(2, {{"test_a", P}, {"test_b", XF}}, 1, Conclusion::Success);
    const auto hidden = run(3, {{"test_a", F}}, 1, Conclusion::Success); // a green that lies
    const auto xpass = run(4, {{"test_a", XP}}, 1, Conclusion::Success);
    const auto cancelled = run(5, {}, 1, Conclusion::Cancelled, "test", kSpyre, false);
    auto all = m_cache->triageRunRows({});
    ASSERT_TRUE(all) << all.message();
    EXPECT_EQ(*all, (std::vector<std::int64_t>{cancelled, xpass, hidden, failed}));
    TriageRunQuery one;
    one.sha = Sha{sha(3)};
    EXPECT_EQ(*m_cache->triageRunRows(one), (std::vector<std::int64_t>{hidden}));
    TriageRunQuery recent;
    recent.since = 1'004'000;
    recent.limit = 1;
    EXPECT_EQ(*m_cache->triageRunRows(recent), (std::vector<std::int64_t>{cancelled}));
}

// ---------------------------------------------------------------- picking

TEST(JobLine, PicksTheLineWithTheRuleSetsHash)
{
    ScratchDir dir("job-line");
    const auto log = dir.write("job.log", "2026-05-04T10:00:00.0000000Z setting up\n"
                                          "2026-05-04T10:00:01.0000000Z ##[error]The self-hosted "
                                          "runner: gpu-7 lost communication with the server.\n"
                                          "2026-05-04T10:00:02.0000000Z ##[error]Process "
                                          "completed with exit code 1.\n");
    auto classifier = Classifier::create(defaultRuleSet());
    ASSERT_TRUE(classifier) << classifier.message();
    auto picked = pickJobLine(*classifier, 7, log, "blobhash");
    ASSERT_TRUE(picked) << picked.message();
    EXPECT_EQ(picked->state, JobLineState::Matched);
    EXPECT_EQ(picked->checkRunRow, 7);
    EXPECT_EQ(picked->rule, "Runner lost");
    EXPECT_EQ(picked->cls, FailureClass::Infra);
    EXPECT_EQ(picked->line, 2u);
    EXPECT_EQ(picked->logHash, "blobhash");
    EXPECT_EQ(picked->rulesHash, ruleSetHash(classifier->rules()));
    EXPECT_GT(picked->pickedAt, 0);

    const auto quiet = dir.write("quiet.log", "all good\n");
    auto none = pickJobLine(*classifier, 7, quiet, "");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->state, JobLineState::NoMatch);

    auto missing = pickJobLine(*classifier, 7, dir.file("absent.log"), "");
    EXPECT_FALSE(missing);
}

TEST(JobLine, TheRuleSetHashFollowsNamesPatternsClassesAndOrder)
{
    const auto set = [](const std::string& toml) {
        RuleSet rules;
        rules.addText(toml, "t.toml");
        return ruleSetHash(rules);
    };
    const std::string a = "[[rule]]\nname = 'a'\npattern = 'x'\nclass = 'infra'\n";
    const std::string b = "[[rule]]\nname = 'b'\npattern = 'y'\n";
    EXPECT_EQ(set(a + b), set(a + b));
    EXPECT_NE(set(a + b), set(b + a));
    EXPECT_NE(set(a), set("[[rule]]\nname = 'a'\npattern = 'x'\nclass = 'backend bug'\n"));
    EXPECT_NE(set(a), set("[[rule]]\nname = 'a'\npattern = 'xy'\n"));
    EXPECT_NE(ruleSetHash(defaultRuleSet()), set(a));
}
