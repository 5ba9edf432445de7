// Deselected is not missing (issue 34 part 5). torch-spyre's CI runs its
// suites with `-v -m "not xfail" --mode=<mode>` (../shared/specs/real-backends.md
// 3.3-3.4): every xfail and xfail_strict variant, and every unlisted test, is
// deselected and absent from the JUnit. The shapes below are the real ones:
//  - workflow: `extra_test_flags: -v -m "not xfail"` (AdnanHoque/torch-spyre
//    .github/workflows/torch_spyre_tests.yaml @8dc6ee97 L133; the matrix
//    workflow torch-spyre/torch-spyre _upstream_tests_beta_matrix.yaml
//    @1c1da12d adds --mode=<mode>);
//  - job log: the run-test-suite step's script as the runner prints it
//    (`bash tests/run_test.sh "$CONFIG" ... -v -m "not xfail" ...`) and its
//    echo `  Extra flags   : ...`, which bash prints without the quotes
//    (AdnanHoque/torch-spyre .github/actions/run-test-suite/action.yml
//    @e1abccf7 L126, L153); run_test.sh runs `python3 -m pytest ...`
//    (tests/oot_framework/run_test.sh @8dc6ee97 L1619).
#include "test_results_fixtures.h"
#include "verdict_test_support.h"

#include "relayhud/config/config_suggest.h"
#include "relayhud/config/pytest_selection.h"
#include "relayhud/store/test_result_store.h"

#include <gtest/gtest.h>

namespace relayhud::config {
namespace {

constexpr const char* kSelectionWorkflow = R"(  run-tests:
    needs: changes
    if: needs.changes.outputs.code_changed == 'true'
    uses: ./.github/workflows/_test_matrix.yaml
    with:
      runner_label: linux
      image_label: ${{ inputs.runner_label || 'image_spyre_backend' }}
      extra_test_flags: -v -m "not xfail"
      extra_test_flags_multi_spyre: -v
      checkout_pytorch: false
)";

// A matrix leg's log: the step script the runner prints, then its output.
constexpr const char* kSelectionJobLog =
    "2026-08-18T10:02:11.1234567Z ##[group]Run set -uo pipefail\n"
    "2026-08-18T10:02:11.1234568Z \x1b[36;1mset -uo pipefail\x1b[0m\n"
    "2026-08-18T10:02:11.1234569Z \x1b[36;1mecho \"  Extra flags   : -v -m \"not xfail\" "
    "--mode=validate\"\x1b[0m\n"
    "2026-08-18T10:02:11.1234570Z \x1b[36;1menv ${_DTLOG_PREFIX} bash tests/run_test.sh "
    "\"$CONFIG\" ${_PARALLEL_FLAG} -v -m \"not xfail\" --mode=validate ${_SLOW_FLAG} "
    "${_JUNIT_FLAG} \\\x1b[0m\n"
    "2026-08-18T10:02:11.2000000Z ##[endgroup]\n"
    "2026-08-18T10:02:12.0000000Z Running Indexing tests...\n"
    "2026-08-18T10:02:12.0000001Z   Host Platform : x86_64\n"
    "2026-08-18T10:02:12.0000002Z   Extra flags   : -v -m not xfail --mode=validate\n"
    "2026-08-18T10:02:13.0000000Z Usage: run_test.sh <config.yaml | config_dir/> [extra pytest "
    "args...]\n"
    "2026-08-18T10:02:20.0000000Z [torch_oot_device_tests_run] Running: test/test_indexing.py\n"
    "2026-08-18T10:05:20.0000000Z ==== 812 passed, 1904 deselected in 180.02s ====\n";

TEST(PytestSelection, TheWorkflowsExtraTestFlagsDeselectXfail)
{
    const PytestSelection s = pytestSelectionFromText(kSelectionWorkflow);
    EXPECT_EQ(s.deselectsXfail, Tri::Yes) << s.why;
    EXPECT_EQ(s.line, 8u); // extra_test_flags_multi_spyre is another input
    EXPECT_EQ(s.markExpression, "not xfail");
    EXPECT_FALSE(s.runxfail);
    EXPECT_NE(s.why.find("deselects every xfail and xfail_strict test"), std::string::npos);
}

TEST(PytestSelection, AWorkflowValueQuotedWholeIsSplitAgain)
{
    const PytestSelection s =
        pytestSelectionFromText("      extra_test_flags: '-v -m \"not xfail\" --mode=gating'\n");
    EXPECT_EQ(s.deselectsXfail, Tri::Yes) << s.why;
    EXPECT_EQ(s.markExpression, "not xfail");
}

TEST(PytestSelection, TheJobLogsCommandLinesDeselectXfail)
{
    const PytestSelection s = pytestSelectionFromText(kSelectionJobLog);
    EXPECT_EQ(s.deselectsXfail, Tri::Yes) << s.why;
    EXPECT_EQ(s.commands, 3u); // the echo in the script, run_test.sh, the echo's output
    EXPECT_EQ(s.line, 3u);
    EXPECT_EQ(s.markExpression, "not xfail");
}

TEST(PytestSelection, PytestCommandLinesInTheirQuotings)
{
    for (const char* line :
         {"+ python3 -m pytest test_indexing.py -v -m 'not xfail' --junit-xml=/w/test_indexing.xml",
          "python3 -m pytest test_indexing.py -v -m \"not xfail\" --mode=gating",
          "pytest -m'not xfail and not slow' tests/inductor/test_inductor_ops.py"}) {
        const PytestSelection s = pytestSelectionFromText(line);
        EXPECT_EQ(s.deselectsXfail, Tri::Yes) << line << ": " << s.why;
    }
    // python's own -m before pytest is not a marker expression.
    const PytestSelection plain = pytestSelectionFromText("python3 -m pytest test/test_ops.py -v");
    EXPECT_EQ(plain.deselectsXfail, Tri::No) << plain.why;
    EXPECT_TRUE(plain.runsXfailTests());
    const PytestSelection runxfail =
        pytestSelectionFromText("python3 -m pytest test/test_ops.py -v --runxfail");
    EXPECT_EQ(runxfail.deselectsXfail, Tri::No);
    EXPECT_TRUE(runxfail.runxfail);
    EXPECT_NE(runxfail.why.find("--runxfail"), std::string::npos);
}

TEST(PytestSelection, UnknownRatherThanAGuess)
{
    const PytestSelection none = pytestSelectionFromText("Running Indexing tests...\n");
    EXPECT_EQ(none.deselectsXfail, Tri::Unknown);
    EXPECT_EQ(none.why, "no pytest command line found");
    const PytestSelection mixed = pytestSelectionFromText(
        "python3 -m pytest a.py -v -m 'not xfail'\npython3 -m pytest b.py -v\n");
    EXPECT_EQ(mixed.deselectsXfail, Tri::Unknown);
    EXPECT_NE(mixed.why.find("disagree"), std::string::npos) << mixed.why;
    const PytestSelection broken = pytestSelectionFromText("pytest a.py -m 'not (xfail'");
    EXPECT_EQ(broken.deselectsXfail, Tri::Unknown) << broken.why;
}

TEST(PytestSelection, MarkerExpressions)
{
    EXPECT_EQ(expressionDeselectsXfail("not xfail"), Tri::Yes);
    EXPECT_EQ(expressionDeselectsXfail("not (xfail or slow)"), Tri::Yes);
    EXPECT_EQ(expressionDeselectsXfail("xfail"), Tri::No);
    EXPECT_EQ(expressionDeselectsXfail("slow or not xfail"), Tri::Yes);
    EXPECT_EQ(expressionDeselectsXfail("xfail or not xfail"), Tri::No);
    EXPECT_EQ(expressionDeselectsXfail("not not xfail"), Tri::No);
    EXPECT_EQ(expressionDeselectsXfail("not"), Tri::Unknown);
    EXPECT_EQ(expressionDeselectsXfail("xfail xfail"), Tri::Unknown);
    EXPECT_EQ(expressionDeselectsXfail(std::string(2000, 'x')), Tri::Unknown);
}

} // namespace
} // namespace relayhud::config

namespace relayhud::verdict {
namespace {

using namespace relayhud::verdict::test;

// A `-m "not xfail"` run: only the mandatory_success variants are in the
// JUnit (real-backends.md 3.4).
std::vector<StoredTestResult> mandatoryOnly()
{
    return {result("test_add", "add", "float16"), result("test_add", "add", "float32"),
            result("test_mul", "mul", "float16"), result("test_scan_cumsum", "scan", "float16")};
}

TEST(DeselectedNotMissing, AGreenUnderNotXfailHoldsWithItsDeselectedCount)
{
    const auto results = mandatoryOnly();
    VerdictInput in = inputFor(results);
    in.selection = config::pytestSelectionFromText(config::kSelectionJobLog);
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::VerifiedGreen) << joined(v.reasons);
    ASSERT_TRUE(v.configCoverage);
    const ConfigCoverage& c = *v.configCoverage;
    EXPECT_EQ(c.bucket(Bucket::Xfail).deselected, 1);
    EXPECT_EQ(c.bucket(Bucket::XfailStrict).deselected, 1);
    EXPECT_EQ(c.bucket(Bucket::Xfail).missing, 0);
    EXPECT_EQ(c.bucket(Bucket::XfailStrict).missing, 0);
    ASSERT_EQ(c.deselected.size(), 2u);
    EXPECT_EQ(c.deselected[0].name, "TestOps::test_div");
    const std::string reasons = joined(v.reasons);
    EXPECT_NE(reasons.find("the green holds: every mandatory_success test ran and passed"),
              std::string::npos)
        << reasons;
    EXPECT_NE(reasons.find("deselected by the job, not missing: 2 xfail/xfail_strict listings"),
              std::string::npos)
        << reasons;
}

TEST(DeselectedNotMissing, WithoutTheSelectionItSaysItCannotTell)
{
    const auto results = mandatoryOnly();
    const RunVerdict v = computeVerdict(inputFor(results), results);
    EXPECT_EQ(v.verdict, Verdict::VerifiedGreen); // the mandatory tests all passed
    ASSERT_TRUE(v.configCoverage);
    EXPECT_EQ(v.configCoverage->xfailNotRunSelectionUnknown, 2);
    EXPECT_EQ(v.configCoverage->bucket(Bucket::Xfail).deselected, 0);
    const std::string reasons = joined(v.reasons);
    EXPECT_NE(reasons.find("the job's pytest selection is unknown (not read): 2 "
                           "xfail/xfail_strict listings did not run"),
              std::string::npos)
        << reasons;
}

TEST(DeselectedNotMissing, AJobThatSelectsXfailTestsMissesThem)
{
    const auto results = mandatoryOnly();
    VerdictInput in = inputFor(results);
    in.selection = config::pytestSelectionFromText("python3 -m pytest test/test_ops.py -v\n");
    const RunVerdict v = computeVerdict(in, results);
    ASSERT_TRUE(v.configCoverage);
    EXPECT_EQ(v.configCoverage->bucket(Bucket::Xfail).missing, 1);
    EXPECT_EQ(v.configCoverage->bucket(Bucket::Xfail).deselected, 0);
    EXPECT_NE(joined(v.reasons).find("the job selects xfail tests"), std::string::npos);
}

TEST(DeselectedNotMissing, AnXfailTestInTheReportContradictsTheSelection)
{
    const auto results = goodResults(); // test_div and test_sub (xfail) ran
    VerdictInput in = inputFor(results);
    in.selection = config::pytestSelectionFromText("pytest test/test_ops.py -m 'not xfail'");
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable) << joined(v.reasons);
    ASSERT_EQ(v.configCoverage->unknown.size(), 2u);
    EXPECT_NE(v.configCoverage->unknown[0].why.find("which the job's selection deselects"),
              std::string::npos)
        << v.configCoverage->unknown[0].why;
}

TEST(DeselectedNotMissing, AMandatoryTestThatDidNotRunIsStillMissing)
{
    auto results = mandatoryOnly();
    results.erase(results.begin() + 2); // test_mul
    VerdictInput in = inputFor(results);
    in.selection = config::pytestSelectionFromText("pytest test/test_ops.py -m 'not xfail'");
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenIncomplete) << joined(v.reasons);
    ASSERT_EQ(v.configCoverage->mandatoryNotRun.size(), 1u);
    EXPECT_EQ(v.configCoverage->mandatoryNotRun[0].name, "TestOps::test_mul");
}

TEST(DeselectedNotMissing, VerdictForRunTakesTheSelectionByRepo)
{
    using namespace relayhud::testing;
    auto cache = openCacheOk(":memory:");
    const std::string sha(40, 'b');
    const auto row =
        addRun(*cache, completedRun(sha, "Indexing", 1, Conclusion::Success, 100), 100);
    auto writer =
        TestResultStore(*cache).beginTestRun({row, TestRunSource::Artifacts, "test_ops.xml", "u"});
    ASSERT_TRUE(writer) << writer.message();
    for (const auto& [name, op] : std::vector<std::pair<std::string, std::string>>{
             {"test_add_add_spyre_float16", "add"},
             {"test_mul_mul_spyre_float16", "mul"},
             {"test_scan_cumsum_scan_spyre_float16", "scan"}}) {
        TestCaseResult c = makeCase("TestOpsPRIVATEUSE1", name, TestOutcome::Passed);
        c.file = "test/test_ops.py";
        c.marks.items.push_back({MarkKind::Op, op});
        ASSERT_TRUE((*writer)->add(c));
    }
    ASSERT_TRUE((*writer)->commit({}));
    VerdictSources sources;
    sources.loadedConfigs["torch-spyre/torch-spyre"].set(parsedConfig());
    sources.selectionByRepo["torch-spyre/torch-spyre"] =
        config::pytestSelectionFromText(config::kSelectionJobLog);
    const auto v = verdictForRun(*cache, row, sources);
    ASSERT_TRUE(v) << v.message();
    ASSERT_TRUE(v->configCoverage);
    EXPECT_EQ(v->configCoverage->bucket(Bucket::Xfail).deselected, 1);
    EXPECT_EQ(v->configCoverage->bucket(Bucket::XfailStrict).deselected, 1);
}

} // namespace
} // namespace relayhud::verdict

namespace relayhud::config {
namespace {

RecentResults twoJobs()
{
    RecentResults recent;
    recent.jobs.push_back(
        {"torch-spyre/torch-spyre", "upstream-tests-beta-matrix (reusable)", "Indexing", {}, {}});
    recent.jobs.push_back({"torch-spyre/torch-spyre",
                           "upstream-tests-beta-matrix (reusable)",
                           "Linear algebra",
                           {},
                           {}});
    return recent;
}

TEST(XfailEvidence, SaysPlainlyWhenNoJobRunsTheXfailTests)
{
    const PytestSelection notXfail = pytestSelectionFromText(kSelectionWorkflow);
    const XfailEvidence e =
        xfailEvidence(twoJobs(), {{"torch-spyre/torch-spyre", {}, {}, notXfail}});
    ASSERT_EQ(e.deselecting.size(), 2u);
    EXPECT_TRUE(e.running.empty());
    ASSERT_FALSE(e.sentences.empty());
    EXPECT_NE(e.sentences[0].find("no job runs the xfail tests"), std::string::npos)
        << e.sentences[0];
    EXPECT_NE(e.sentences[0].find("no xfail or xfail_strict test can ever produce promotion "
                                  "evidence"),
              std::string::npos);
    EXPECT_NE(e.sentences[0].find("without -m \"not xfail\""), std::string::npos);
    EXPECT_NE(e.sentences[0].find("--runxfail"), std::string::npos);
    EXPECT_EQ(e.sentences[1].rfind("lacks xfail evidence: torch-spyre/torch-spyre "
                                   "upstream-tests-beta-matrix (reusable) / Indexing: ",
                                   0),
              0u)
        << e.sentences[1];
}

TEST(XfailEvidence, NamesTheJobThatLacksEvidenceBesideOneThatHasIt)
{
    const PytestSelection notXfail = pytestSelectionFromText(kSelectionWorkflow);
    const PytestSelection runxfail =
        pytestSelectionFromText("python3 -m pytest test/test_linalg.py -v --runxfail");
    const XfailEvidence e =
        xfailEvidence(twoJobs(), {{"torch-spyre/torch-spyre", {}, "Indexing", notXfail},
                                  {"torch-spyre/torch-spyre", {}, "Linear algebra", runxfail}});
    ASSERT_EQ(e.deselecting.size(), 1u);
    ASSERT_EQ(e.running.size(), 1u);
    std::string all;
    for (const std::string& s : e.sentences)
        all += s + "\n";
    EXPECT_NE(all.find("1 job deselects the xfail tests"), std::string::npos) << all;
    EXPECT_NE(all.find("lacks xfail evidence: torch-spyre/torch-spyre "
                       "upstream-tests-beta-matrix (reusable) / Indexing"),
              std::string::npos)
        << all;
    EXPECT_NE(all.find("runs the xfail tests: torch-spyre/torch-spyre "
                       "upstream-tests-beta-matrix (reusable) / Linear algebra"),
              std::string::npos)
        << all;
}

TEST(XfailEvidence, SilentWithoutAnySelection)
{
    EXPECT_TRUE(xfailEvidence(twoJobs(), {}).sentences.empty());
}

} // namespace
} // namespace relayhud::config
