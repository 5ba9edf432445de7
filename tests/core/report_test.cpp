// The reports: escaping of hostile text, RFC 4180 quoting, the Markdown
// sections (regressions with their compare link, already broken, flaky,
// infra, others, folding), the failures leading and the greens one line per
// backend with the verdict table folded (issue 17), the 65,536-byte cap
// against huge and multibyte input, and the CSV's class columns. The
// failures read from a real cache are in report_cache_test.cpp.
#include "report_shape.h"
#include "verdict_test_support.h"

#include "relayhud/verdict/report.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

namespace relayhud::verdict {
namespace {

using namespace relayhud::verdict::test;
using triage::FailureClass;

std::size_t occurrences(const std::string& text, const std::string& what)
{
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
        ++n;
    return n;
}

// Well-formed UTF-8: every lead byte has its continuation bytes.
bool validUtf8(const std::string& text)
{
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t len = c < 0x80         ? 1
                                : (c >> 5) == 6  ? 2
                                : (c >> 4) == 14 ? 3
                                : (c >> 3) == 30 ? 4
                                                 : 0;
        if (len == 0 || i + len > text.size())
            return false;
        for (std::size_t k = 1; k < len; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80)
                return false;
        i += len;
    }
    return true;
}

std::vector<std::string> lines(const std::string& text)
{
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

// Every table row is whole: it ends its cells, and has as many as a header.
void expectWholeRows(const std::string& md)
{
    for (const std::string& line : lines(md))
        if (line.starts_with("| ")) {
            EXPECT_TRUE(line.ends_with(" |")) << line.substr(0, 200);
        }
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

// CI text that a spreadsheet would run as a formula stays text.
TEST(ReportText, CsvCellsThatWouldRunAsFormulasGetALeadingApostrophe)
{
    EXPECT_EQ(csvField("=HYPERLINK(\"http://evil\",\"x\")"),
              "\"'=HYPERLINK(\"\"http://evil\"\",\"\"x\"\")\"");
    EXPECT_EQ(csvField("+1+cmd|' /C calc'!A0"), "'+1+cmd|' /C calc'!A0");
    EXPECT_EQ(csvField("-2+3"), "'-2+3");
    EXPECT_EQ(csvField("@SUM(A1)"), "'@SUM(A1)");
    EXPECT_EQ(csvField("\t=1"), "'\t=1");
    EXPECT_EQ(csvField("\r=1"), "\"'\r=1\"");
    EXPECT_EQ(csvField("a=b"), "a=b") << "only a leading sign is a formula";
    EXPECT_EQ(csvField("42"), "42");
}

TEST(ReportText, ClipNeverSplitsACharacter)
{
    EXPECT_EQ(clipUtf8("short", 10), "short");
    EXPECT_EQ(clipUtf8("abcdefghij", 6), "abc…"); // "…" is 3 bytes
    // "é" is 2 bytes, "😀" 4: every cut point lands before a character.
    const std::string text = "aé😀bé😀c";
    for (std::size_t max = 0; max <= text.size() + 1; ++max) {
        const std::string clipped = clipUtf8(text, max);
        EXPECT_LE(clipped.size(), max);
        EXPECT_TRUE(validUtf8(clipped)) << max;
    }
    EXPECT_EQ(clipUtf8("a😀bc", 6), "a…"); // "a😀" would not leave room for "…"
    EXPECT_EQ(clipUtf8("a😀bcdef", 8), "a😀…");
}

TEST(ReportText, JobLogUrlOnlyForActionsRuns)
{
    CheckRun run = greenRun();
    EXPECT_EQ(jobLogUrl(run),
              "https://github.com/torch-spyre/torch-spyre/actions/runs/42/job/9001");
    run.reported.runUrl += "/attempts/2";
    EXPECT_EQ(jobLogUrl(run),
              "https://github.com/torch-spyre/torch-spyre/actions/runs/42/job/9001");
    run.checkRunId = CheckRunId{""};
    EXPECT_EQ(jobLogUrl(run), "");
    run = greenRun();
    run.reported.runUrl = "https://ci.example/build/42";
    EXPECT_EQ(jobLogUrl(run), "");
}

RunVerdict jobVerdict(std::int64_t row, const std::string& repo, Verdict verdict,
                      std::vector<std::string> reasons)
{
    RunVerdict v;
    v.run = greenRun();
    v.run.downstreamRepo = repo;
    v.checkRunRow = CheckRunRow{row};
    v.verdict = verdict;
    v.reasons = std::move(reasons);
    return v;
}

const std::string kHead = "1111111111111111111111111111111111111111";
const std::string kBase = "0000000000000000000000000000000000000000";

ClassifiedFailure failure(FailureClass cls, const std::string& test, const std::string& why)
{
    ClassifiedFailure f;
    f.checkRunRow = CheckRunRow{2};
    f.attempt = 2; // the attempt the job table shows
    f.test = test;
    f.cls = cls;
    f.why = why;
    f.runUrl = "https://github.com/Ascend/pytorch/actions/runs/42";
    f.logUrl = f.runUrl + "/job/9001";
    return f;
}

ReportInput sampleInput()
{
    ReportInput in;
    in.sha = Sha{kHead};
    in.jobs.push_back(jobVerdict(1, "torch-spyre/torch-spyre", Verdict::VerifiedGreen, {"ok"}));
    in.jobs.push_back(
        jobVerdict(2, "Ascend/pytorch", Verdict::Red, {"failure: 1 failed <b>|</b>, \"quoted\""}));
    in.jobs[1].run.runAttempt = 2;
    ClassifiedFailure regression =
        failure(FailureClass::Regression, "test/test_ops.py::TestOps::test_add|<img src=x>",
                "passed on 0000000 (attempt 1), fails here");
    regression.line = "RuntimeError: bad `thing` | here";
    regression.baseSha = Sha{kBase}; // this PR's previous head
    regression.compareUrl = "https://github.com/pytorch/pytorch/compare/" + kBase + "..." + kHead;
    regression.changeUrl = "https://github.com/pytorch/pytorch/pull/158200/files";
    in.failures.push_back(regression);

    ClassifiedFailure broken =
        failure(FailureClass::PreExisting, "test/test_new.py::TestNew::test_a",
                "9 runs of 7 PRs and nightlies fail it since ...");
    broken.line = "AssertionError: Tensor-likes are not close!";
    broken.culpritPr = PrNumber{158100};
    broken.culpritUrl = "https://github.com/pytorch/pytorch/pull/158100/files";
    broken.firstSeen = "#158100 (abc1234) at 2026-12-01T09:00:00Z";
    in.failures.push_back(broken);

    ClassifiedFailure flaky = failure(FailureClass::Flaky, "test/test_nn.py::TestNN::test_conv",
                                      "fails on attempt 1, passed on attempt 2: flaky");
    flaky.attempt = 1;
    flaky.rerunAttempt = 2;
    flaky.rerunUrl = "https://github.com/Ascend/pytorch/actions/runs/43";
    in.failures.push_back(flaky);

    ClassifiedFailure infra = failure(FailureClass::Infra, "", "job failed; line 42 matches");
    infra.line = "##[error]No space left on device";
    infra.logLine = 42;
    infra.group = "outage from 2026-12-01T10:00:00Z: Ascend/pytorch, intel/torch-xpu-ops";
    in.failures.push_back(infra);

    ClassifiedFailure other =
        failure(FailureClass::Untriaged, "test/test_ops.py::TestOps::test_old",
                "no other run of this job to compare");
    in.failures.push_back(other);
    return in;
}

TEST(ReportMarkdown, VerdictTableAndEverySection)
{
    const std::string md = markdownReport(sampleInput());
    EXPECT_NE(md.find("## RelayHUD report: [pytorch/pytorch@1111111]"), std::string::npos) << md;
    EXPECT_NE(md.find("2 jobs · ✅ 1 verified green · ❌ 1 red"), std::string::npos) << md;
    EXPECT_NE(md.find("Failures: 1 failure caused by this PR · 1 already broken upstream · 1 "
                      "flaky · 1 infra · 1 other"),
              std::string::npos)
        << md;
    EXPECT_NE(
        md.find("| torch-spyre/torch-spyre | CI / test (default, 1, 1) | ✅ verified green | ok |"),
        std::string::npos)
        << md;
    EXPECT_NE(md.find("failure: 1 failed &lt;b&gt;\\|&lt;/b&gt;, \"quoted\""), std::string::npos);
    // In this order, each once.
    std::size_t at = 0;
    for (const char* heading : {"### Caused by this PR (1)", "### Already broken upstream (1)",
                                "### Flaky (1)", "### Infra (1)", "### Others (1)"}) {
        const std::size_t found = md.find(heading);
        ASSERT_NE(found, std::string::npos) << heading << "\n" << md;
        EXPECT_GT(found, at) << heading;
        at = found;
        EXPECT_EQ(occurrences(md, heading), 1u) << heading;
    }
    const std::string range = "[0000000...1111111](<https://github.com/pytorch/pytorch/compare/"
                              + kBase + "..." + kHead + ">)";
    EXPECT_EQ(occurrences(md, range), 1u) << md;
    EXPECT_NE(
        md.find("[files](<https://github.com/pytorch/pytorch/pull/158200/files>)<br>push " + range),
        std::string::npos)
        << md;
    // The culprits overview and the row's first seen.
    const std::string culprit = "[#158100](<https://github.com/pytorch/pytorch/pull/158100/files>)";
    // A lone failure's row names its culprit and outage: no overview.
    EXPECT_EQ(md.find("Likely broken by:"), std::string::npos) << md;
    EXPECT_EQ(md.find("Outages:"), std::string::npos) << md;
    EXPECT_NE(md.find("| pre-existing (suggested) | `AssertionError: Tensor-likes are not close!` "
                      "| \\#158100 (abc1234) at 2026-12-01T09:00:00Z<br>likely "
                      + culprit + " |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("`test/test_ops.py::TestOps::test_add\\|<img src=x>`"), std::string::npos);
    EXPECT_NE(md.find("``RuntimeError: bad `thing` \\| here``"), std::string::npos);
    EXPECT_NE(md.find("| untriaged (suggested) | – | no other run of this job to compare |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("(attempt 1) [log](<https://github.com/Ascend/pytorch/actions/runs/42/job/"
                      "9001>) | `test/test_nn.py::TestNN::test_conv` | "
                      "[attempt 2](<https://github.com/Ascend/pytorch/actions/runs/43>)"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| (the job) | `##[error]No space left on device` (log line 42) | outage "
                      "from 2026-12-01T10:00:00Z: Ascend/pytorch, intel/torch-xpu-ops |"),
              std::string::npos)
        << md;
    // The sections are one fold; the job table comes after them.
    EXPECT_NE(md.find("<details><summary>The failures by class: 1 failure caused by this PR, 1 "
                      "already broken upstream, 1 flaky, 1 infra, 1 other</summary>\n\n"
                      "### Caused by this PR (1)\n| Job |"),
              std::string::npos)
        << md;
    EXPECT_GT(md.find("<details><summary>All 2 jobs: "), md.find("### Others (1)")) << md;
    EXPECT_EQ(occurrences(md, "<details>"), 3u) << md; // the sections, the job table, the legend
    EXPECT_NE(
        md.find("[log](<https://github.com/torch-spyre/torch-spyre/actions/runs/42/job/9001>)"),
        std::string::npos);
    EXPECT_EQ(occurrences(md, "| Backend | Job | Verdict | Reasons | Tests | Links |"), 1u);
    expectWholeRows(md);
}

// Issue 17: a SHA's report led with 26 rows of "green, unverifiable". The
// failures come first; each backend's greens are one line, counted by how
// far they are verified and why not; the job rows are folded below.
TEST(ReportMarkdown, FailuresLeadAndGreensAreOneLinePerBackend)
{
    ReportInput in = sampleInput();
    auto add = [&](const std::string& repo, Verdict verdict, const std::string& shortReason) {
        RunVerdict job = jobVerdict(static_cast<std::int64_t>(in.jobs.size()) + 1, repo, verdict,
                                    {"the reason of job " + std::to_string(in.jobs.size() + 1)});
        job.shortReason = shortReason;
        job.run.jobName = "test (default, " + std::to_string(in.jobs.size() + 1) + ", 30)";
        in.jobs.push_back(job);
    };
    for (int i = 0; i < 9; ++i)
        add("openmlu/torch-mlu", Verdict::GreenUnverifiable, "no outcome config");
    for (int i = 0; i < 3; ++i)
        add("openmlu/torch-mlu", Verdict::VerifiedGreen, "");
    add("Ascend/pytorch", Verdict::GreenUnverifiable, "no test results (expired)");
    add("Ascend/pytorch", Verdict::GreenUnverifiable, "no test results (expired)");
    add("Ascend/pytorch", Verdict::GreenUnverifiable, "no outcome config");
    add("Ascend/pytorch", Verdict::GreenIncomplete, "mandatory tests did not run");
    add("Ascend/pytorch", Verdict::GreenDisputed, "tests fail in the artifacts");
    add("Ascend/pytorch", Verdict::Pending, "");
    add("intel/torch-xpu-ops", Verdict::Inconclusive, "");
    const std::string md = markdownReport(in);

    // The summary first, then the jobs that failed, then the backends.
    EXPECT_TRUE(md.starts_with(
        "## RelayHUD report: [pytorch/pytorch@1111111](<https://github.com/pytorch/pytorch/commit/"
        + kHead
        + ">)\n21 jobs · ✅ 4 verified green · ⚠️ 1 green, incomplete · ❔ 12 green, "
          "unverifiable · ❗ 1 green, disputed · ❌ 1 red · ⚪ 1 inconclusive · ⏳ 1 "
          "pending\\\nFailures: 1 failure caused by this PR · 1 already broken upstream · "
          "1 flaky · 1 infra · 1 other\n\n### Jobs that failed (2)\n"
          "- ❌ **Ascend/pytorch** CI / test (default, 1, 1) (attempt 2) [log]"))
        << md;
    const std::string body = bodyBeforeDetails(md);
    EXPECT_NE(body.find("\n### Jobs by backend\n"
                        "- **torch-spyre/torch-spyre**: 1 green (1 verified)\n"
                        "- **Ascend/pytorch**: 5 green (1 disputed: tests fail in the artifacts; "
                        "1 incomplete: mandatory tests did not run; 3 unverifiable: 2 no test "
                        "results (expired), 1 no outcome config) · 1 red · 1 pending\n"
                        "- **openmlu/torch-mlu**: 12 green (9 unverifiable: no outcome config; 3 "
                        "verified)\n"
                        "- **intel/torch-xpu-ops**: no green · 1 inconclusive\n\n"),
              std::string::npos)
        << body;
    // The red job names its failures by class, worst first; the disputed
    // green is listed too (its reason: no failure of its own here).
    EXPECT_NE(body.find(": regression: `test/test_ops.py::TestOps::test_add|<img src=x>`; "
                        "pre-existing: `test/test_new.py::TestNew::test_a`; flaky: "
                        "`test/test_nn.py::TestNN::test_conv`; and 2 more\n"),
              std::string::npos)
        << body;
    EXPECT_NE(body.find("- ❗ **Ascend/pytorch** CI / test (default, 19, 30) [log](<https://github."
                        "com/torch-spyre/torch-spyre/actions/runs/42/job/9001>): the reason of "
                        "job 19\n"),
              std::string::npos)
        << body;
    // No job row and no section table in the body.
    EXPECT_EQ(body.find("the reason of job 3"), std::string::npos) << body;
    EXPECT_EQ(body.find("| Backend | Job | Verdict |"), std::string::npos) << body;
    EXPECT_EQ(body.find("### Caused by this PR"), std::string::npos) << body;
    EXPECT_EQ(body.find("Fails on this PR's heads"), std::string::npos) << body;
    EXPECT_EQ(markdownLines(body).size(), 14u) << body;
    // + the three folds' summaries and a blank after two of them
    EXPECT_EQ(markdownLines(withoutDetails(md)).size(), 19u) << md;

    // Every job's row, folded.
    const std::string folded = md.substr(body.size());
    const std::size_t all =
        folded.find("<details><summary>All 21 jobs: verdicts, reasons, tests and "
                    "links</summary>\n\n| Backend | Job | Verdict |");
    EXPECT_NE(all, std::string::npos) << folded;
    EXPECT_GT(all, folded.find("### Others (1)")) << folded;
    for (const RunVerdict& job : in.jobs)
        EXPECT_EQ(
            occurrences(folded, "| " + job.run.downstreamRepo + " | "
                                    + escapeMarkdown(job.run.workflow + " / " + job.run.jobName)),
            1u)
            << job.run.jobName;
    EXPECT_NE(folded.find("| ❔ green, unverifiable | the reason of job 3 |"), std::string::npos);
    // What each section means, and what a verified green is, folded last.
    const std::size_t legend = folded.find("<details><summary>How to read this report</summary>");
    ASSERT_NE(legend, std::string::npos) << folded;
    EXPECT_NE(
        folded.find("- **Caused by this PR**: Class regression: fails on this PR's heads", legend),
        std::string::npos);
    EXPECT_NE(folded.find("A green is verified only when the artifacts and the backend's outcome "
                          "config back it.",
                          legend),
              std::string::npos);
    expectWholeRows(md);
}

TEST(ReportMarkdown, AReportWithoutFailuresSaysSoFirst)
{
    ReportInput in = sampleInput();
    in.failures.clear();
    in.jobs.resize(1);
    const std::string md = markdownReport(in);
    EXPECT_EQ(firstContentLine(md), "1 job · ✅ 1 verified green") << md;
    EXPECT_NE(md.find("1 job · ✅ 1 verified green\n\nNo failing test or job.\n\n### Jobs by "
                      "backend\n- **torch-spyre/torch-spyre**: 1 green (1 verified)\n\n"),
              std::string::npos)
        << md;
}

TEST(ReportMarkdown, OverviewsSumUpSectionsOfSeveralFailures)
{
    ReportInput in = sampleInput();
    ClassifiedFailure broken = in.failures[1];
    broken.test += "_2";
    broken.culpritPr = PrNumber{158200};
    broken.culpritUrl = "https://github.com/pytorch/pytorch/pull/158200/files";
    in.failures.push_back(broken);
    ClassifiedFailure infra = in.failures[3];
    infra.checkRunRow = CheckRunRow{1};
    in.failures.push_back(infra);
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("|\n\nLikely broken by: [#158100](<https://github.com/pytorch/pytorch/pull/"
                      "158100/files>) (1 failure) · [#158200](<https://github.com/pytorch/"
                      "pytorch/pull/158200/files>) (1 failure)\n\n### Flaky (1)\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("|\n\nOutages: outage from 2026-12-01T10:00:00Z: Ascend/pytorch, "
                      "intel/torch-xpu-ops (2 failures)\n\n### Others (1)\n"),
              std::string::npos)
        << md;
}

TEST(ReportMarkdown, TaggedFailuresNameTheirAuthorAndBug)
{
    ReportInput in = sampleInput();
    in.failures.resize(2);
    in.failures[1].cls = FailureClass::BackendBug;
    in.failures[1].taggedBy = "alice";
    in.failures[1].bugUrl = "https://github.com/Ascend/pytorch/issues/7";
    in.failures[1].why = "known NPU bug";
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("| backend bug (tagged by alice) "
                      "[bug](<https://github.com/Ascend/pytorch/issues/7>) |"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| known NPU bug |"), std::string::npos);
}

TEST(ReportMarkdown, LongListsFoldAndSayWhereTheRestIs)
{
    ReportInput in = sampleInput();
    for (int i = 0; i < 12; ++i) {
        ClassifiedFailure f = in.failures[1];
        f.test += std::to_string(i);
        in.failures.push_back(f);
    }
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("### Already broken upstream (13)\n| Job |"), std::string::npos) << md;
    // The sections, the job table and the legend are folded; a section has
    // no fold of its own inside the sections' one.
    EXPECT_EQ(occurrences(md, "</details>"), 3u);
    EXPECT_NE(md.find("|\n\nLikely broken by: [#158100](<https://github.com/pytorch/"
                      "pytorch/pull/158100/files>) (13 failures)\n\n"),
              std::string::npos)
        << md;
    ReportOptions capped;
    capped.maxRows = 5;
    const std::string short5 = markdownReport(in, capped);
    EXPECT_NE(short5.find("… 8 more not shown; full list: `relayhud-cli report --format csv --sha "
                          + kHead + "`"),
              std::string::npos)
        << short5;
    EXPECT_EQ(occurrences(short5, "| pre-existing (suggested) |"), 5u);
}

// A SHA's runs hold thousands of xfails that failed as expected: counted,
// never a row each (issue 36; report_fit_test.cpp has more).
TEST(ReportMarkdown, ExpectedXfailsAreCountedNotListed)
{
    ReportInput in = sampleInput();
    for (int i = 0; i < 12; ++i) {
        ClassifiedFailure f = failure(FailureClass::Expected,
                                      "test/test_ops.py::TestOps::test_xfail_" + std::to_string(i),
                                      "fails as its xfail mark expects");
        in.failures.insert(in.failures.begin() + 4, f); // before the untriaged one
    }
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("### Others (1)\n| Job | Test | Class | Failure line | Why |\n"
                      "|---|---|---|---|---|\n"
                      "| Ascend/pytorch<br>CI / test (default, 1, 1) (attempt 2) [log]"
                      "(<https://github.com/Ascend/pytorch/actions/runs/42/job/9001>) | "
                      "`test/test_ops.py::TestOps::test_old` | untriaged (suggested) |"),
              std::string::npos)
        << md;
    EXPECT_EQ(occurrences(md, "| expected (suggested) |"), 0u);
    EXPECT_EQ(occurrences(md, "test_xfail_"), 0u);
    EXPECT_NE(md.find("Failures: 1 failure caused by this PR · 1 already broken upstream · 1 "
                      "flaky · 1 infra · 1 other · 12 expected failures (xfail)\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("<details><summary>12 expected failures (xfail), by job</summary>\n\n- "
                      "**Ascend/pytorch** CI / test (default, 1, 1) (attempt 2): 12 expected "
                      "(xfail)\n"),
              std::string::npos)
        << md;
    // The CSV keeps them all, in its order: every failure after its job, as given.
    const std::string csv = csvReport(in);
    EXPECT_LT(csv.find("test_xfail_11,"), csv.find("test_old,"));
}

TEST(ReportMarkdown, LinksFromCiAreDroppedUnlessPlainHttp)
{
    ReportInput in = sampleInput();
    in.jobs[0].run.reported.runUrl = "javascript:alert(1)";
    in.jobs[0].run.reported.artifactUrl = "https://x.example/a b>";
    in.failures[0].compareUrl = "https://github.com/pytorch/pytorch/compare/a...b<script>";
    in.failures[2].rerunUrl = "data:text/html,hi";
    const std::string md = markdownReport(in);
    EXPECT_EQ(md.find("javascript:"), std::string::npos);
    EXPECT_EQ(md.find("x.example"), std::string::npos);
    EXPECT_EQ(md.find("<script>"), std::string::npos);
    EXPECT_EQ(md.find("data:text"), std::string::npos);
    EXPECT_NE(md.find("| attempt 2 |"), std::string::npos) << md; // the label stays
}

TEST(ReportMarkdown, MissingMandatoryTestsAreListed)
{
    ReportInput in = sampleInput();
    in.jobs[0].verdict = Verdict::GreenIncomplete;
    ConfigCoverage c;
    c.mandatoryNotRun.push_back({"TestOps::test_mul", "${TORCH_ROOT}/test/test_ops.py", 8, false});
    in.jobs[0].configCoverage = c;
    const std::string md = markdownReport(in);
    EXPECT_NE(md.find("<details><summary>Mandatory tests that did not run: 1 job</summary>\n\n"
                      "**torch-spyre/torch-spyre** CI / test (default, 1, 1): 1 missing\n\n"),
              std::string::npos)
        << md;
    EXPECT_NE(md.find("| `TestOps::test_mul` | `${TORCH_ROOT}/test/test_ops.py` | 8 | absent |"),
              std::string::npos)
        << md;
}

// The shape of the 87 KB report that was seen, and worse: thousands of
// failures with long multibyte names, a few hostile megabyte fields.
ReportInput hugeInput()
{
    ReportInput in = sampleInput();
    const std::string wide = "测试_😀_ü|`<b>";
    for (int i = 0; i < 4000; ++i) {
        ClassifiedFailure f = in.failures[4]; // others: the longest list
        f.test = "test/test_ops.py::TestOps::test_" + std::to_string(i) + "_";
        for (int k = 0; k < 12; ++k)
            f.test += wide;
        f.line = "RuntimeError: " + wide + wide + wide;
        in.failures.push_back(f);
    }
    for (int i = 0; i < 30; ++i) {
        ClassifiedFailure f = in.failures[1]; // already broken: a shorter list
        f.test += "_" + std::to_string(i);
        in.failures.push_back(f);
    }
    std::string mega;
    for (int k = 0; mega.size() < 1'000'000; ++k)
        mega += "é😀|";
    in.failures[0].test = "MEGA-TEST " + mega; // one row that alone would overflow
    in.failures[0].why = mega;
    in.jobs[1].reasons.push_back("MEGA-REASON " + mega);
    return in;
}

TEST(ReportMarkdown, HugeInputFitsAGithubComment)
{
    ReportOptions options;
    options.maxRows = 100'000; // only the total cap holds it
    options.maxBytes = kCommentLimit;
    const std::string md = markdownReport(hugeInput(), options);
    EXPECT_LE(md.size(), kCommentLimit);
    EXPECT_GT(md.size(), kCommentLimit - 4096); // and uses the room it has
    EXPECT_TRUE(validUtf8(md));
    expectWholeRows(md);
    // The longest list lost rows first: the 31 already broken are all there.
    EXPECT_EQ(occurrences(md, "| pre-existing (suggested) |"), 31u);
    EXPECT_NE(md.find("more not shown; full list: `relayhud-cli report --format csv --sha "),
              std::string::npos);
    EXPECT_NE(md.find("### Others (4001)"), std::string::npos);
    // The megabyte fields were clipped, not dropped: the regression is listed.
    EXPECT_NE(md.find("### Caused by this PR (1)\n"), std::string::npos);
    EXPECT_NE(md.find("…` | ``RuntimeError: bad"), std::string::npos) << md.substr(0, 3000);

    const std::string defaults = markdownReport(hugeInput());
    EXPECT_LE(defaults.size(), kReportBytes);
    EXPECT_TRUE(validUtf8(defaults));
    EXPECT_NE(defaults.find("### Others (4001)"), std::string::npos);
    EXPECT_NE(defaults.find("more not shown; full list: "), std::string::npos);
}

TEST(ReportMarkdown, TinyBudgetsAndEndlessIntrosStillFit)
{
    ReportInput in = hugeInput();
    for (std::size_t budget :
         {std::size_t{0}, std::size_t{50}, std::size_t{3000}, std::size_t{20'000}}) {
        ReportOptions options;
        options.maxBytes = budget;
        const std::string md = markdownReport(in, options);
        EXPECT_LE(md.size(), budget);
        EXPECT_TRUE(validUtf8(md)) << budget;
        expectWholeRows(md);
    }
    // Thousands of jobs each missing a mandatory test: the headings alone
    // overflow, so the report is cut at a line end and says so.
    ReportInput many = sampleInput();
    ConfigCoverage c;
    c.mandatoryNotRun.push_back({"TestOps::test_mul", "test_ops.py", 8, false});
    for (int i = 0; i < 3000; ++i) {
        RunVerdict job = jobVerdict(100 + i, "org/backend-" + std::to_string(i) + "-ü",
                                    Verdict::GreenIncomplete, {"1 mandatory test did not run"});
        job.configCoverage = c;
        many.jobs.push_back(job);
    }
    const std::string md = markdownReport(many);
    EXPECT_LE(md.size(), kCommentLimit);
    EXPECT_TRUE(validUtf8(md));
    expectWholeRows(md);
    // ... inside the mandatory tests' fold, which is closed after the note.
    EXPECT_TRUE(md.ends_with("the report is cut here to fit a GitHub comment; full report: "
                             "`relayhud-cli report --format csv --sha "
                             + kHead + "`\n\n</details>\n"))
        << md.substr(md.size() - 300);
    EXPECT_EQ(occurrences(md, "<details>"), occurrences(md, "</details>"));
}

TEST(ReportCsv, JobRowsThenFailureRowsWithClassColumns)
{
    const std::string csv = csvReport(sampleInput());
    EXPECT_EQ(csv.substr(0, csv.find("\r\n")),
              "upstream_sha,check_run_id,backend,workflow,job,run_attempt,conclusion,verdict,"
              "reasons,cases,passed,failing,skipped,xfailed,mandatory_not_run,run_url,"
              "artifact_url,test,class,section,decided_by,failed_on_attempt,why,failure_line,"
              "previous_head_sha,compare_url,culprit_pr,first_seen,passed_on_attempt,outage_group,"
              "log_url,bug_url");
    EXPECT_EQ(occurrences(csv, "\r\n"), 1u + 2u + 5u); // header, jobs, failures
    EXPECT_NE(csv.find(",red,\"failure: 1 failed <b>|</b>, \"\"quoted\"\"\","), std::string::npos)
        << csv;
    // A failure row names its job up to the verdict, then leaves the job's
    // reasons, counts and links empty.
    EXPECT_NE(csv.find(",9001,Ascend/pytorch,CI,\"test (default, 1, 1)\",2,success,red,,,,,,,,,,"
                       "test/test_ops.py::TestOps::test_add|<img src=x>,"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",\"test (default, 1, 1)\","), std::string::npos) << csv;
    EXPECT_NE(csv.find(",test/test_ops.py::TestOps::test_add|<img src=x>,regression,this PR,"
                       "suggestion,2,\"passed on 0000000 (attempt 1), fails here\","
                       "RuntimeError: bad `thing` | here,"
                       + kBase + ",https://github.com/pytorch/pytorch/compare/" + kBase + "..."
                       + kHead
                       + ",,,,,https://github.com/Ascend/pytorch/actions/runs/42/job/9001,"
                         "\r\n"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",pre-existing,broken upstream,suggestion,2,"), std::string::npos) << csv;
    EXPECT_NE(csv.find(",,,158100,#158100 (abc1234) at 2026-12-01T09:00:00Z,,,"), std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",flaky,flaky,suggestion,1,"), std::string::npos);
    EXPECT_NE(csv.find(",,,,,2,,https://github.com/Ascend/pytorch/actions/runs/42/job/9001,\r\n"),
              std::string::npos); // passed on attempt 2
    EXPECT_NE(csv.find(",infra,infra,suggestion,2,"), std::string::npos);
    EXPECT_NE(csv.find(",,,,,,\"outage from 2026-12-01T10:00:00Z: Ascend/pytorch, "
                       "intel/torch-xpu-ops\",https://"),
              std::string::npos)
        << csv;
    EXPECT_NE(csv.find(",untriaged,other,suggestion,2,"), std::string::npos);
    // The job rows leave the class columns empty.
    EXPECT_NE(csv.find(",https://github.com/torch-spyre/torch-spyre/actions/runs/42/artifacts"
                       ",,,,,,,,,,,,,,,\r\n"),
              std::string::npos)
        << csv;
}

TEST(ReportCsv, HoldsEveryFailureUncapped)
{
    const ReportInput in = hugeInput();
    const std::string csv = csvReport(in);
    EXPECT_EQ(occurrences(csv, ",other,suggestion,"), 4001u);
    // The megabyte name, whole.
    const std::string& mega = in.failures[0].test;
    const std::size_t at = csv.find("MEGA-TEST ");
    ASSERT_NE(at, std::string::npos);
    EXPECT_EQ(csv.compare(at, mega.size(), mega), 0);
    // The job's megabyte reason is on its row only, not on each failure's.
    EXPECT_EQ(occurrences(csv, "MEGA-REASON "), 1u);
    EXPECT_LT(csv.size(), 10'000'000u);
}

} // namespace
} // namespace relayhud::verdict
