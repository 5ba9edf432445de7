// The job failure line (store/job_failure_line.h, triage/job_line.h): its
// store round trip and replacement, the queue of failed runs that need one,
// the runs triage reads, and how a line is picked with its rule set's hash.
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "triage_suggest_fixture.h"

using namespace relayhud::test::suggest_fixture;
using namespace relayhud::test::outcome_letters;

TEST_F(SuggestTest, AJobLineRoundTripsAndIsReplaced)
{
    const auto row = run(1, {}, 1, Conclusion::Failure, "test", kSpyre, false);
    EXPECT_FALSE(*EvidenceStore(*m_cache).jobFailureLine(row));
    JobFailureLine l;
    l.checkRunRow = row;
    l.rulesHash = 0xF00DFACECAFEBEEFULL; // above INT64_MAX: stored as its bit pattern
    l.state = JobLineState::Matched;
    l.rule = "Network failure";
    l.cls = FailureClass::Infra;
    l.line = 77;
    l.text = "Could not resolve host: \"ghcr.io\"";
    l.captures = {"Could not resolve host", "caf\xC3\xA9"};
    l.named = {"Could not resolve host", "Could not resolve proxy"};
    l.logHash = "deadbeef";
    l.pickedAt = 1234;
    ASSERT_TRUE(EvidenceStore(*m_cache).putJobFailureLine(l));
    auto back = EvidenceStore(*m_cache).jobFailureLine(row);
    ASSERT_TRUE(back && *back);
    EXPECT_EQ((*back)->rulesHash, l.rulesHash);
    EXPECT_EQ((*back)->state, JobLineState::Matched);
    EXPECT_EQ((*back)->rule, l.rule);
    EXPECT_EQ((*back)->cls, FailureClass::Infra);
    EXPECT_EQ((*back)->line, 77u);
    EXPECT_EQ((*back)->text, l.text);
    EXPECT_EQ((*back)->captures, l.captures);
    EXPECT_EQ((*back)->named, l.named);
    EXPECT_EQ((*back)->logHash, "deadbeef");
    EXPECT_EQ((*back)->pickedAt, 1234);
    l.state = JobLineState::NoMatch;
    l.captures.clear();
    ASSERT_TRUE(EvidenceStore(*m_cache).putJobFailureLine(l));
    EXPECT_EQ((*EvidenceStore(*m_cache).jobFailureLine(row))->state, JobLineState::NoMatch);
    EXPECT_TRUE((*EvidenceStore(*m_cache).jobFailureLine(row))->captures.empty());
    EXPECT_STREQ(jobLineStateName(JobLineState::FetchFailed), "fetch failed");

    l.checkRunRow = CheckRunRow{9999}; // no such run: the foreign key refuses it
    auto bad = EvidenceStore(*m_cache).putJobFailureLine(l);
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
        EXPECT_TRUE(RunStore(*m_cache).apply(SyncBatch{{}, {commit}, {r}, {}}));
    };
    noId();
    auto rows = [&](std::uint64_t hash, EpochSeconds retryBefore) {
        JobLineQueueQuery q;
        q.rulesHash = hash;
        q.retryFailedBefore = retryBefore;
        auto queue = EvidenceStore(*m_cache).jobLineQueue(q);
        EXPECT_TRUE(queue) << (queue ? "" : queue.message());
        std::vector<CheckRunRow> out;
        for (const auto& c : queue ? *queue : std::vector<JobLineCandidate>{})
            out.push_back(c.checkRunRow);
        return out;
    };
    EXPECT_EQ(rows(42, 0), (std::vector<CheckRunRow>{cancelled, failed}));
    const auto candidates = *EvidenceStore(*m_cache).jobLineQueue({});
    EXPECT_EQ(candidates[0].downstreamRepo, kSpyre);
    EXPECT_EQ(candidates[0].conclusion, Conclusion::Cancelled);
    EXPECT_FALSE(candidates[0].checkRunId.value.empty());

    line(failed, "Runner lost", FailureClass::Infra);              // hash 42, picked at 5
    line(cancelled, "", FailureClass::Unset, JobLineState::NoLog); // final
    EXPECT_TRUE(rows(42, 100).empty());
    EXPECT_EQ(rows(43, 0), (std::vector<CheckRunRow>{cancelled, failed})) << "a new rule set";
    line(failed, "", FailureClass::Unset, JobLineState::FetchFailed);
    EXPECT_TRUE(rows(42, 5).empty()) << "not before the retry time";
    EXPECT_EQ(rows(42, 6), (std::vector<CheckRunRow>{failed}));
}

TEST_F(SuggestTest, TriageRunsAreFailedJobsAndRunsWithFailingResults)
{
    const auto failed = run(1, {{"test_a", P}}, 1, Conclusion::Failure);
    run(2, {{"test_a", P}, {"test_b", XF}}, 1, Conclusion::Success);
    const auto hidden = run(3, {{"test_a", F}}, 1, Conclusion::Success); // a green that lies
    const auto xpass = run(4, {{"test_a", X}}, 1, Conclusion::Success);
    const auto cancelled = run(5, {}, 1, Conclusion::Cancelled, "test", kSpyre, false);
    auto all = EvidenceStore(*m_cache).triageRunRows({});
    ASSERT_TRUE(all) << all.message();
    EXPECT_EQ(*all, (std::vector<CheckRunRow>{cancelled, xpass, hidden, failed}));
    TriageRunQuery one;
    one.sha = Sha{sha(3)};
    EXPECT_EQ(*EvidenceStore(*m_cache).triageRunRows(one), (std::vector<CheckRunRow>{hidden}));
    TriageRunQuery recent;
    recent.since = 1'004'000;
    recent.limit = 1;
    EXPECT_EQ(*EvidenceStore(*m_cache).triageRunRows(recent),
              (std::vector<CheckRunRow>{cancelled}));
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
    auto picked = pickJobLine(*classifier, CheckRunRow{7}, log, "blobhash");
    ASSERT_TRUE(picked) << picked.message();
    EXPECT_EQ(picked->state, JobLineState::Matched);
    EXPECT_EQ(picked->checkRunRow, CheckRunRow{7});
    EXPECT_EQ(picked->rule, "Runner lost");
    EXPECT_EQ(picked->cls, FailureClass::Infra);
    EXPECT_EQ(picked->line, 2u);
    EXPECT_EQ(picked->logHash, "blobhash");
    EXPECT_EQ(picked->rulesHash, ruleSetHash(classifier->rules()));
    EXPECT_GT(picked->pickedAt, 0);

    const auto quiet = dir.write("quiet.log", "all good\n");
    auto none = pickJobLine(*classifier, CheckRunRow{7}, quiet, "");
    ASSERT_TRUE(none);
    EXPECT_EQ(none->state, JobLineState::NoMatch);

    auto missing = pickJobLine(*classifier, CheckRunRow{7}, dir.file("absent.log"), "");
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

// Issue 36: a class resting on other runs of the job is provisional while
// some of them still await their results, and says how many are in; its
// confidence counts once all are. Here the one other PR that fails the test
// too is among the runs not fetched yet: at partial evidence the failure
// reads as this PR's regression, once everything is in it is flaky.
