// The reports: escaping of hostile text, RFC 4180 quoting, the Markdown
// sections (verdict table, regressions with their compare link, classes,
// folding), and the report input and stand-in classifier over a real cache.
#include "test_results_fixtures.h"
#include "verdict_test_support.h"

#include "relayhud/store/cache.h"
#include "relayhud/verdict/report.h"

#include <gtest/gtest.h>

namespace relayhud::verdict {
namespace {

using namespace relayhud::verdict::test;

std::size_t occurrences(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

TEST(ReportText, MarkdownEscapesPunctuationAndHtml)
{
    EXPECT_EQ(escapeMarkdown("plain text 123"), "plain text 123");
    EXPECT_EQ(escapeMarkdown("a|b"), "a\\|b");
    EXPECT_EQ(escapeMarkdown("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
    EXPECT_EQ(escapeMarkdown("*bold* _it_ [x](y) `c` # h ~s~ \\"),
              "\\*bold\\* \\_it\\_ \\[x\\](y) \\`c\\` \\# h \\~s\\~ \\\\");
    EXPECT_EQ(escapeMarkdown("a & b"), "a &amp; b");
    EXPECT_EQ(escapeMarkdown("line1\nline2\r\nline3\rend"), "line1 line2 line3 end");
}

TEST(ReportText, CodeSpansSurviveBackticksAndPipes)
{
    EXPECT_EQ(markdownCode("test_x[a|b]"), "`test_x[a\\|b]`");
    EXPECT_EQ(markdownCode("uses `x` here"), "``uses `x` here``");
    EXPECT_EQ(markdownCode("``double``"), "``` ``double`` ```");
    EXPECT_EQ(markdownCode("<b>a\nb</b>"), "`<b>a b</b>`"); // HTML is literal in a code span
}

TEST(ReportText, CsvFieldsAreQuotedPerRfc4180)
{
    EXPECT_EQ(csvField("plain"), "plain");
    EXPECT_EQ(csvField(""), "");
    EXPECT_EQ(csvField("a,b"), "\"a,b\"");
    EXPECT_EQ(csvField("say \"hi\""), "\"say \"\"hi\"\"\"");
    EXPECT_EQ(csvField("two\nlines"), "\"two\nlines\"");
    EXPECT_EQ(csvField("cr\r"), "\"cr\r\"");
}

TEST(ReportText, CompareUrl)
{
    EXPECT_EQ(compareUrl("pytorch/pytorch", Sha{"aaa"}, Sha{"bbb"}),
              "https://github.com/pytorch/pytorch/compare/aaa...bbb");
}

RunVerdict jobVerdict(std::int64_t row, const std::string& repo, Verdict verdict,
                      std::vector<std::string> reasons)
{
    RunVerdict v;
    v.run = greenRun();
    v.run.downstreamRepo = repo;
    v.checkRunRow = row;
    v.verdict = verdict;
    v.reasons = std::move(reasons);
    return v;
}

ReportInput sampleInput()
{
    ReportInput in;
    in.sha = Sha{"1111111111111111111111111111111111111111"};
    in.jobs.push_back(jobVerdict(1, "torch-spyre/torch-spyre", Verdict::VerifiedGreen, {"ok"}));
    in.jobs.push_back(
        jobVerdict(2, "Ascend/pytorch", Verdict::Red, {"failure: 1 failed <b>|</b>, \"quoted\""}));
    ClassifiedFailure regression;
    regression.checkRunRow = 2;
    regression.test = "test/test_ops.py::TestOps::test_add|<img src=x>";
    regression.className = "untriaged";
    regression.why = "failed; not classified yet";
    regression.line = "RuntimeError: bad `thing` | here";
    regression.novelty = Novelty::New;
    regression.baseSha = Sha{"0000000000000000000000000000000000000000"};
    in.failures.push_back(regression);
    return in;
}

TEST(ReportMarkdown, VerdictTableRegressionsAndClasses)
{
    const std::string md = markdownReport(sampleInput());
    EXPECT_NE(md.find("## RelayHUD report: [pytorch/pytorch@1111111]"), std::string::npos) << md;
    EXPECT_NE(md.find("2 jobs · ✅ 1 verified green · ❌ 1 red"), std::string::npos) << md;
    EXPECT_NE(
        md.find("| torch-spyre/torch-spyre | CI / test (default, 1, 1) | ✅ verified green | ok |"),
        std::string::npos)
        << md;
    EXPECT_NE(md.find("failure: 1 failed &lt;b&gt;\\|&lt;/b&gt;, \"quoted\""), std::string::npos)
        << md;
    EXPECT_NE(md.find("### Regressions (1)"), std::string::npos);
    EXPECT_NE(md.find("[0000000...1111111](<https://github.com/pytorch/pytorch/compare/"
                      "0000000000000000000000000000000000000000..."
                      "1111111111111111111111111111111111111111>)"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("`test/test_ops.py::TestOps::test_add\\|<img src=x>`"), std::string::npos);
    EXPECT_NE(md.find("``RuntimeError: bad `thing` \\| here``"), std::string::npos);
    EXPECT_NE(md.find("#### untriaged (1)"), std::string::npos);
    EXPECT_EQ(md.find("<details>"), std::string::npos); // short lists stay open
    EXPECT_NE(
        md.find("[log](<https://github.com/torch-spyre/torch-spyre/actions/runs/42/job/9001>)"),
        std::string::npos)
        << md;
    // Every table row has as many cells as its header.
    EXPECT_EQ(occurrences(md, "| Backend | Job | Verdict | Reasons | Tests | Links |"), 1u);
}

TEST(ReportMarkdown, LongListsFoldIntoDetails)
{
    ReportInput in = sampleInput();
    for (int i = 0; i < 12; ++i) {
        ClassifiedFailure f = in.failures.front();
        f.test += std::to_string(i);
        f.novelty = Novelty::PreExisting;
        in.failures.push_back(f);
    }
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("<details><summary>13 untriaged</summary>\n\n| Job |"), std::string::npos)
        << md;
    EXPECT_EQ(occurrences(md, "</details>"), 1u); // the one regression stays open
    ReportOptions capped;
    capped.maxRows = 5;
    const std::string short5 = markdownReport(in, capped);
    EXPECT_NE(short5.find("… and 8 more"), std::string::npos) << short5;
    EXPECT_EQ(occurrences(short5, "| new |") + occurrences(short5, "| pre-existing |"), 5u);
}

TEST(ReportMarkdown, LinksFromCiAreDroppedUnlessPlainHttp)
{
    ReportInput in = sampleInput();
    in.jobs[0].run.reported.runUrl = "javascript:alert(1)";
    in.jobs[0].run.reported.artifactUrl = "https://x.example/a b>";
    const std::string md = markdownReport(in);
    EXPECT_EQ(md.find("javascript:"), std::string::npos);
    EXPECT_EQ(md.find("x.example"), std::string::npos);
}

TEST(ReportMarkdown, MissingMandatoryTestsAreListed)
{
    ReportInput in = sampleInput();
    in.jobs[0].verdict = Verdict::GreenIncomplete;
    ConfigCoverage c;
    c.mandatoryNotRun.push_back({"TestOps::test_mul", "${TORCH_ROOT}/test/test_ops.py", 8, false});
    in.jobs[0].configCoverage = c;
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("### Mandatory tests that did not run"), std::string::npos);
    EXPECT_NE(md.find("| `TestOps::test_mul` | `${TORCH_ROOT}/test/test_ops.py` | 8 | absent |"),
              std::string::npos)
        << md;
}

TEST(ReportCsv, HeaderRowsAndQuoting)
{
    const std::string csv = csvReport(sampleInput());
    EXPECT_EQ(csv.substr(0, csv.find("\r\n")),
              "upstream_sha,check_run_id,backend,workflow,job,run_attempt,conclusion,verdict,"
              "reasons,cases,passed,failing,skipped,xfailed,mandatory_not_run,run_url,"
              "artifact_url");
    EXPECT_EQ(occurrences(csv, "\r\n"), 3u);
    EXPECT_NE(csv.find(",red,\"failure: 1 failed <b>|</b>, \"\"quoted\"\"\","), std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",\"test (default, 1, 1)\","), std::string::npos) << csv;
}

// --- report input and the stand-in classifier over a real cache ---

class ReportCacheTest : public ::testing::Test {
protected:
    std::int64_t storeRun(const std::string& sha, EpochSeconds time, Conclusion conclusion,
                          const std::vector<TestCaseResult>& cases)
    {
        CheckRun run = relayhud::testing::completedRun(sha, "test (default)", 1, conclusion, time);
        const std::int64_t row = relayhud::testing::addRun(*m_cache, run, time);
        auto writer = m_cache->beginTestRun({row, TestRunSource::Artifacts, "default.xml", ""});
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

    std::unique_ptr<Cache> m_cache = relayhud::testing::openCacheOk(":memory:");
};

TEST_F(ReportCacheTest, RegressionsAndPreExistingFailuresFromHistory)
{
    using relayhud::testing::makeCase;
    storeRun("aaaa", 1000, Conclusion::Failure,
             {makeCase("TestA", "test_old", TestOutcome::Failed, "AssertionError: old"),
              makeCase("TestA", "test_new"), makeCase("TestA", "test_x", TestOutcome::XFailed)});
    const std::int64_t row =
        storeRun("bbbb", 2000, Conclusion::Failure,
                 {makeCase("TestA", "test_old", TestOutcome::Failed, "AssertionError: old"),
                  makeCase("TestA", "test_new", TestOutcome::Error, "\n  RuntimeError: new\nmore"),
                  makeCase("TestA", "test_x", TestOutcome::XFailed),
                  makeCase("TestA", "test_strict", TestOutcome::XPassStrict, "XPASS strict")});
    auto input = loadReportInput(*m_cache, Sha{"bbbb"}, std::nullopt, {});
    ASSERT_TRUE(input) << input.message();
    ASSERT_EQ(input->jobs.size(), 1u);
    EXPECT_EQ(input->jobs[0].checkRunRow, row);
    EXPECT_EQ(input->jobs[0].verdict, Verdict::Red);
    auto failures = failuresFromResults(*m_cache, input->jobs[0]);
    ASSERT_TRUE(failures) << failures.message();
    ASSERT_EQ(failures->size(), 4u);
    std::map<std::string, ClassifiedFailure> byName;
    for (const ClassifiedFailure& f : *failures)
        byName[f.test.substr(f.test.rfind("::") + 2)] = f;
    EXPECT_EQ(byName["test_old"].novelty, Novelty::PreExisting);
    EXPECT_EQ(byName["test_old"].className, "untriaged");
    EXPECT_EQ(byName["test_new"].novelty, Novelty::New);
    EXPECT_EQ(byName["test_new"].baseSha, Sha{"aaaa"});
    EXPECT_EQ(byName["test_new"].line, "RuntimeError: new");
    EXPECT_EQ(byName["test_x"].className, "expected failure");
    EXPECT_EQ(byName["test_x"].novelty, Novelty::Unknown);
    EXPECT_EQ(byName["test_strict"].className, "unexpected pass");
    EXPECT_NE(byName["test_strict"].why.find("did not have it"), std::string::npos);

    input->failures = *failures;
    const std::string md = markdownReport(*input);
    EXPECT_NE(md.find("compare/aaaa...bbbb"), std::string::npos) << md;
}

TEST_F(ReportCacheTest, RedJobWithoutFailingCaseGetsAJobLevelEntry)
{
    using relayhud::testing::makeCase;
    storeRun("cccc", 1000, Conclusion::Failure, {makeCase("TestA", "test_ok")});
    auto input = loadReportInput(*m_cache, Sha{"cccc"}, std::nullopt, {});
    ASSERT_TRUE(input) << input.message();
    auto failures = failuresFromResults(*m_cache, input->jobs[0]);
    ASSERT_TRUE(failures);
    ASSERT_EQ(failures->size(), 1u);
    EXPECT_TRUE(failures->front().test.empty());
    EXPECT_NE(failures->front().why.find("infrastructure"), std::string::npos);
}

TEST_F(ReportCacheTest, UnknownShaAndForeignCheckRunAreErrors)
{
    using relayhud::testing::makeCase;
    const std::int64_t row = storeRun("dddd", 1000, Conclusion::Success, {makeCase("TestA", "t")});
    storeRun("eeee", 2000, Conclusion::Success, {makeCase("TestA", "t")});
    EXPECT_FALSE(loadReportInput(*m_cache, Sha{"ffff"}, std::nullopt, {}));
    auto foreign = loadReportInput(*m_cache, Sha{"eeee"}, row, {});
    ASSERT_FALSE(foreign);
    EXPECT_NE(foreign.message().find("not the newest attempt"), std::string::npos);
    auto one = loadReportInput(*m_cache, Sha{"dddd"}, row, {});
    ASSERT_TRUE(one) << one.message();
    EXPECT_EQ(one->jobs.size(), 1u);
    EXPECT_EQ(one->jobs[0].verdict, Verdict::GreenUnverifiable); // no config
}

} // namespace
} // namespace relayhud::verdict
