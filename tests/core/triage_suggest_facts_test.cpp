// suggestForRuns on hand-made facts through its narrow read interface
// (triage/evidence_source.h): no SQLite. What each rule reads is written
// down here, so a rule's inputs and its answer sit side by side; the same
// rules on a real cache are triage_suggest_test.cpp.
#include "relayhud/triage/evidence_source.h"
#include "relayhud/triage/suggest.h"
#include "test_world.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

using namespace relayhud;
using namespace relayhud::triage;

namespace {

using relayhud::test::kAscend;
using relayhud::test::kSpyre;

// Runs, results and evidence in maps, answered as the cache answers.
class Facts final : public EvidenceSource {
public:
    std::map<CheckRunRow, CheckRun> runs;
    std::map<CheckRunRow, JobRow> jobs;                         // run row -> job
    std::map<JobRow, JobTimeline> timelines;                    // job -> timeline
    std::map<CheckRunRow, JobFailureLine> lines;                // run row -> its line
    std::map<CheckRunRow, TestRunInfo> testRuns;                // run row -> its test run
    std::map<TestRunId, std::vector<StoredTestResult>> results; // test run id -> results
    std::map<CheckRunRow, std::vector<CheckRunRow>> otherAttempts;
    std::map<CheckRunRow, std::vector<CheckRunRow>> infraPeers;
    std::string failOn; // a method that answers with an error

    Result<CheckRun> checkRun(CheckRunRow row) const override
    {
        if (failOn == "checkRun")
            return makeError("disk I/O error");
        const auto it = runs.find(row);
        if (it == runs.end())
            return makeError("no check run " + std::to_string(row.value));
        return it->second;
    }
    Result<JobRow> jobOfRun(CheckRunRow row) const override
    {
        const auto it = jobs.find(row);
        return it == jobs.end() ? JobRow{} : it->second;
    }
    Result<JobTimeline> jobTimeline(JobRow jobId) const override
    {
        const auto it = timelines.find(jobId);
        return it == timelines.end() ? JobTimeline{} : it->second;
    }
    Result<std::optional<JobFailureLine>> jobFailureLine(CheckRunRow row) const override
    {
        const auto it = lines.find(row);
        return it == lines.end() ? std::optional<JobFailureLine>() : it->second;
    }
    Result<std::optional<TestRunInfo>> testRunForCheckRun(CheckRunRow row) const override
    {
        const auto it = testRuns.find(row);
        return it == testRuns.end() ? std::optional<TestRunInfo>() : it->second;
    }
    Result<std::vector<StoredTestResult>> testResults(TestRunId testRunId,
                                                      const TestResultFilter& filter) const override
    {
        if (failOn == "testResults")
            return makeError("database is locked");
        std::vector<StoredTestResult> out;
        const auto it = results.find(testRunId);
        if (it == results.end())
            return out;
        for (const StoredTestResult& r : it->second)
            if (filter.outcomes.empty()
                || std::find(filter.outcomes.begin(), filter.outcomes.end(), r.outcome)
                       != filter.outcomes.end())
                out.push_back(r);
        return out;
    }
    Result<std::vector<CheckRunRow>> otherAttemptRows(CheckRunRow row) const override
    {
        const auto it = otherAttempts.find(row);
        return it == otherAttempts.end() ? std::vector<CheckRunRow>{} : it->second;
    }
    Result<std::vector<std::optional<TestOutcome>>>
    testOutcomesIn(CheckRunRow row, const std::vector<TestId>& testIds) const override
    {
        std::vector<std::optional<TestOutcome>> out(testIds.size());
        const auto run = testRuns.find(row);
        if (run == testRuns.end())
            return out;
        const auto stored = results.find(run->second.id);
        if (stored == results.end())
            return out;
        for (std::size_t i = 0; i < testIds.size(); ++i)
            for (const StoredTestResult& r : stored->second)
                if (r.testId == testIds[i])
                    out[i] = r.outcome;
        return out;
    }
    Result<std::vector<CheckRunRow>> infraPeerRows(CheckRunRow row, EpochSeconds) const override
    {
        const auto it = infraPeers.find(row);
        return it == infraPeers.end() ? std::vector<CheckRunRow>{} : it->second;
    }

    // A finished run of the spyre test job on one SHA.
    void addRun(std::int64_t row, int attempt, Conclusion conclusion,
                const std::string& repo = kSpyre, EpochSeconds started = 1'000'000)
    {
        CheckRun run;
        run.downstreamRepo = repo;
        run.upstreamSha = Sha{std::string(40, 'a')};
        run.prNumber = PrNumber{10};
        run.workflow = "CI";
        run.jobName = "test (default, 1, 1)";
        run.checkRunId = CheckRunId{std::to_string(7000 + row)};
        run.runAttempt = attempt;
        run.reported.conclusion = conclusion;
        run.reported.startedAt = started;
        runs[CheckRunRow{row}] = run;
        jobs[CheckRunRow{row}] = JobRow{50};
        TimelineRun t;
        t.row = CheckRunRow{row};
        t.sha = run.upstreamSha;
        t.prNumber = run.prNumber;
        t.attempt = attempt;
        t.conclusion = conclusion;
        t.startedAt = started;
        JobTimeline& timeline = timelines[JobRow{50}];
        timeline.jobId = JobRow{50};
        timeline.downstreamRepo = repo;
        timeline.runs.push_back(t);
    }
    void addResults(std::int64_t row, std::vector<std::pair<std::int64_t, TestOutcome>> tests)
    {
        TestRunInfo info;
        info.id = TestRunId{100 + row};
        info.checkRunRow = CheckRunRow{row};
        testRuns[CheckRunRow{row}] = info;
        for (const auto& [id, outcome] : tests) {
            StoredTestResult r;
            r.testId = TestId{id};
            r.identity = "test/test_ops.py::TestOps::test_" + std::to_string(id);
            r.outcome = outcome;
            results[info.id].push_back(r);
        }
    }
};

bool hasEvidence(const Suggestion& s, EvidenceKind kind)
{
    return std::any_of(s.evidence.begin(), s.evidence.end(),
                       [&](const Evidence& e) { return e.kind == kind; });
}

TEST(SuggestFacts, AFailureThatPassedOnTheRerunIsFlakyAndAStrictXpassIsAPromotion)
{
    Facts facts;
    facts.addRun(1, 1, Conclusion::Failure);
    facts.addRun(2, 2, Conclusion::Success);
    facts.addResults(1, {{7, TestOutcome::Failed}, {8, TestOutcome::XPassStrict}});
    facts.addResults(2, {{7, TestOutcome::Passed}, {8, TestOutcome::XPassStrict}});
    facts.otherAttempts[CheckRunRow{1}] = {CheckRunRow{2}};

    auto got = suggestForRuns(facts, {CheckRunRow{1}});
    ASSERT_TRUE(got) << got.message();
    ASSERT_EQ(got->size(), 2u);
    const Suggestion& flaky = (*got)[0];
    EXPECT_EQ(flaky.target.testId, TestId{7});
    EXPECT_EQ(flaky.cls, FailureClass::Flaky);
    EXPECT_DOUBLE_EQ(flaky.confidence, 0.95);
    ASSERT_FALSE(flaky.evidence.empty());
    EXPECT_EQ(flaky.evidence.front().kind, EvidenceKind::Rerun);
    ASSERT_TRUE(flaky.evidence.front().run);
    EXPECT_EQ(flaky.evidence.front().run->checkRunRow, CheckRunRow{2});
    EXPECT_EQ(flaky.evidence.front().run->runAttempt, 2);
    EXPECT_NE(flaky.why.find("passed on attempt 2"), std::string::npos) << flaky.why;

    const Suggestion& promote = (*got)[1];
    EXPECT_EQ(promote.target.testId, TestId{8});
    EXPECT_EQ(promote.cls, FailureClass::UnexpectedPass);
    EXPECT_TRUE(hasEvidence(promote, EvidenceKind::Outcome));
}

TEST(SuggestFacts, AnInfraLineSharedWithAnotherBackendIsOneOutage)
{
    Facts facts;
    facts.addRun(1, 1, Conclusion::Failure, kSpyre, 1'000'600);
    facts.addRun(4, 1, Conclusion::Failure, kAscend, 1'000'000);
    JobFailureLine line;
    line.checkRunRow = CheckRunRow{1};
    line.state = JobLineState::Matched;
    line.rule = "runner lost";
    line.cls = FailureClass::Infra;
    line.text = "The runner has received a shutdown signal.";
    facts.lines[CheckRunRow{1}] = line;
    facts.infraPeers[CheckRunRow{1}] = {CheckRunRow{4}};

    auto got = suggestForRuns(facts, {CheckRunRow{1}});
    ASSERT_TRUE(got) << got.message();
    ASSERT_EQ(got->size(), 1u);
    const Suggestion& s = got->front();
    EXPECT_EQ(s.target.checkRunRow, CheckRunRow{1});
    EXPECT_FALSE(s.target.testId); // the job itself
    EXPECT_EQ(s.cls, FailureClass::Infra);
    ASSERT_FALSE(s.evidence.empty());
    EXPECT_EQ(s.evidence.front().kind, EvidenceKind::Outage);
    ASSERT_EQ(s.evidence.front().others.size(), 1u);
    EXPECT_EQ(s.evidence.front().others.front().downstreamRepo, kAscend);
    EXPECT_TRUE(hasEvidence(s, EvidenceKind::FailureLine));
    // Named by the first failure, the Ascend run 600 s earlier.
    EXPECT_NE(s.group.find("Ascend/pytorch, spyre-labs/spyre-inductor-ci"), std::string::npos)
        << s.group;
    EXPECT_NE(s.group.find("1970-01-12T13:46:40Z"), std::string::npos) << s.group;
}

TEST(SuggestFacts, AJobThatFailedWithoutAReadLogSaysSoAndNamesNoClass)
{
    Facts facts;
    facts.addRun(1, 1, Conclusion::TimedOut);
    auto got = suggestForRuns(facts, {CheckRunRow{1}});
    ASSERT_TRUE(got) << got.message();
    ASSERT_EQ(got->size(), 1u);
    EXPECT_EQ(got->front().cls, FailureClass::Untriaged);
    EXPECT_EQ(got->front().why,
              "job timed out without test results; its log was not read (sync artifacts to read "
              "it)");
}

TEST(SuggestFacts, AReadThatFailsIsAnErrorNamingTheRun)
{
    Facts facts;
    facts.addRun(1, 1, Conclusion::Failure);
    facts.addResults(1, {{7, TestOutcome::Failed}});
    facts.failOn = "testResults";
    auto got = suggestForRuns(facts, {CheckRunRow{1}});
    ASSERT_FALSE(got);
    EXPECT_EQ(got.message(), "suggestions for check run 1: database is locked");

    facts.failOn = "checkRun";
    got = suggestForRuns(facts, {CheckRunRow{1}});
    ASSERT_FALSE(got);
    EXPECT_EQ(got.message(), "suggestions for check run 1: disk I/O error");
}

} // namespace
