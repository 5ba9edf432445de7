// Issue 36: a report that fits a PR comment. At most 40 lines outside the
// <details> folds and under 20 KB in all, the summary first, then the jobs
// that failed with their classes and failing tests, then one line per
// backend; expected xfails are a count; a section holds only its classes;
// and the Markdown's structure is what GitHub renders as meant (balanced
// folds, tables with blank lines around them, pipes and backticks of test
// names escaped where they would break a table or a code span). The
// simulator's worst SHAs through the real CLI are in
// tests/e2e/cli_report_e2e.sh.
#include "report_shape.h"
#include "verdict_test_support.h"

#include "relayhud/verdict/report.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

// A namespace of its own: the unity build puts this file beside report_test.cpp.
namespace relayhud::verdict::fit {
namespace {

using namespace relayhud::verdict::test;
using triage::FailureClass;

const Sha kSha{"2222222222222222222222222222222222222222"};

std::size_t occurrences(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

RunVerdict job(std::int64_t row, const std::string& repo, const std::string& name, Verdict v)
{
    RunVerdict out;
    out.run = greenRun();
    out.run.downstreamRepo = repo;
    out.run.jobName = name;
    out.run.checkRunId = CheckRunId{std::to_string(50000 + row)};
    out.checkRunRow = CheckRunRow{row};
    out.verdict = v;
    out.reasons = {v == Verdict::Red ? "failure: 1 failed of 3512" : "no outcome config"};
    out.shortReason = v == Verdict::Red ? "" : "no outcome config";
    return out;
}

ClassifiedFailure failure(std::int64_t row, FailureClass cls, const std::string& test)
{
    ClassifiedFailure f;
    f.checkRunRow = CheckRunRow{row};
    f.test = test;
    f.cls = cls;
    f.why = "the engine's reason";
    f.runUrl = "https://github.com/org/repo/actions/runs/42";
    f.logUrl = f.runUrl + "/job/" + std::to_string(50000 + row);
    return f;
}

// A busy SHA: `backends` backends of 4 jobs each, `red` of them red with
// four failures of three classes each, and 91 expected xfails spread over
// the jobs after the red ones.
ReportInput busyInput(int backends, int red)
{
    ReportInput in;
    in.sha = kSha;
    std::int64_t row = 0;
    for (int b = 0; b < backends; ++b)
        for (int j = 0; j < 4; ++j) {
            ++row;
            const bool isRed = row <= red;
            in.jobs.push_back(job(row, "org" + std::to_string(b) + "/backend",
                                  "test (default, " + std::to_string(j + 1) + ", 4)",
                                  isRed ? Verdict::Red : Verdict::GreenUnverifiable));
            if (!isRed)
                continue;
            const std::string file = "test/test_ops.py::TestOps::test_" + std::to_string(row);
            in.failures.push_back(failure(row, FailureClass::Regression, file + "_a"));
            in.failures.push_back(failure(row, FailureClass::PreExisting, file + "_b"));
            in.failures.push_back(failure(row, FailureClass::Untriaged, file + "_c"));
            in.failures.push_back(failure(row, FailureClass::Untriaged, file + "_d"));
        }
    for (int i = 0; i < 91; ++i)
        in.failures.push_back(
            failure(red + 1 + i % 5, FailureClass::Expected,
                    "test/test_xfail.py::TestX::test_xfail_" + std::to_string(i)));
    return in;
}

// GitHub's rendering, as far as the structure decides it: every <details>
// closed, on lines of their own, with a blank line after the summary so
// the Markdown inside renders; every table starts after a blank line or a
// heading and ends before a blank line (or a fold's end).
void expectGithubStructure(const std::string& md)
{
    const std::vector<std::string> lines = markdownLines(md);
    int depth = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& line = lines[i];
        if (line.starts_with("<details>")) {
            ++depth;
            EXPECT_TRUE(line.ends_with("</summary>")) << line;
            EXPECT_TRUE(i + 1 < lines.size() && lines[i + 1].empty()) << line;
        }
        if (line.find("</details>") != std::string::npos) {
            EXPECT_EQ(line, "</details>");
            --depth;
            EXPECT_GE(depth, 0) << "closed a fold never opened, line " << i + 1;
        }
        const bool row = line.starts_with("|");
        const bool prevRow = i > 0 && lines[i - 1].starts_with("|");
        if (row && !prevRow) {
            ASSERT_GT(i, 0u);
            const std::string& before = lines[i - 1];
            EXPECT_TRUE(before.empty() || before.starts_with("#")) << "before a table: " << before;
            ASSERT_LT(i + 1, lines.size());
            EXPECT_TRUE(lines[i + 1].starts_with("|---")) << "a table without its separator";
        }
        if (!row && prevRow) {
            EXPECT_TRUE(line.empty()) << "after a table: " << line;
        }
    }
    EXPECT_EQ(depth, 0) << "a fold left open";
}

TEST(ReportFit, ABusyShaReadsInFortyLinesUnderTwentyKilobytes)
{
    for (const auto& [backends, red] : {std::pair{10, 10}, std::pair{12, 37}, std::pair{25, 90}}) {
        const ReportInput in = busyInput(backends, red);
        const std::string md = markdownReport(in);
        const std::string closed = withoutDetails(md);
        std::cout << "[ measured ] " << backends << " backends, " << red
                  << " red jobs: " << markdownLines(closed).size() << " lines outside the folds, "
                  << markdownLines(md).size() << " in all, " << md.size() << " bytes\n";
        EXPECT_LE(markdownLines(closed).size(), 40u) << closed;
        EXPECT_LT(md.size(), 20'000u);
        expectGithubStructure(md);
        // The summary first, then the jobs that failed, then the backends.
        EXPECT_TRUE(firstContentLine(md).starts_with(std::to_string(in.jobs.size()) + " jobs · "))
            << md.substr(0, 500);
        const std::size_t failed =
            closed.find("### Jobs that failed (" + std::to_string(red) + ")");
        ASSERT_NE(failed, std::string::npos) << closed;
        EXPECT_LT(failed, closed.find("### Jobs by backend"));
        // The first job listed: red, its classes and tests named.
        const std::string first = closed.substr(closed.find("\n- ", failed) + 1, 400);
        EXPECT_TRUE(first.starts_with("- ❌ **org0/backend** CI / test (default, 1, 4)")) << first;
        EXPECT_NE(first.find("regression: `test/test_ops.py::TestOps::test_1_a`; pre-existing: "
                             "`test/test_ops.py::TestOps::test_1_b`; untriaged: "
                             "`test/test_ops.py::TestOps::test_1_c`; and 1 more"),
                  std::string::npos)
            << first;
        if (backends > 20) {
            // Past what 40 lines and 20 KB hold: the lists are cut, and say
            // where the rest is.
            EXPECT_NE(closed.find("more not shown; full list: `relayhud-cli report --format csv"),
                      std::string::npos)
                << closed;
            continue;
        }
        // Each backend, one line, open.
        for (int b = 0; b < backends; ++b)
            EXPECT_EQ(occurrences(closed, "- **org" + std::to_string(b) + "/backend**: "), 1u) << b;
        // The jobs that did not fit are in a fold, not lost.
        for (int r = 1; r <= red; ++r)
            EXPECT_EQ(occurrences(md, "CI / test (default, " + std::to_string((r - 1) % 4 + 1)
                                          + ", 4) [log](<https://github.com/torch-spyre/torch-"
                                            "spyre/actions/runs/42/job/"
                                          + std::to_string(50000 + r) + ">): "),
                      1u)
                << r;
    }
}

TEST(ReportFit, ExpectedXfailsAreACountNotAList)
{
    const ReportInput in = busyInput(10, 2);
    const std::string md = markdownReport(in);
    EXPECT_EQ(md.find("test_xfail_"), std::string::npos) << "an xfail listed by name";
    EXPECT_EQ(md.find("| expected ("), std::string::npos) << "an xfail row";
    EXPECT_NE(md.find("Failures: 2 failures caused by this PR · 2 already broken upstream · 4 "
                      "others · 91 expected failures (xfail)\n"),
              std::string::npos)
        << md.substr(0, 800);
    // Per job, folded: 91 over the five jobs after the red ones, the most first.
    EXPECT_NE(md.find("<details><summary>91 expected failures (xfail), by job</summary>\n\n"
                      "- **org0/backend** CI / test (default, 3, 4): 19 expected (xfail)\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("- **org1/backend** CI / test (default, 3, 4): 18 expected (xfail)\n"),
              std::string::npos);
    // The CSV still has every one.
    EXPECT_EQ(occurrences(csvReport(in), "test_xfail_"), 91u);
}

// The review found the "Already broken upstream" section's only row
// classed "backend bug": each section holds exactly its classes.
TEST(ReportFit, ABackendBugIsNotAlreadyBrokenUpstream)
{
    ReportInput in = busyInput(3, 1);
    in.failures.push_back(failure(2, FailureClass::BackendBug, "test/test_npu.py::test_kernel"));
    in.failures.back().taggedBy = "alice";
    in.jobs[1].verdict = Verdict::Red;
    const std::string md = markdownReport(in);
    auto section = [&](const std::string& title) {
        const std::size_t at = md.find("### " + title + " (");
        if (at == std::string::npos)
            return std::string();
        return md.substr(at, md.find("\n### ", at + 1) - at);
    };
    const std::string broken = section("Already broken upstream");
    ASSERT_FALSE(broken.empty()) << md;
    EXPECT_EQ(broken.find("backend bug"), std::string::npos) << broken;
    EXPECT_EQ(broken.find("test_kernel"), std::string::npos) << broken;
    EXPECT_NE(broken.find("| pre-existing (suggested) |"), std::string::npos) << broken;
    const std::string backend = section("Broken in the backend");
    EXPECT_TRUE(backend.starts_with("### Broken in the backend (1)\n| Job | Test | Class |"))
        << backend;
    EXPECT_NE(backend.find("`test/test_npu.py::test_kernel` | backend bug (tagged by alice)"),
              std::string::npos)
        << backend;
    // Every class lands in its own section's table, and no other.
    for (const FailureClass cls :
         {FailureClass::Regression, FailureClass::PreExisting, FailureClass::BackendBug,
          FailureClass::Flaky, FailureClass::Infra, FailureClass::TestOrConfig,
          FailureClass::UnexpectedPass, FailureClass::Untriaged}) {
        ReportInput one;
        one.sha = kSha;
        one.jobs.push_back(job(1, "org/backend", "test", Verdict::Red));
        one.failures.push_back(failure(1, cls, "test/test_one.py::test_one"));
        const std::string text = markdownReport(one);
        std::size_t sections = 0;
        for (const std::string& line : markdownLines(text))
            sections += line.starts_with("### ") && line.ends_with(" (1)")
                        && !line.starts_with("### Jobs that failed");
        EXPECT_EQ(sections, 1u) << triage::failureClassName(cls) << "\n" << text;
        // The CSV names the same section.
        const std::string csv = csvReport(one);
        EXPECT_NE(csv.find("," + std::string(triage::failureClassName(cls)) + ","
                           + reportSectionName(sectionOf(one.failures[0])) + ","),
                  std::string::npos)
            << csv;
        if (cls == FailureClass::BackendBug) {
            EXPECT_NE(csv.find(",backend bug,backend bug,"), std::string::npos) << csv;
        }
    }
}

// Test names from CI carry pipes, backticks and HTML: in a table, a pipe is
// escaped and the code span's fence outgrows the backticks inside; in a
// list item (where "\|" would show its backslash), only the fence adapts.
TEST(ReportFit, HostileTestNamesKeepTheMarkdownWhole)
{
    ReportInput in = busyInput(2, 1);
    in.failures[0].test = "test_x[a|b]`tick`<details>";
    in.failures[1].test = "``double``";
    const std::string md = markdownReport(in);
    expectGithubStructure(md);
    // The list item of the job that failed (its "<details>" is text in a
    // code span, which GitHub never reads as HTML).
    EXPECT_NE(
        md.find("regression: ``test_x[a|b]`tick`<details>``; pre-existing: ``` ``double`` ```"),
        std::string::npos)
        << md;
    // The table rows.
    EXPECT_NE(md.find("| ``test_x[a\\|b]`tick`<details>`` |"), std::string::npos) << md;
    EXPECT_NE(md.find("| ``` ``double`` ``` |"), std::string::npos) << md;
    EXPECT_EQ(occurrences(md, "<details>"), occurrences(md, "</details>") + 2)
        << "two names hold the text <details>, in code spans";
}

// The byte budget cuts the longest lists first, and however small it is,
// the folds it keeps are closed.
TEST(ReportFit, EveryBudgetKeepsTheFoldsBalanced)
{
    ReportInput in = busyInput(30, 100);
    for (int i = 0; i < 3000; ++i)
        in.failures.push_back(failure(1 + i % 100, FailureClass::Untriaged,
                                      "test/test_big.py::TestBig::test_" + std::to_string(i)
                                          + std::string(200, 'x')));
    for (const std::size_t budget :
         {std::size_t{600}, std::size_t{3000}, std::size_t{8000}, kReportBytes, kCommentLimit}) {
        ReportOptions options;
        options.maxBytes = budget;
        const std::string md = markdownReport(in, options);
        EXPECT_LE(md.size(), budget);
        expectGithubStructure(md);
    }
}

} // namespace
} // namespace relayhud::verdict::fit
