// The report's failures read from a real cache: each failing case classed by
// the suggestion engine, a person's tag over the suggestion, a rerun that
// passed making a failure flaky, a failed job without failing cases carrying
// its failure line, and unknown SHAs and rows as errors.
#include "test_results_fixtures.h"

#include "relayhud/store/checkout_store.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/verdict/report.h"

#include <gtest/gtest.h>

#include <map>

namespace relayhud::verdict {
namespace {

using triage::FailureClass;

class ReportCacheTest : public ::testing::Test {
protected:
    CheckRunRow storeRun(const std::string& sha, EpochSeconds time, Conclusion conclusion,
                         const std::vector<TestCaseResult>& cases, int attempt = 1)
    {
        CheckRun run =
            relayhud::testing::completedRun(sha, "test (default)", attempt, conclusion, time);
        run.eventType = EventType::Push; // as addRun's commit: a linear series
        const CheckRunRow row = relayhud::testing::addRun(*m_cache, run, time);
        if (cases.empty())
            return row;
        auto writer = TestResultStore(*m_cache).beginTestRun(
            {row, TestRunSource::Artifacts, "default.xml", ""});
        EXPECT_TRUE(writer);
        TestRunTotals totals;
        totals.reports = 1;
        for (const TestCaseResult& c : cases) {
            EXPECT_TRUE((*writer)->add(c));
            ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
        }
        EXPECT_TRUE((*writer)->commit(totals));
        return row;
    }

    ReportInput load(const std::string& sha)
    {
        auto input = loadReportInput(*m_cache, Sha{sha}, std::nullopt, {});
        EXPECT_TRUE(input) << input.message();
        if (!input)
            return {};
        for (const RunVerdict& job : input->jobs) {
            auto failures = failuresFromResults(*m_cache, job);
            EXPECT_TRUE(failures) << failures.message();
            if (failures)
                input->failures.insert(input->failures.end(), failures->begin(), failures->end());
        }
        return std::move(*input);
    }

    static std::map<std::string, ClassifiedFailure> byName(const ReportInput& in)
    {
        std::map<std::string, ClassifiedFailure> out;
        for (const ClassifiedFailure& f : in.failures)
            out[f.test.empty() ? "(job)" : f.test.substr(f.test.rfind("::") + 2)] = f;
        return out;
    }

    TriageTag tag(const std::string& sha, const std::string& test, FailureClass cls)
    {
        TriageTag t;
        t.target = {"torch-spyre/torch-spyre",         "CI", "test (default)", Sha{sha}, 1,
                    "test/test_ops.py::TestA::" + test};
        t.cls = cls;
        t.note = "seen on the NPU before";
        t.bugUrl = "https://github.com/org/repo/issues/9";
        t.author = "alice";
        t.timeMs = 1000;
        return t;
    }

    relayhud::testing::TestCache m_cache = relayhud::testing::openCacheOk(":memory:");
};

using relayhud::testing::makeCase;

TEST_F(ReportCacheTest, SuggestionsClassifyEachFailingCase)
{
    storeRun("aaaa", 1000, Conclusion::Failure,
             {makeCase("TestA", "test_old", TestOutcome::Failed, "AssertionError: old"),
              makeCase("TestA", "test_new"), makeCase("TestA", "test_x", TestOutcome::XFailed)});
    const CheckRunRow row =
        storeRun("bbbb", 2000, Conclusion::Failure,
                 {makeCase("TestA", "test_old", TestOutcome::Failed, "AssertionError: old"),
                  makeCase("TestA", "test_new", TestOutcome::Error,
                           "\n  Traceback (most recent call last):\n  RuntimeError: new\nmore"),
                  makeCase("TestA", "test_x", TestOutcome::XFailed),
                  makeCase("TestA", "test_strict", TestOutcome::XPassStrict, "XPASS strict")});
    const ReportInput in = load("bbbb");
    ASSERT_EQ(in.jobs.size(), 1u);
    EXPECT_EQ(in.jobs[0].checkRunRow, row);
    ASSERT_EQ(in.failures.size(), 4u);
    auto f = byName(in);
    EXPECT_EQ(f["test_new"].cls, FailureClass::Regression);
    EXPECT_EQ(sectionOf(f["test_new"]), ReportSection::Regression);
    EXPECT_EQ(f["test_new"].baseSha, Sha{"aaaa"});
    // Two pushes (no PR) of one series: the range between them.
    EXPECT_EQ(f["test_new"].compareUrl, "https://github.com/pytorch/pytorch/compare/aaaa...bbbb");
    EXPECT_EQ(f["test_new"].line, "RuntimeError: new");
    EXPECT_NE(f["test_new"].why.find("regression in aaaa...bbbb"), std::string::npos)
        << f["test_new"].why;
    EXPECT_EQ(f["test_new"].logUrl, "https://github.com/torch-spyre/torch-spyre/actions/runs/"
                                    "run-bbbb-test (default)/job/cr-bbbb-test (default)-1");
    EXPECT_FALSE(f["test_new"].tagged());
    EXPECT_EQ(f["test_old"].cls, FailureClass::PreExisting);
    EXPECT_TRUE(f["test_old"].failedBefore);
    EXPECT_EQ(sectionOf(f["test_old"]), ReportSection::Broken);
    EXPECT_EQ(f["test_x"].cls, FailureClass::Expected);
    EXPECT_EQ(f["test_strict"].cls, FailureClass::UnexpectedPass);

    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("### Caused by this PR (1)"), std::string::npos) << md;
    EXPECT_NE(
        md.find("push [aaaa...bbbb](<https://github.com/pytorch/pytorch/compare/aaaa...bbbb>)"),
        std::string::npos)
        << md;
    EXPECT_NE(md.find("### Already broken upstream (1)"), std::string::npos) << md;
    // The unexpected pass is listed; the expected xfail is counted (issue 36).
    EXPECT_NE(md.find("### Others (1)"), std::string::npos) << md;
    EXPECT_NE(md.find(" · 1 expected failure (xfail)\n"), std::string::npos) << md;
}

TEST_F(ReportCacheTest, APersonsTagWinsOverTheSuggestion)
{
    storeRun("aaaa", 1000, Conclusion::Success, {makeCase("TestA", "test_a")});
    storeRun("bbbb", 2000, Conclusion::Failure,
             {makeCase("TestA", "test_a", TestOutcome::Failed, "AssertionError: a"),
              makeCase("TestA", "test_b", TestOutcome::Failed, "AssertionError: b")});
    TriageTag cleared = tag("bbbb", "test_b", FailureClass::Untriaged);
    ASSERT_TRUE(TriageStore(*m_cache).setTriageTags(
        {tag("bbbb", "test_a", FailureClass::BackendBug), cleared}));
    const ReportInput in = load("bbbb");
    auto f = byName(in);
    EXPECT_EQ(f["test_a"].cls, FailureClass::BackendBug);
    EXPECT_EQ(f["test_a"].taggedBy, "alice");
    EXPECT_EQ(f["test_a"].bugUrl, "https://github.com/org/repo/issues/9");
    EXPECT_EQ(f["test_a"].why, "seen on the NPU before (the engine suggested regression)");
    EXPECT_EQ(f["test_a"].baseSha, Sha{"aaaa"});               // the evidence stays
    EXPECT_EQ(sectionOf(f["test_a"]), ReportSection::Backend); // not "broken upstream"
    // A cleared tag names no class: the suggestion stands (test_b is new
    // since the previous push, which passed everything it ran).
    EXPECT_FALSE(f["test_b"].tagged());
    EXPECT_EQ(f["test_b"].cls, FailureClass::Regression);
    EXPECT_EQ(sectionOf(f["test_b"]), ReportSection::Regression);

    const std::string md = markdownReport(in);
    EXPECT_NE(
        md.find("backend bug (tagged by alice) [bug](<https://github.com/org/repo/issues/9>)"),
        std::string::npos)
        << md;
    const std::string csv = csvReport(in);
    EXPECT_NE(csv.find(",backend bug,backend bug,tag by alice,1,"), std::string::npos) << csv;
}

TEST_F(ReportCacheTest, AFailureThatPassedOnARerunIsFlaky)
{
    storeRun("cccc", 1000, Conclusion::Failure,
             {makeCase("TestA", "test_flaky", TestOutcome::Failed, "TimeoutError: slow")}, 1);
    storeRun("cccc", 1000, Conclusion::Success, {makeCase("TestA", "test_flaky")}, 2);
    const ReportInput in = load("cccc");
    ASSERT_EQ(in.jobs.size(), 1u);
    EXPECT_EQ(in.jobs[0].run.runAttempt, 2);
    ASSERT_EQ(in.failures.size(), 1u);
    const ClassifiedFailure& f = in.failures[0];
    EXPECT_EQ(f.cls, FailureClass::Flaky);
    EXPECT_EQ(f.attempt, 1);
    EXPECT_EQ(f.rerunAttempt, 2);
    EXPECT_EQ(f.checkRunRow, in.jobs[0].checkRunRow);
    EXPECT_NE(f.logUrl.find("cr-cccc-test (default)-1"), std::string::npos) << f.logUrl;
    EXPECT_NE(f.rerunUrl.find("actions/runs/run-cccc"), std::string::npos) << f.rerunUrl;
    EXPECT_EQ(f.line, "TimeoutError: slow");
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("### Flaky (1)"), std::string::npos) << md;
}

TEST_F(ReportCacheTest, AFailedJobWithoutFailingCasesCarriesItsFailureLine)
{
    const CheckRunRow row =
        storeRun("dddd", 1000, Conclusion::Failure, {makeCase("TestA", "test_ok")});
    auto before = load("dddd");
    ASSERT_EQ(before.failures.size(), 1u);
    EXPECT_TRUE(before.failures[0].test.empty());
    EXPECT_EQ(sectionOf(before.failures[0]), ReportSection::Other);
    EXPECT_NE(before.failures[0].why.find("its log was not read"), std::string::npos)
        << before.failures[0].why;

    JobFailureLine line;
    line.checkRunRow = row;
    line.rulesHash = 1;
    line.state = JobLineState::Matched;
    line.rule = "disk-full";
    line.cls = FailureClass::Infra;
    line.line = 4242;
    line.text = "##[error]No space left on device";
    ASSERT_TRUE(EvidenceStore(*m_cache).putJobFailureLine(line));
    auto after = load("dddd");
    ASSERT_EQ(after.failures.size(), 1u);
    const ClassifiedFailure& f = after.failures[0];
    EXPECT_EQ(f.cls, FailureClass::Infra);
    EXPECT_EQ(f.line, "##[error]No space left on device");
    EXPECT_EQ(f.logLine, 4242u);
    EXPECT_NE(markdownReport(after).find("(log line 4242)"), std::string::npos);
}

TEST_F(ReportCacheTest, UnknownShaAndForeignCheckRunAreErrors)
{
    const CheckRunRow row = storeRun("dddd", 1000, Conclusion::Success, {makeCase("TestA", "t")});
    storeRun("eeee", 2000, Conclusion::Success, {makeCase("TestA", "t")});
    EXPECT_FALSE(loadReportInput(*m_cache, Sha{"ffff"}, std::nullopt, {}));
    auto foreign = loadReportInput(*m_cache, Sha{"eeee"}, row, {});
    ASSERT_FALSE(foreign);
    EXPECT_NE(foreign.message().find("not the newest attempt"), std::string::npos);
    auto one = loadReportInput(*m_cache, Sha{"dddd"}, row, {});
    ASSERT_TRUE(one) << one.message();
    EXPECT_EQ(one->jobs.size(), 1u);
    EXPECT_EQ(one->jobs[0].verdict, Verdict::GreenUnverifiable); // no config
    auto failures = failuresFromResults(*m_cache, one->jobs[0]);
    ASSERT_TRUE(failures) << failures.message();
    EXPECT_TRUE(failures->empty()); // a green without failing cases has none
    RunVerdict ghost = one->jobs[0];
    ghost.checkRunRow = CheckRunRow{9999};
    EXPECT_FALSE(failuresFromResults(*m_cache, ghost)); // an unknown row is an error
}

// real-backends.md 3.1, 3.5: a merged PR's build tested its base branch's
// HEAD, named in the build job's name; the report's job row says so beside
// the SHA it is about (the PR's head).
TEST_F(ReportCacheTest, AJobRowSaysWhichCommitItReallyTested)
{
    const std::string head(40, 'e');
    const std::string base = "4f1d3c0a9b8e7d6c5b4a39281706f5e4d3c2b1a0";
    CheckRun run = relayhud::testing::completedRun(head, "linux-x86_64 / pytorch / test", 1,
                                                   Conclusion::Success, 1000);
    run.prNumber = PrNumber{158123};
    const CheckRunRow row = relayhud::testing::addRun(*m_cache, run, 1000);
    const std::string job = "Build PyTorch@" + base + " + torch-spyre";
    const auto tested = testedCommitFromJobName(job);
    ASSERT_TRUE(tested);
    ASSERT_TRUE(CheckoutStore(*m_cache).putTestedCommit(row, *tested));
    const ReportInput in = load(head);
    ASSERT_EQ(in.tested.count(row), 1u);
    EXPECT_EQ(in.tested.at(row), "tested main@4f1d3c0 after #158123 merged (from its job name)");
    EXPECT_NE(markdownReport(in).find("<br>tested main@4f1d3c0 after \\#158123 merged"),
              std::string::npos)
        << markdownReport(in);
}

} // namespace
} // namespace relayhud::verdict
