// Every verdict rule of verdict.h on hand-made runs, the bucket and op x dtype
// counts, bad input (never a false "verified"), and verdictForRun over a real
// in-memory cache with a config file on disk.
#include "test_results_fixtures.h"
#include "verdict_test_support.h"

#include "relayhud/store/test_result_store.h"

#include <gtest/gtest.h>

namespace relayhud::verdict {
namespace {

using namespace relayhud::verdict::test;

TEST(Verdict, HonestCompleteGreenIsVerified)
{
    const auto results = goodResults();
    VerdictInput in = inputFor(results);
    in.testedSha = in.run.upstreamSha;
    in.previousExecuted = 6;
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::VerifiedGreen) << joined(v.reasons);
    EXPECT_EQ(v.shortReason, "");
    for (const ConsistencyCheck& c : v.checks)
        EXPECT_EQ(c.state, CheckState::Pass) << checkKindName(c.kind) << ": " << c.sentence;
    ASSERT_TRUE(v.configCoverage);
    EXPECT_TRUE(v.configCoverage->mandatoryNotRun.empty());
    EXPECT_TRUE(v.configCoverage->unknown.empty());
}

TEST(Verdict, UnknownShaAndNoPreviousRunAreNotCheckableNotFailures)
{
    const auto results = goodResults();
    const RunVerdict v = computeVerdict(inputFor(results), results);
    EXPECT_EQ(v.verdict, Verdict::VerifiedGreen);
    EXPECT_EQ(checkOf(v, CheckKind::TestedSha).state, CheckState::NotCheckable);
    EXPECT_EQ(checkOf(v, CheckKind::ExecutedSet).state, CheckState::NotCheckable);
}

TEST(Verdict, BucketCountsDeclaredRanMissingUnexpected)
{
    auto results = goodResults();
    results.push_back(result("test_div", "div", "float32", TestOutcome::Passed)); // XPASS
    results.push_back(result("test_other", "add", "float16"));                    // unlisted
    const ConfigCoverage c = configCoverage(parsedConfig(), results);
    const BucketCounts& ms = c.bucket(Bucket::MandatorySuccess);
    EXPECT_EQ(ms.declared, 3); // two names and a pattern
    EXPECT_EQ(ms.ran, 4);
    EXPECT_EQ(ms.missing, 0);
    EXPECT_EQ(ms.unexpected, 0);
    EXPECT_EQ(c.bucket(Bucket::Xfail).declared, 1);
    EXPECT_EQ(c.bucket(Bucket::Xfail).ran, 2);
    EXPECT_EQ(c.bucket(Bucket::Xfail).unexpected, 1); // the XPASS
    EXPECT_EQ(c.bucket(Bucket::XfailStrict).ran, 1);
    EXPECT_EQ(c.bucket(Bucket::XfailStrict).unexpected, 0);
    EXPECT_EQ(c.bucket(Bucket::Skip).declared, 1);
    EXPECT_EQ(c.bucket(Bucket::Skip).missing, 0); // skipped tests are never in a report
    EXPECT_EQ(c.bucket(Bucket::Unlisted).ran, 1);
    ASSERT_EQ(c.unlistedRan.size(), 1u);
    EXPECT_NE(c.unlistedRan[0].find("test_other_add"), std::string::npos);
    EXPECT_TRUE(c.unknown.empty()); // unlisted_test_mode xfail accounts for it
}

TEST(Verdict, MissingMandatoryTestMakesGreenIncomplete)
{
    std::vector<StoredTestResult> results;
    for (const StoredTestResult& r : goodResults())
        if (r.baseName != "TestOps::test_mul")
            results.push_back(r);
    const RunVerdict v = computeVerdict(inputFor(results), results);
    EXPECT_EQ(v.verdict, Verdict::GreenIncomplete);
    ASSERT_TRUE(v.configCoverage);
    ASSERT_EQ(v.configCoverage->mandatoryNotRun.size(), 1u);
    const MissingTest& m = v.configCoverage->mandatoryNotRun[0];
    EXPECT_EQ(m.name, "TestOps::test_mul");
    EXPECT_EQ(m.line, 8u);
    EXPECT_FALSE(m.skipped);
    EXPECT_EQ(v.configCoverage->bucket(Bucket::MandatorySuccess).missing, 1);
    EXPECT_NE(v.reasons.front().find("1 mandatory_success test did not run"), std::string::npos)
        << v.reasons.front();
    EXPECT_EQ(v.shortReason, "mandatory tests did not run");
}

TEST(Verdict, MandatoryTestThatOnlySkippedDidNotRun)
{
    auto results = goodResults();
    for (StoredTestResult& r : results)
        if (r.baseName == "TestOps::test_scan_cumsum")
            r.outcome = TestOutcome::Skipped;
    const RunVerdict v = computeVerdict(inputFor(results), results);
    EXPECT_EQ(v.verdict, Verdict::GreenIncomplete);
    ASSERT_EQ(v.configCoverage->mandatoryNotRun.size(), 1u);
    EXPECT_EQ(v.configCoverage->mandatoryNotRun[0].name, "TestOps::test_scan_.*");
    EXPECT_TRUE(v.configCoverage->mandatoryNotRun[0].skipped);
}

TEST(Verdict, SelfReportedCountsThatDisagreeAreDisputed)
{
    // The hidden-failure story: the row says all passed; the JUnit fails one.
    auto results = goodResults();
    VerdictInput in = inputFor(results);
    results[1].outcome = TestOutcome::Failed;
    in.testRun->totals = totalsOf(results);
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenDisputed);
    EXPECT_EQ(checkOf(v, CheckKind::Counts).state, CheckState::Fail);
    EXPECT_NE(checkOf(v, CheckKind::Counts).sentence.find("0 failed"), std::string::npos);
    EXPECT_NE(joined(v.reasons).find("1 test fails in its JUnit"), std::string::npos);
    EXPECT_EQ(v.shortReason, "reported success, tests failed"); // the first of three reasons
    EXPECT_EQ(v.configCoverage->mandatoryNotPassed.size(), 1u);
}

TEST(Verdict, CountsDisagreeingWithoutFailuresAreDisputed)
{
    const auto results = goodResults();
    VerdictInput in = inputFor(results);
    in.run.reported.tests->total += 100; // claims tests that are not in the artifacts
    in.run.reported.tests->passed += 100;
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenDisputed);
    EXPECT_EQ(v.shortReason, "counts differ from the artifacts'");
}

// Counts that are not test counts (real-backends.md 1.3, 1.4; model/count_kind.h):
// crcr-test's are health-check outcomes, TorchedHat's test commands. Their
// number says nothing about JUnit cases, so a mismatch disputes nothing.
TEST(Verdict, HealthCheckAndCommandCountsAreNotComparedWithJUnitCases)
{
    for (const char* repo : {"pytorch/crcr-test", "TorchedHat/pytorch-redhat-ci"}) {
        const auto results = goodResults();
        VerdictInput in = inputFor(results);
        in.run.downstreamRepo = repo;
        in.run.reported.tests = TestCounts{3, 3, 0, 0}; // three checks passed
        const RunVerdict v = computeVerdict(in, results);
        EXPECT_EQ(checkOf(v, CheckKind::Counts).state, CheckState::NotCheckable) << repo;
        EXPECT_NE(checkOf(v, CheckKind::Counts).sentence.find("not test cases"), std::string::npos)
            << checkOf(v, CheckKind::Counts).sentence;
        EXPECT_NE(v.verdict, Verdict::GreenDisputed) << repo;
        EXPECT_EQ(joined(v.reasons).find("counts disagree"), std::string::npos);
    }
    // torch-spyre's counts are JUnit cases: compared, and disputed when they differ.
    const auto results = goodResults();
    VerdictInput spyre = inputFor(results);
    spyre.run.downstreamRepo = "torch-spyre/torch-spyre";
    spyre.run.reported.tests->total += 1;
    EXPECT_EQ(checkOf(computeVerdict(spyre, results), CheckKind::Counts).state, CheckState::Fail);
}

TEST(Verdict, RedWithoutArtifactsNamesWhatTheCountsCount)
{
    VerdictInput in = inputFor({});
    in.testRun.reset();
    in.run.downstreamRepo = "pytorch/crcr-test";
    in.run.reported.conclusion = Conclusion::Failure;
    in.run.reported.tests = TestCounts{4, 3, 1, 0};
    const RunVerdict v = computeVerdict(in, {});
    EXPECT_NE(joined(v.reasons).find("1 failed of 4 health checks"), std::string::npos)
        << joined(v.reasons);
}

TEST(Verdict, WrongTestedShaIsDisputed)
{
    const auto results = goodResults();
    VerdictInput in = inputFor(results);
    in.testedSha = Sha{"2222222222222222222222222222222222222222"};
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenDisputed);
    EXPECT_EQ(checkOf(v, CheckKind::TestedSha).state, CheckState::Fail);
    EXPECT_EQ(v.shortReason, "tested another SHA");
}

TEST(Verdict, StrictXfailThatPassedIsDisputed)
{
    auto results = goodResults();
    results[5].outcome = TestOutcome::Passed; // test_sub, xfail_strict
    const RunVerdict v = computeVerdict(inputFor(results), results);
    EXPECT_EQ(v.verdict, Verdict::GreenDisputed);
    ASSERT_EQ(v.configCoverage->strictXpassed.size(), 1u);
    EXPECT_EQ(v.configCoverage->strictXpassed[0], results[5].identity);
    EXPECT_EQ(v.configCoverage->bucket(Bucket::XfailStrict).unexpected, 1);
    EXPECT_EQ(v.shortReason, "xfail_strict tests passed");
}

TEST(Verdict, NoArtifactsIsUnverifiable)
{
    const auto results = goodResults();
    VerdictInput in = inputFor(results);
    in.testRun.reset();
    const RunVerdict v = computeVerdict(in, {});
    EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable);
    EXPECT_EQ(checkOf(v, CheckKind::Artifacts).state, CheckState::Fail);
    EXPECT_NE(v.reasons.front().find("not been fetched"), std::string::npos) << v.reasons.front();
    EXPECT_EQ(v.shortReason, "artifacts not fetched");
    EXPECT_FALSE(v.configCoverage);
}

TEST(Verdict, ExpiredNoReportsAndFailedFetchesAreUnverifiable)
{
    for (TestRunState state : {TestRunState::Expired, TestRunState::NoReports,
                               TestRunState::Unauthorized, TestRunState::Failed}) {
        VerdictInput in = inputFor(goodResults());
        in.testRun->state = state;
        in.testRun->message = "HTTP 410";
        in.testRun->totals = {};
        const RunVerdict v = computeVerdict(in, {});
        EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable) << testRunStateName(state);
        EXPECT_NE(v.reasons.front().find(testRunStateName(state)), std::string::npos)
            << v.reasons.front();
        EXPECT_EQ(v.shortReason, std::string("no test results (") + testRunStateName(state) + ")");
        EXPECT_EQ(checkOf(v, CheckKind::Counts).state, CheckState::NotCheckable);
    }
}

TEST(Verdict, StoredRunWithoutCasesIsUnverifiable)
{
    VerdictInput in = inputFor({});
    in.run.reported.tests.reset();
    const RunVerdict v = computeVerdict(in, {});
    EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable);
    EXPECT_NE(v.reasons.front().find("no test case"), std::string::npos);
    EXPECT_EQ(v.shortReason, "no test case in the artifacts");
}

TEST(Verdict, NoConfigIsUnverifiableNeverVerified)
{
    const auto results = goodResults();
    VerdictInput in = inputFor(results);
    in.config = {};
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable);
    EXPECT_NE(joined(v.reasons).find("no outcome config is set for torch-spyre/torch-spyre"),
              std::string::npos);
    EXPECT_EQ(v.shortReason, "no outcome config");
    EXPECT_FALSE(v.configCoverage);
    EXPECT_FALSE(v.coverage.ops.empty()); // op x dtype coverage needs no config
}

TEST(Verdict, ConfigThatDoesNotParseIsUnverifiable)
{
    testing::ScratchDir dir("verdict");
    const std::string broken = dir.write("broken.yaml", "test_suite_config:\n  files: [\n");
    const RunConfig config = loadRunConfig(broken);
    EXPECT_FALSE(config.config);
    EXPECT_FALSE(config.error.empty());
    const std::string badMode =
        dir.write("mode.yaml", std::string(kConfigText)
                                   .replace(std::string(kConfigText).find("mode: xfail_strict"), 18,
                                            "mode: xfial_strict"));
    const RunConfig withError = loadRunConfig(badMode);
    EXPECT_FALSE(withError.config);
    EXPECT_NE(withError.error.find("xfial_strict"), std::string::npos) << withError.error;
    const RunConfig missing = loadRunConfig(dir.file("absent.yaml"));
    EXPECT_FALSE(missing.config);
    EXPECT_FALSE(missing.error.empty());

    const auto results = goodResults();
    for (const RunConfig& c : {config, withError, missing}) {
        VerdictInput in = inputFor(results);
        in.config = c;
        const RunVerdict v = computeVerdict(in, results);
        EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable) << c.source;
        EXPECT_NE(joined(v.reasons).find("does not parse"), std::string::npos);
        EXPECT_EQ(v.shortReason, "outcome config does not parse");
    }
}

// A loaded config remembers what each test resolved to (its runs repeat their
// tests), by test id; a result whose test differs under the same id (another
// cache, marks a later report changed) is resolved again, never taken from it.
TEST(Verdict, CoverageRemembersResolutionsOnlyForTheSameTest)
{
    RunConfig loaded;
    loaded.set(parsedConfig());
    const auto results = goodResults();
    const ConfigCoverage fresh = configCoverage(*loaded.config, results);
    for (int pass = 0; pass < 2; ++pass) {
        const ConfigCoverage remembered = configCoverage(loaded, results);
        EXPECT_EQ(remembered.unknown.size(), fresh.unknown.size());
        EXPECT_EQ(remembered.mandatoryNotRun.size(), fresh.mandatoryNotRun.size());
        EXPECT_EQ(remembered.unlistedRan, fresh.unlistedRan);
        for (std::size_t b = 0; b < fresh.buckets.size(); ++b)
            EXPECT_EQ(remembered.buckets[b].ran, fresh.buckets[b].ran) << b;
    }
    // The same ids, other tests: an unlisted method and a dtype the config drops.
    std::vector<StoredTestResult> other = results;
    other[0].name = "test_other_add_spyre_float16";
    other[0].identity = other[0].file + "::" + other[0].className + "::" + other[0].name;
    other[1].marks = "op__add,dtype__int64";
    other[1].name = "test_add_add_spyre_int64";
    other[1].identity = other[1].file + "::" + other[1].className + "::" + other[1].name;
    const ConfigCoverage expected = configCoverage(*loaded.config, other);
    const ConfigCoverage got = configCoverage(loaded, other);
    EXPECT_EQ(got.unlistedRan, expected.unlistedRan);
    ASSERT_EQ(got.unknown.size(), expected.unknown.size());
    for (std::size_t i = 0; i < got.unknown.size(); ++i)
        EXPECT_EQ(got.unknown[i].why, expected.unknown[i].why);
    EXPECT_NE(got.unknown.size() + got.unlistedRan.size(),
              fresh.unknown.size() + fresh.unlistedRan.size());
}

// A test the config does not account for, and the reason it is unknown.
struct UnknownTest {
    const char* name; // the test's
    StoredTestResult extra;
    const char* why;
};

class VerdictUnknown : public ::testing::TestWithParam<UnknownTest> {};

TEST_P(VerdictUnknown, MakesTheGreenUnverifiable)
{
    const UnknownTest& c = GetParam();
    auto results = goodResults();
    results.push_back(c.extra);
    const RunVerdict v = computeVerdict(inputFor(results), results);
    EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable) << c.why;
    EXPECT_EQ(v.shortReason, "tests the config does not account for");
    ASSERT_EQ(v.configCoverage->unknown.size(), 1u) << c.why;
    EXPECT_EQ(v.configCoverage->unknown[0].identity, c.extra.identity);
    EXPECT_NE(v.configCoverage->unknown[0].why.find(c.why), std::string::npos)
        << v.configCoverage->unknown[0].why;
}

INSTANTIATE_TEST_SUITE_P(
    Verdict, VerdictUnknown,
    ::testing::Values(
        UnknownTest{"AFileWithoutEntry",
                    result("test_add", "add", "float16", TestOutcome::Passed, "test/test_nn.py"),
                    "no files entry"},
        UnknownTest{"ASkippedTest", result("test_pow", "", "float16"), "skips it"},
        UnknownTest{"ADeletedVariant", result("test_add", "add", "int64"), "deletes this variant"}),
    [](const ::testing::TestParamInfo<UnknownTest>& test) { return std::string(test.param.name); });

TEST(Verdict, UnlistedTestUnderUnlistedModeSkipIsUnknown)
{
    std::string text = kConfigText;
    text.replace(text.find("unlisted_test_mode: xfail"), 25, "unlisted_test_mode: skip");
    VerdictInput in = inputFor(goodResults());
    in.config.set(parsedConfig(text));
    auto results = goodResults();
    results.push_back(result("test_other", "add", "float16"));
    in.testRun->totals = totalsOf(results);
    in.run.reported.tests = honestCounts(results);
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenUnverifiable);
    ASSERT_EQ(v.configCoverage->unknown.size(), 1u);
    EXPECT_NE(v.configCoverage->unknown[0].why.find("unlisted_test_mode is skip"),
              std::string::npos);
}

TEST(Verdict, ShrinkingExecutedSetWithoutConfigChangeIsIncomplete)
{
    const auto results = goodResults();
    VerdictInput in = inputFor(results);
    in.previousExecuted = 10; // 6 now: 40% fewer
    RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::GreenIncomplete);
    EXPECT_EQ(v.shortReason, "executed set shrank");
    EXPECT_NE(checkOf(v, CheckKind::ExecutedSet).sentence.find("shrank 40%"), std::string::npos)
        << checkOf(v, CheckKind::ExecutedSet).sentence;
    in.configChanged = true;
    v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::VerifiedGreen);
    in.configChanged = std::nullopt;
    in.previousExecuted = 6; // within the threshold
    EXPECT_EQ(computeVerdict(in, results).verdict, Verdict::VerifiedGreen);
    in.shrinkThreshold = 0.5;
    in.previousExecuted = 10;
    EXPECT_EQ(computeVerdict(in, results).verdict, Verdict::VerifiedGreen);
}

TEST(Verdict, RedCarriesTheArtifactCounts)
{
    auto results = goodResults();
    results[0].outcome = TestOutcome::Failed;
    results[2].outcome = TestOutcome::Error;
    VerdictInput in = inputFor(results);
    in.run.reported.conclusion = Conclusion::Failure;
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::Red);
    EXPECT_EQ(v.reasons.front(),
              "failure: 1 failed, 1 errors, 0 strict xpasses of 6 cases (artifacts)");
    EXPECT_EQ(v.shortReason, ""); // only an unverified green has one
}

TEST(Verdict, RedWithoutArtifactsUsesSelfReportedCounts)
{
    VerdictInput in = inputFor(goodResults());
    in.testRun.reset();
    in.run.reported.conclusion = Conclusion::TimedOut;
    in.run.reported.tests = TestCounts{50, 40, 3, 7};
    RunVerdict v = computeVerdict(in, {});
    EXPECT_EQ(v.verdict, Verdict::Red);
    EXPECT_EQ(v.reasons.front(),
              "timed_out: 3 failed of 50 test cases (self-reported; no artifacts)");
    in.run.reported.tests.reset();
    EXPECT_EQ(computeVerdict(in, {}).reasons.front(), "timed_out (no test counts)");
}

TEST(Verdict, RedWithPassingArtifactsPointsOutsideTheTests)
{
    const auto results = goodResults();
    VerdictInput in = inputFor(results);
    in.run.reported.conclusion = Conclusion::Failure;
    const RunVerdict v = computeVerdict(in, results);
    EXPECT_EQ(v.verdict, Verdict::Red);
    EXPECT_NE(v.reasons.front().find("outside the tests"), std::string::npos);
}

TEST(Verdict, CancelledPendingAndStale)
{
    VerdictInput in = inputFor(goodResults());
    in.run.reported.conclusion = Conclusion::Cancelled;
    EXPECT_EQ(computeVerdict(in, {}).verdict, Verdict::Inconclusive);
    in.run.reported.conclusion = Conclusion::None;
    EXPECT_NE(computeVerdict(in, {}).reasons.front().find("conclusion none"), std::string::npos);

    in.run.reported.status = RunStatus::InProgress;
    in.run.reported.startedAt = kNow - 600;
    in.run.reported.completedAt.reset();
    RunVerdict v = computeVerdict(in, {});
    EXPECT_EQ(v.verdict, Verdict::Pending);
    EXPECT_EQ(checkOf(v, CheckKind::NotStale).state, CheckState::Pass);

    in.run.reported.startedAt = kNow - kStaleAfterSeconds - 3600;
    v = computeVerdict(in, {});
    EXPECT_EQ(v.verdict, Verdict::Stale);
    EXPECT_EQ(checkOf(v, CheckKind::NotStale).state, CheckState::Fail);
    EXPECT_NE(v.reasons.front().find("7 h"), std::string::npos) << v.reasons.front();
}

TEST(Verdict, OpDtypeCoverageCountsAgainstSupportedLists)
{
    auto results = goodResults();
    results.push_back(result("test_add", "add", "float16", TestOutcome::Failed));
    results.push_back(result("test_add", "add", "bfloat16"));
    results.push_back(result("test_add", "add", "float32", TestOutcome::Skipped));
    results.push_back(result("test_misc", "", ""));
    results.push_back(result("test_sum", "sum", ""));
    const config::OutcomeConfig config = parsedConfig();
    const OpDtypeCoverage c = opDtypeCoverage(&config, results);
    ASSERT_EQ(c.ops.size(), 6u); // add div mul scan sub sum
    EXPECT_EQ(c.ops[0].name, "add");
    EXPECT_EQ(c.ops[0].tally.ran, 4); // the skipped case does not count as run
    EXPECT_EQ(c.ops[0].tally.passed, 3);
    EXPECT_EQ(c.ops[0].tally.failed, 1);
    EXPECT_TRUE(c.ops[0].supported);
    EXPECT_EQ(c.opsNotSupported, std::vector<std::string>{"sum"});
    EXPECT_TRUE(c.opsNeverRan.empty());
    EXPECT_EQ(c.dtypesNotSupported, std::vector<std::string>{"bfloat16"});
    EXPECT_TRUE(c.dtypesNeverRan.empty());
    EXPECT_EQ(c.unmarkedCases, 1);
    const auto cell = std::find_if(c.cells.begin(), c.cells.end(), [](const OpDtypeCell& x) {
        return x.op == "add" && x.dtype == "float16";
    });
    ASSERT_NE(cell, c.cells.end());
    EXPECT_EQ(cell->tally.ran, 2);
    EXPECT_EQ(cell->tally.failed, 1);
    EXPECT_TRUE(std::any_of(c.cells.begin(), c.cells.end(),
                            [](const OpDtypeCell& x) { return x.op == "sum" && x.dtype.empty(); }));

    const std::vector<StoredTestResult> onlyAdd = {result("test_add", "add", "float16")};
    const OpDtypeCoverage narrow = opDtypeCoverage(&config, onlyAdd);
    EXPECT_EQ(narrow.opsNeverRan, (std::vector<std::string>{"div", "mul", "scan", "sub"}));
    EXPECT_EQ(narrow.dtypesNeverRan, std::vector<std::string>{"float32"});
    const OpDtypeCoverage noConfig = opDtypeCoverage(nullptr, onlyAdd);
    EXPECT_FALSE(noConfig.hasSupportedLists);
    EXPECT_TRUE(noConfig.opsNeverRan.empty());
}

// --- verdictForRun over a real cache ---

class VerdictCacheTest : public ::testing::Test {
protected:
    CheckRunRow storeRun(const std::string& sha, EpochSeconds time,
                         const std::vector<StoredTestResult>& results)
    {
        CheckRun run =
            relayhud::testing::completedRun(sha, "test (default)", 1, Conclusion::Success, time);
        run.reported.tests = honestCounts(results);
        const CheckRunRow row = relayhud::testing::addRun(*m_cache, run, time);
        auto writer = TestResultStore(*m_cache).beginTestRun(
            {row, TestRunSource::Artifacts, "default.xml", ""});
        EXPECT_TRUE(writer);
        for (const StoredTestResult& r : results) {
            TestCaseResult c = relayhud::testing::makeCase(r.className, r.name, r.outcome);
            c.file = r.file;
            c.identity = r.identity;
            c.baseName = r.baseName;
            for (const std::string& m : {std::string("op"), std::string("dtype")}) {
                const std::size_t at = r.marks.find(m + "__");
                if (at != std::string::npos)
                    c.marks.items.push_back(
                        {m == "op" ? MarkKind::Op : MarkKind::Dtype,
                         r.marks.substr(at + m.size() + 2,
                                        r.marks.find(',', at) - at - m.size() - 2)});
            }
            EXPECT_TRUE((*writer)->add(c));
        }
        EXPECT_TRUE((*writer)->commit(totalsOf(results)));
        return row;
    }

    relayhud::testing::TestCache m_cache = relayhud::testing::openCacheOk(":memory:");
    testing::ScratchDir m_dir{"verdict-cache"};
};

TEST_F(VerdictCacheTest, VerifiesARunWithItsConfigAndPreviousRun)
{
    const auto results = goodResults();
    std::vector<StoredTestResult> bigger = results; // the previous SHA ran one case more
    bigger.push_back(result("test_div", "div", "float32", TestOutcome::XFailed));
    storeRun("aaaa", kNow - 7200, bigger);
    const CheckRunRow row = storeRun("bbbb", kNow - 3600, results);
    VerdictSources sources;
    sources.now = kNow;
    sources.configByRepo["torch-spyre/torch-spyre"] = m_dir.write("ops.yaml", kConfigText);
    auto v = verdictForRun(*m_cache, row, sources);
    ASSERT_TRUE(v) << v.message();
    EXPECT_EQ(v->checkRunRow, row);
    EXPECT_EQ(v->executed, 6);
    // 7 -> 6 is a 14% shrink, over the 10% threshold, with no known config change.
    EXPECT_EQ(checkOf(*v, CheckKind::ExecutedSet).state, CheckState::Fail)
        << checkOf(*v, CheckKind::ExecutedSet).sentence;
    EXPECT_EQ(v->verdict, Verdict::GreenIncomplete);
    sources.shrinkThreshold = 0.2;
    v = verdictForRun(*m_cache, row, sources);
    ASSERT_TRUE(v);
    EXPECT_EQ(v->verdict, Verdict::VerifiedGreen) << joined(v->reasons);
    EXPECT_EQ(checkOf(*v, CheckKind::ExecutedSet).state, CheckState::Pass);
}

TEST_F(VerdictCacheTest, RunWithoutConfigOrArtifacts)
{
    const CheckRunRow row = storeRun("cccc", kNow - 3600, goodResults());
    auto v = verdictForRun(*m_cache, row, {});
    ASSERT_TRUE(v) << v.message();
    EXPECT_EQ(v->verdict, Verdict::GreenUnverifiable);
    EXPECT_NE(joined(v->reasons).find("no outcome config"), std::string::npos);

    CheckRun bare = relayhud::testing::completedRun("dddd", "test (default)", 1,
                                                    Conclusion::Success, kNow - 600);
    const CheckRunRow bareRow = relayhud::testing::addRun(*m_cache, bare, kNow - 600);
    ASSERT_TRUE(TestResultStore(*m_cache).recordTestRunState(
        {bareRow, TestRunSource::Artifacts, "", ""}, TestRunState::Expired, "HTTP 410 Gone"));
    VerdictSources sources;
    sources.configByRepo["torch-spyre/torch-spyre"] = m_dir.write("ops.yaml", kConfigText);
    v = verdictForRun(*m_cache, bareRow, sources);
    ASSERT_TRUE(v) << v.message();
    EXPECT_EQ(v->verdict, Verdict::GreenUnverifiable);
    EXPECT_NE(v->reasons.front().find("expired (HTTP 410 Gone)"), std::string::npos)
        << v->reasons.front();
}

TEST_F(VerdictCacheTest, UnknownRowIsAnError)
{
    auto v = verdictForRun(*m_cache, CheckRunRow{12345}, {});
    ASSERT_FALSE(v);
    EXPECT_FALSE(v.message().empty());
}

} // namespace
} // namespace relayhud::verdict
