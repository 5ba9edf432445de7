// The JUnit reader on real reports (shared/corpus/junit) and on hand-written
// torch-spyre-shaped ones (tests/data/junit). Hostile input is in
// junit_hostile_input_test.cpp.
#include "relayhud/junit/junit_reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

using namespace relayhud;

namespace {

using Views = std::vector<std::string_view>;

std::string corpusFile(const std::string& name)
{
    return std::string(RELAYHUD_CORPUS_DIR) + "/junit/" + name;
}

std::string dataFile(const std::string& name)
{
    return std::string(RELAYHUD_TEST_DATA_DIR) + "/junit/" + name;
}

JunitReport readPathOk(const std::string& path)
{
    Result<JunitReport> report = readJunitFile(path);
    EXPECT_TRUE(report) << report.message();
    return report ? std::move(report).value() : JunitReport{};
}

const TestCaseResult& caseNamed(const JunitReport& report, const std::string& name)
{
    const auto it = std::find_if(report.cases.begin(), report.cases.end(),
                                 [&](const TestCaseResult& c) { return c.name == name; });
    EXPECT_NE(it, report.cases.end()) << name;
    static const TestCaseResult none;
    return it == report.cases.end() ? none : *it;
}

// What each corpus file holds, counted independently (Python's ElementTree)
// when the corpus was added.
struct CorpusExpectation {
    std::string file;
    std::size_t cases, passed, failed, error, skipped, xfailed;
};

const std::vector<CorpusExpectation> kCorpus = {
    {"EnricoMi__publish-unit-test-result-action__python__test__files__junit-xml__pytest__junit."
     "fail.xml",
     5, 3, 1, 0, 1, 0},
    {"EnricoMi__publish-unit-test-result-action__python__test__files__junit-xml__pytest__junit."
     "gloo.elastic.spark.tf.xml",
     22, 20, 0, 0, 2, 0},
    {"EnricoMi__publish-unit-test-result-action__python__test__files__junit-xml__pytest__junit."
     "gloo.static.xml",
     24, 12, 0, 0, 12, 0},
    {"dorny__test-reporter____tests____fixtures__python-xunit-pytest.xml", 10, 6, 2, 0, 1, 1},
    {"mikepenz__action-junit-report__test_results__python__report.xml", 3, 1, 2, 0, 0, 0},
    {"numpy_multiarray_runxfail_strict.xml", 3159, 3136, 6, 0, 17, 0},
    {"numpy_umath_ufunc.xml", 4883, 4861, 0, 0, 15, 7},
};

} // namespace

TEST(JunitCorpus, EveryFileParsesWithTheOutcomesItHolds)
{
    for (const CorpusExpectation& e : kCorpus) {
        SCOPED_TRACE(e.file);
        const JunitReport report = readPathOk(corpusFile(e.file));
        EXPECT_FALSE(report.parseBreak);
        EXPECT_EQ(report.cases.size(), e.cases);
        EXPECT_EQ(report.count(TestOutcome::Passed), e.passed);
        EXPECT_EQ(report.count(TestOutcome::Failed), e.failed);
        EXPECT_EQ(report.count(TestOutcome::Error), e.error);
        EXPECT_EQ(report.count(TestOutcome::Skipped), e.skipped);
        EXPECT_EQ(report.count(TestOutcome::XFailed), e.xfailed);
        EXPECT_EQ(report.count(TestOutcome::XPassStrict), 0U);
    }
}

// pytest's attributes: failures = failed + strict XPASS, errors = errors,
// skipped = skipped + xfailed (an xfail is a <skipped type="pytest.xfail">).
TEST(JunitCorpus, OutcomesMapOntoTheFilesOwnTotals)
{
    for (const CorpusExpectation& e : kCorpus) {
        SCOPED_TRACE(e.file);
        const JunitReport report = readPathOk(corpusFile(e.file));
        EXPECT_EQ(report.declared.failures,
                  report.count(TestOutcome::Failed) + report.count(TestOutcome::XPassStrict));
        EXPECT_EQ(report.declared.errors, report.count(TestOutcome::Error));
        EXPECT_EQ(report.declared.skipped,
                  report.count(TestOutcome::Skipped) + report.count(TestOutcome::XFailed));
        EXPECT_EQ(report.counted.failures, report.declared.failures);
        EXPECT_EQ(report.counted.errors, report.declared.errors);
        EXPECT_EQ(report.counted.skipped, report.declared.skipped);
    }
}

TEST(JunitCorpus, TestCountsMatchExceptWhereTheFileItselfDisagrees)
{
    for (const CorpusExpectation& e : kCorpus) {
        SCOPED_TRACE(e.file);
        const JunitReport report = readPathOk(corpusFile(e.file));
        if (e.file.rfind("dorny", 0) == 0) {
            // This file declares tests="15" over 10 <testcase> elements.
            EXPECT_EQ(report.declared.tests, 15U);
            ASSERT_EQ(report.warnings.size(), 1U);
            EXPECT_NE(report.warnings[0].find("declares 15 tests"), std::string::npos);
            EXPECT_NE(report.warnings[0].find("add up to 10 tests"), std::string::npos);
            continue;
        }
        EXPECT_EQ(report.declared.tests, report.cases.size());
        EXPECT_TRUE(report.warnings.empty());
    }
}

TEST(JunitCorpus, RunxfailStrictFailuresAreRealFailuresNotStrictXPasses)
{
    // --runxfail ignores xfail marks, so these fail for real; none says XPASS.
    const JunitReport report = readPathOk(corpusFile("numpy_multiarray_runxfail_strict.xml"));
    std::size_t failed = 0;
    for (const TestCaseResult& c : report.cases) {
        if (c.outcome != TestOutcome::Failed)
            continue;
        ++failed;
        EXPECT_EQ(c.message.text.find("XPASS"), std::string::npos) << c.identity;
        EXPECT_FALSE(c.traceback.text.empty()) << c.identity;
    }
    EXPECT_EQ(failed, 6U);
}

TEST(JunitCorpus, IdentityFollowsPytestNodeIds)
{
    const JunitReport numpy = readPathOk(corpusFile("numpy_umath_ufunc.xml"));
    ASSERT_FALSE(numpy.cases.empty());
    EXPECT_EQ(numpy.cases[0].identity, "numpy/core/tests/test_umath.py::TestConstants::test_pi");
    EXPECT_EQ(numpy.cases[0].baseName, "TestConstants::test_pi");
    const JunitReport dorny = readPathOk(
        corpusFile("dorny__test-reporter____tests____fixtures__python-xunit-pytest.xml"));
    const TestCaseResult& param = caseNamed(dorny, "test_parameterized[param1]");
    EXPECT_EQ(param.identity, "tests/test_lib.py::test_parameterized[param1]");
    EXPECT_EQ(param.className, "");
    const TestCaseResult& xfail = caseNamed(dorny, "test_expected_failure");
    EXPECT_EQ(xfail.outcome, TestOutcome::XFailed);
}

TEST(JunitCorpus, MessagesKeepEscapedNewlinesAndTracebacks)
{
    const JunitReport report =
        readPathOk(corpusFile("mikepenz__action-junit-report__test_results__python__report.xml"));
    const TestCaseResult& failed = caseNamed(report, "test_which_fails");
    EXPECT_EQ(failed.outcome, TestOutcome::Failed);
    EXPECT_EQ(failed.message.text, "AssertionError: assert 'test' == 'xyz'\n  - xyz\n  + test");
    EXPECT_NE(failed.traceback.text.find("python/test_sample.py:10: AssertionError"),
              std::string::npos);
    EXPECT_FALSE(failed.message.cut);
    EXPECT_EQ(failed.message.fullBytes, failed.message.text.size());
    EXPECT_DOUBLE_EQ(failed.durationSeconds, 0.001);
}

TEST(JunitTorchSpyre, OutcomesMarksAndRetries)
{
    const JunitReport report = readPathOk(dataFile("torch_spyre_upstream.xml"));
    ASSERT_EQ(report.cases.size(), 8U);
    EXPECT_EQ(report.declared, report.counted);
    EXPECT_TRUE(report.warnings.empty());

    const TestCaseResult& add = caseNamed(report, "test_contig_vs_transposed_add_spyre_float16");
    EXPECT_EQ(add.outcome, TestOutcome::Passed);
    EXPECT_EQ(add.identity, "test_binary_ufuncs.py::TestBinaryUfuncsPRIVATEUSE1::"
                            "test_contig_vs_transposed_add_spyre_float16");
    EXPECT_EQ(add.baseName, "TestBinaryUfuncs::test_contig_vs_transposed");
    EXPECT_EQ(add.marks.values(MarkKind::Op), Views{"add"});
    EXPECT_EQ(add.marks.values(MarkKind::Dtype), Views{"float16"});
    EXPECT_EQ(add.marks.values(MarkKind::Platform), Views{"x86_64"});
    EXPECT_EQ(add.marks.values(MarkKind::TestType), (Views{"upstream", "regression"}));
    EXPECT_EQ(add.line, 412);
    EXPECT_DOUBLE_EQ(add.durationSeconds, 1.532);
    EXPECT_EQ(add.retried, "");

    const TestCaseResult& mul = caseNamed(report, "test_contig_vs_transposed_mul_spyre_bfloat16");
    EXPECT_EQ(mul.outcome, TestOutcome::Failed);
    EXPECT_EQ(mul.retried, "pod");
    EXPECT_EQ(mul.baseName, "TestBinaryUfuncs::test_contig_vs_transposed");
    EXPECT_EQ(mul.message.text,
              "AssertionError: Tensor-likes are not close!\n\nMismatched elements: 3 / 64 (4.7%)");
    EXPECT_EQ(mul.traceback.text.rfind("Traceback (most recent call last):", 0), 0U);

    const TestCaseResult& xfail = caseNamed(report, "test_transposes_errors_spyre_int64");
    EXPECT_EQ(xfail.outcome, TestOutcome::XFailed);
    EXPECT_EQ(xfail.baseName, "TestOldViewOps::test_transposes_errors");
    EXPECT_NE(xfail.message.text.find("issues/549"), std::string::npos);

    const TestCaseResult& strict = caseNamed(report, "test_unbind_spyre");
    EXPECT_EQ(strict.outcome, TestOutcome::XPassStrict);
    EXPECT_EQ(strict.baseName, "TestViewOps::test_unbind");

    const TestCaseResult& setup = caseNamed(report, "test_conj_self_spyre_bfloat16");
    EXPECT_EQ(setup.outcome, TestOutcome::Error);
    EXPECT_EQ(setup.retried, "stall");
    EXPECT_EQ(setup.message.text,
              "failed on setup with \"RuntimeError: device spyre:0 is not responding\"");

    const TestCaseResult& linear = caseNamed(report, "test_Linear_spyre_float16");
    EXPECT_EQ(linear.outcome, TestOutcome::Skipped);
    EXPECT_EQ(linear.marks.values(MarkKind::Module), Views{"Linear"});
    EXPECT_EQ(linear.marks.values(MarkKind::Model), Views{"granite-3.3-8b"});
    EXPECT_EQ(linear.marks.values(MarkKind::Other), Views{"torch-spyre"});
    EXPECT_EQ(linear.baseName, "TestNNDeviceType::test_Linear");

    EXPECT_EQ(caseNamed(report, "test_contiguous_spyre").outcome, TestOutcome::Passed);
    EXPECT_EQ(report.count(TestOutcome::Passed), 3U);
}

TEST(JunitShapes, SeveralSuitesAreSummed)
{
    const JunitReport report = readPathOk(dataFile("two_shards.xml"));
    EXPECT_EQ(report.suiteCount, 2U);
    EXPECT_EQ(report.declared, (JunitTotals{5, 2, 1, 1}));
    EXPECT_EQ(report.declared, report.counted);
    EXPECT_TRUE(report.warnings.empty());
    EXPECT_EQ(report.count(TestOutcome::Passed), 2U);
    EXPECT_EQ(report.count(TestOutcome::XPassStrict), 1U);
    EXPECT_EQ(report.count(TestOutcome::Failed), 1U);
    EXPECT_EQ(report.count(TestOutcome::Skipped), 1U);
    // Failed in the call, then errored in teardown: a failure first of all,
    // counted by pytest in both failures and errors.
    const TestCaseResult& both = caseNamed(report, "test_is_signed_spyre");
    EXPECT_EQ(both.outcome, TestOutcome::Failed);
    EXPECT_EQ(both.message.text, "AssertionError: False is not true");
    EXPECT_EQ(both.baseName, "TestTorchDeviceType::test_is_signed");
}

TEST(JunitShapes, BareTestsuiteRoot)
{
    const JunitReport report = readPathOk(dataFile("bare_testsuite.xml"));
    EXPECT_EQ(report.suiteCount, 1U);
    ASSERT_EQ(report.cases.size(), 2U);
    EXPECT_EQ(report.declared, report.counted);
    EXPECT_EQ(report.cases[0].baseName, "TestUnaryUfuncs::test_float_domains_acos");
    EXPECT_EQ(report.cases[1].outcome, TestOutcome::XFailed);
    EXPECT_EQ(report.cases[1].file, "test_unary_ufuncs.py");
}

TEST(JunitShapes, FileAndBufferReadTheSame)
{
    const std::string path = dataFile("torch_spyre_upstream.xml");
    const JunitReport fromFile = readPathOk(path);
    std::ifstream in(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Result<JunitReport> fromBuffer = readJunitBuffer(bytes);
    ASSERT_TRUE(fromBuffer) << fromBuffer.message();
    ASSERT_EQ(fromBuffer->cases.size(), fromFile.cases.size());
    for (std::size_t i = 0; i < fromFile.cases.size(); ++i) {
        EXPECT_EQ(fromBuffer->cases[i].identity, fromFile.cases[i].identity);
        EXPECT_EQ(fromBuffer->cases[i].outcome, fromFile.cases[i].outcome);
    }
}

TEST(JunitShapes, BaseNamesUseTheConfiguredDevice)
{
    JunitReadOptions options;
    options.baseNames.privateUse1Device = "npu";
    const char* xml =
        R"(<testsuite tests="1"><testcase classname="test_view_ops.TestViewOpsPRIVATEUSE1"
        name="test_unbind_npu"/></testsuite>)";
    Result<JunitReport> report = readJunitBuffer(xml, options);
    ASSERT_TRUE(report) << report.message();
    ASSERT_EQ(report->cases.size(), 1U);
    EXPECT_EQ(report->cases[0].baseName, "TestViewOps::test_unbind");
}

TEST(JunitShapes, StreamingHandsOverEveryCaseAndKeepsNone)
{
    const std::string path = corpusFile("numpy_umath_ufunc.xml");
    const JunitReport kept = readPathOk(path);
    JunitReadOptions options;
    std::vector<std::string> identities;
    std::size_t xfailed = 0;
    options.onCase = [&](const TestCaseResult& c) {
        identities.push_back(c.identity);
        xfailed += c.outcome == TestOutcome::XFailed ? 1 : 0;
    };
    Result<JunitReport> streamed = readJunitFile(path, options);
    ASSERT_TRUE(streamed) << streamed.message();
    EXPECT_TRUE(streamed->cases.empty());
    EXPECT_EQ(streamed->counted, kept.counted);
    EXPECT_EQ(streamed->outcomes, kept.outcomes);
    EXPECT_EQ(xfailed, 7U);
    ASSERT_EQ(identities.size(), kept.cases.size());
    for (std::size_t i = 0; i < identities.size(); ++i)
        EXPECT_EQ(identities[i], kept.cases[i].identity);
}

// Cases of many classes interleaved (pytest-xdist workers, merged shards):
// each case's file and class are its own, the same classname under two
// `file` attributes is split by each, and a report of more classes than the
// reader remembers at once (4,096) reads the same.
TEST(JunitShapes, InterleavedClassesEachKeepTheirOwnFileAndClass)
{
    constexpr int kClasses = 5000;
    std::string xml = "<testsuite>";
    for (int round = 0; round < 2; ++round) {
        for (int k = 0; k < kClasses; ++k) {
            const std::string module = "test_m" + std::to_string(k % 7);
            xml += "<testcase classname=\"" + module + ".TestC" + std::to_string(k) + "\" file=\""
                   + module + ".py\" name=\"test_" + std::to_string(round) + "\"/>";
        }
    }
    // One classname, two files: the second file does not name the module, so
    // the split follows the classname (test_identity.h).
    xml += R"(<testcase classname="test_a.TestX" file="test_a.py" name="test_1"/>)"
           R"(<testcase classname="test_a.TestX" file="mixins.py" name="test_2"/>)"
           R"(<testcase classname="test_a.TestX" file="" name="test_3"/></testsuite>)";
    Result<JunitReport> report = readJunitBuffer(xml);
    ASSERT_TRUE(report) << report.message();
    ASSERT_EQ(report->cases.size(), 2U * kClasses + 3U);
    for (int round = 0; round < 2; ++round) {
        for (int k = 0; k < kClasses; k += 499) {
            const TestCaseResult& c = report->cases[static_cast<std::size_t>(round * kClasses + k)];
            EXPECT_EQ(c.file, "test_m" + std::to_string(k % 7) + ".py");
            EXPECT_EQ(c.className, "TestC" + std::to_string(k));
            EXPECT_EQ(c.identity, c.file + "::" + c.className + "::test_" + std::to_string(round));
        }
    }
    const auto last = report->cases.end() - 3;
    for (int i = 0; i < 3; ++i) {
        EXPECT_EQ(last[i].file, "test_a.py") << i;
        EXPECT_EQ(last[i].className, "TestX") << i;
    }
}

// A property's name and value are read in one walk of its attributes: the
// first of each counts, in any order, and one without a name is ignored.
TEST(JunitShapes, PropertiesReadTheirFirstNameAndValueInAnyOrder)
{
    const char* xml = R"(<testsuite><testcase classname="test_ops.TestOpsPRIVATEUSE1"
        name="test_x_spyre_float16"><properties>
        <property value="op__add" name="tag"/>
        <property name="tag" value="dtype__float16" value="dtype__int8"/>
        <property value="op__sub"/>
        <property name="retried" value="2"/>
        <other name="tag" value="op__mul"/>
        </properties></testcase></testsuite>)";
    Result<JunitReport> report = readJunitBuffer(xml);
    ASSERT_TRUE(report) << report.message();
    ASSERT_EQ(report->cases.size(), 1U);
    const TestCaseResult& c = report->cases[0];
    ASSERT_EQ(c.marks.items.size(), 2U);
    EXPECT_EQ(c.marks.items[0].kind, MarkKind::Op);
    EXPECT_EQ(c.marks.items[0].value, "add");
    EXPECT_EQ(c.marks.items[1].kind, MarkKind::Dtype);
    EXPECT_EQ(c.marks.items[1].value, "float16");
    EXPECT_EQ(c.retried, "2");
}
