// The JUnit reader on input a downstream CI should not have produced but some
// will: truncated and malformed XML, DTDs and entities, invalid UTF-8, huge
// messages, files that are empty or not XML at all.
#include "relayhud/junit/junit_reader.h"
#include "relayhud/util/utf8.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace relayhud;

namespace {

std::string slurp(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

std::string corpus(const std::string& name)
{
    return slurp(std::string(RELAYHUD_CORPUS_DIR) + "/junit/" + name);
}

JunitReport readOk(std::string_view xml, const JunitReadOptions& options = {})
{
    Result<JunitReport> report = readJunitBuffer(xml, options);
    EXPECT_TRUE(report) << report.message();
    return report ? std::move(report).value() : JunitReport{};
}

std::string readError(std::string_view xml)
{
    Result<JunitReport> report = readJunitBuffer(xml);
    EXPECT_FALSE(report);
    return report ? std::string() : report.message();
}

std::string oneFailure(const std::string& message, const std::string& traceback)
{
    return "<testsuites><testsuite tests=\"1\" failures=\"1\"><testcase classname=\"test_x.TestX\""
           " name=\"test_y\"><failure message=\""
           + message + "\">" + traceback + "</failure></testcase></testsuite></testsuites>";
}

// A temporary file removed on scope exit, named after the running test and
// process so that tests run in parallel by CTest never share one.
struct TempFile {
    std::string path;
    explicit TempFile(const std::string& bytes)
        : path(testing::TempDir() + "junit_"
               + testing::UnitTest::GetInstance()->current_test_info()->name() + "_"
               + std::to_string(::getpid()) + ".xml")
    {
        std::ofstream(path, std::ios::binary) << bytes;
    }
    ~TempFile() { std::remove(path.c_str()); }
};

} // namespace

TEST(JunitTruncated, CutInTheMiddleKeepsTheCasesBeforeIt)
{
    const std::string whole = corpus("numpy_umath_ufunc.xml");
    const JunitReport full = readOk(whole);
    const std::string cut = whole.substr(0, whole.size() / 2);
    const JunitReport half = readOk(cut);
    ASSERT_TRUE(half.parseBreak);
    EXPECT_TRUE(half.parseBreak->endsEarly);
    EXPECT_LE(half.parseBreak->byteOffset, cut.size());
    EXPECT_EQ(half.parseBreak->message.rfind("XML ends unexpectedly at byte ", 0), 0U);
    const std::string kept = "kept the " + std::to_string(half.cases.size()) + " test cases";
    EXPECT_NE(half.parseBreak->message.find(kept), std::string::npos) << half.parseBreak->message;
    ASSERT_GT(half.cases.size(), 1000U);
    ASSERT_LT(half.cases.size(), full.cases.size());
    for (std::size_t i = 0; i < half.cases.size(); ++i) {
        EXPECT_EQ(half.cases[i].identity, full.cases[i].identity);
        EXPECT_EQ(half.cases[i].outcome, full.cases[i].outcome);
    }
    // Declared totals come from the suite's start tag, which survived; the
    // mismatch is the break's to explain, not a warning's.
    EXPECT_EQ(half.declared, full.declared);
    EXPECT_TRUE(half.warnings.empty());
}

TEST(JunitTruncated, ACaseCutBeforeItsFailureIsDroppedNotPassed)
{
    const std::string whole = corpus("numpy_multiarray_runxfail_strict.xml");
    const JunitReport full = readOk(whole);
    const std::size_t failure = whole.find("<failure ");
    ASSERT_NE(failure, std::string::npos);
    // Cut before the <failure> and inside it: the case must not look passed.
    for (const std::size_t at : {failure, failure + 20}) {
        const JunitReport cut = readOk(whole.substr(0, at));
        ASSERT_TRUE(cut.parseBreak);
        ASSERT_LT(cut.cases.size(), full.cases.size());
        EXPECT_EQ(full.cases[cut.cases.size()].outcome, TestOutcome::Failed);
        EXPECT_EQ(cut.count(TestOutcome::Failed), 0U);
    }
}

TEST(JunitTruncated, StreamingNeverHandsOverTheUnfinishedCase)
{
    const std::string whole = corpus("numpy_multiarray_runxfail_strict.xml");
    JunitReadOptions options;
    std::size_t handedOver = 0, failed = 0;
    options.onCase = [&](const TestCaseResult& c) {
        ++handedOver;
        failed += c.outcome == TestOutcome::Failed ? 1 : 0;
    };
    const JunitReport report = readOk(whole.substr(0, whole.find("<failure ") + 20), options);
    ASSERT_TRUE(report.parseBreak);
    EXPECT_EQ(handedOver, report.counted.tests);
    EXPECT_GT(handedOver, 0U);
    EXPECT_EQ(failed, 0U);
    const std::string kept = "kept the " + std::to_string(handedOver) + " test cases";
    EXPECT_NE(report.parseBreak->message.find(kept), std::string::npos);
}

TEST(JunitTruncated, ACompleteLastCaseIsKept)
{
    const std::string whole = corpus("numpy_umath_ufunc.xml");
    std::size_t end = 0;
    for (int i = 0; i < 100; ++i)
        end = whole.find("/>", whole.find("<testcase ", end)) + 2;
    EXPECT_EQ(readOk(whole.substr(0, end)).cases.size(), 100U);
    // Cut inside the suite's end tag: every case is there.
    const std::size_t suiteEnd = whole.rfind("</testsuite>");
    const JunitReport nearlyAll = readOk(whole.substr(0, suiteEnd + 5));
    EXPECT_EQ(nearlyAll.cases.size(), 4883U);
    ASSERT_TRUE(nearlyAll.parseBreak);
    EXPECT_TRUE(nearlyAll.parseBreak->endsEarly);
}

TEST(JunitTruncated, AFileCutShortSaysWhereItBroke)
{
    // Files are parsed in place; a broken one is read again for the analysis.
    const std::string whole = corpus("numpy_umath_ufunc.xml");
    const std::string cut = whole.substr(0, whole.size() / 3);
    const JunitReport fromBuffer = readOk(cut);
    TempFile file(cut);
    Result<JunitReport> fromFile = readJunitFile(file.path);
    ASSERT_TRUE(fromFile) << fromFile.message();
    ASSERT_TRUE(fromFile->parseBreak);
    EXPECT_EQ(fromFile->parseBreak->message, fromBuffer.parseBreak->message);
    EXPECT_EQ(fromFile->counted, fromBuffer.counted);
}

// Whatever byte a report is cut at, what is kept is a prefix of the whole
// report's cases, each exactly as the whole report has it.
TEST(JunitTruncated, EveryCutOfASmallReportKeepsAPrefix)
{
    const std::string whole =
        slurp(std::string(RELAYHUD_TEST_DATA_DIR) + "/junit/torch_spyre_upstream.xml");
    const JunitReport full = readOk(whole);
    for (std::size_t at = 1; at < whole.size(); ++at) {
        Result<JunitReport> cut = readJunitBuffer(std::string_view(whole).substr(0, at));
        if (!cut)
            continue; // cut before the root element was named: nothing to keep
        ASSERT_LE(cut->cases.size(), full.cases.size()) << at;
        for (std::size_t i = 0; i < cut->cases.size(); ++i) {
            const TestCaseResult& a = cut->cases[i];
            const TestCaseResult& b = full.cases[i];
            ASSERT_EQ(a.identity, b.identity) << at;
            ASSERT_EQ(a.outcome, b.outcome) << at << " " << a.identity;
            ASSERT_EQ(a.message.text, b.message.text) << at;
            ASSERT_EQ(a.traceback.text, b.traceback.text) << at;
            ASSERT_EQ(a.marks.items, b.marks.items) << at;
            ASSERT_EQ(a.retried, b.retried) << at;
        }
        if (cut->cases.size() < full.cases.size()) {
            ASSERT_TRUE(cut->parseBreak) << at;
        }
    }
}

TEST(JunitTruncated, MalformedInTheMiddleSaysSo)
{
    std::string whole = corpus("mikepenz__action-junit-report__test_results__python__report.xml");
    const std::size_t second = whole.find("<testcase", whole.find("<testcase") + 1);
    whole.insert(second, "<oops<");
    const JunitReport report = readOk(whole);
    ASSERT_TRUE(report.parseBreak);
    EXPECT_FALSE(report.parseBreak->endsEarly);
    EXPECT_EQ(report.parseBreak->message.rfind("XML is malformed at byte ", 0), 0U);
    EXPECT_NE(report.parseBreak->message.find("kept the 1 test case before it"), std::string::npos)
        << report.parseBreak->message;
}

TEST(JunitEntities, BillionLaughsIsNeverExpanded)
{
    const std::string xml =
        slurp(std::string(RELAYHUD_TEST_DATA_DIR) + "/junit/billion_laughs.xml");
    const auto start = std::chrono::steady_clock::now();
    const JunitReport report = readOk(xml);
    const auto elapsed = std::chrono::steady_clock::now() - start;
    // Expanded, &lol9; is 3 GB; unexpanded it is a few microseconds of work.
    EXPECT_LT(elapsed, std::chrono::seconds(2));
    ASSERT_EQ(report.cases.size(), 2U);
    EXPECT_FALSE(report.parseBreak);
    EXPECT_EQ(report.cases[0].name, "test_lol9_&lol9;");
    const TestCaseResult& xxe = report.cases[1];
    EXPECT_EQ(xxe.outcome, TestOutcome::Failed);
    // The external entity is not fetched either: no /etc/passwd in the text.
    EXPECT_EQ(xxe.message.text, "&lol9; &xxe; &");
    EXPECT_EQ(xxe.traceback.text, "&lol9;&xxe;");
    for (const TestCaseResult& c : report.cases)
        EXPECT_LT(c.name.size() + c.message.fullBytes + c.traceback.fullBytes, 100U);
}

TEST(JunitUtf8, InvalidBytesBecomeReplacementCharacters)
{
    const std::string xml = "<testsuite><testcase classname=\"test_x.TestX\" name=\"test_\xFF\">"
                            "<failure message=\"bad \xC3\x28 and cut \xE2\x82\">"
                            "overlong \xC0\xAF surrogate \xED\xA0\x80 ok \xC3\xA9</failure>"
                            "</testcase></testsuite>";
    const JunitReport report = readOk(xml);
    ASSERT_EQ(report.cases.size(), 1U);
    const TestCaseResult& c = report.cases[0];
    EXPECT_EQ(c.name, "test_\xEF\xBF\xBD");
    EXPECT_EQ(c.identity, "test_x.py::TestX::test_\xEF\xBF\xBD");
    EXPECT_EQ(c.message.text, "bad \xEF\xBF\xBD( and cut \xEF\xBF\xBD");
    EXPECT_EQ(c.traceback.text, "overlong \xEF\xBF\xBD\xEF\xBF\xBD surrogate "
                                "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD ok \xC3\xA9");
    EXPECT_TRUE(isValidUtf8(c.message.text));
    EXPECT_TRUE(isValidUtf8(c.traceback.text));
}

TEST(JunitUtf8, SanitiserAndPrefix)
{
    EXPECT_TRUE(isValidUtf8("plain \xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"));
    EXPECT_FALSE(isValidUtf8("\xF4\x90\x80\x80")); // past U+10FFFF
    EXPECT_EQ(sanitizeUtf8("a\xF0\x9F\x98"), "a\xEF\xBF\xBD");
    EXPECT_EQ(sanitizeUtf8("\x80x"), "\xEF\xBF\xBDx");
    // "é€" cut at 2 and 3 bytes: never half a character.
    EXPECT_EQ(utf8Prefix("\xC3\xA9\xE2\x82\xAC", 3), "\xC3\xA9");
    EXPECT_EQ(utf8Prefix("\xC3\xA9\xE2\x82\xAC", 1), "");
    EXPECT_EQ(utf8Prefix("abc", 10), "abc");
}

// ASCII is checked eight bytes at a time: a bad byte, or a character split
// across two such words, is judged the same at every offset.
TEST(JunitUtf8, EveryOffsetOfALongAsciiTextIsChecked)
{
    const std::string ascii(40, 'a');
    for (std::size_t at = 0; at < ascii.size(); ++at) {
        std::string bad = ascii;
        bad[at] = '\xFF';
        EXPECT_FALSE(isValidUtf8(bad)) << at;
        EXPECT_EQ(sanitizeUtf8(bad), ascii.substr(0, at) + "\xEF\xBF\xBD" + ascii.substr(at + 1));
        std::string euro = ascii;
        euro.insert(at, "\xE2\x82\xAC");
        EXPECT_TRUE(isValidUtf8(euro)) << at;
        std::string cut = ascii.substr(0, at) + "\xE2\x82";
        EXPECT_FALSE(isValidUtf8(cut)) << at;
    }
    EXPECT_TRUE(isValidUtf8(ascii));
    EXPECT_TRUE(isValidUtf8(""));
}

TEST(JunitHugeText, TenMegabyteMessageIsCappedAndHandedOver)
{
    // Two-byte characters, so the cap falls inside one if cut naively.
    std::string huge;
    huge.reserve(10 * 1024 * 1024 + 1);
    huge += 'x';
    while (huge.size() < 10 * 1024 * 1024)
        huge += "\xC3\xA9";
    std::vector<std::pair<CaseText, std::size_t>> handedOver;
    JunitReadOptions options;
    options.onCutText = [&](std::size_t index, CaseText which, std::string_view full) {
        EXPECT_EQ(index, 0U);
        handedOver.emplace_back(which, full.size());
    };
    const JunitReport report = readOk(oneFailure(huge, huge), options);
    ASSERT_EQ(report.cases.size(), 1U);
    for (const CappedText* text : {&report.cases[0].message, &report.cases[0].traceback}) {
        EXPECT_TRUE(text->cut);
        EXPECT_EQ(text->fullBytes, huge.size());
        EXPECT_LE(text->text.size(), options.maxInlineTextBytes);
        EXPECT_GE(text->text.size(), options.maxInlineTextBytes - 1);
        EXPECT_TRUE(isValidUtf8(text->text));
        EXPECT_EQ(huge.compare(0, text->text.size(), text->text), 0);
    }
    ASSERT_EQ(handedOver.size(), 2U);
    EXPECT_EQ(handedOver[0], std::make_pair(CaseText::Message, huge.size()));
    EXPECT_EQ(handedOver[1], std::make_pair(CaseText::Traceback, huge.size()));
}

TEST(JunitHugeText, SanitisingCannotPushTextPastTheCap)
{
    // Eight invalid bytes fit an 8-byte cap; their replacements (3 bytes each) do not.
    JunitReadOptions options;
    options.maxInlineTextBytes = 8;
    const JunitReport report =
        readOk(oneFailure("\xFF\xFF\xFF\xFF\xFF\xFF\xFF\xFF", "ok"), options);
    ASSERT_EQ(report.cases.size(), 1U);
    const CappedText& message = report.cases[0].message;
    EXPECT_EQ(message.text, "\xEF\xBF\xBD\xEF\xBF\xBD");
    EXPECT_TRUE(message.cut);
    EXPECT_EQ(message.fullBytes, 8U);
    EXPECT_FALSE(report.cases[0].traceback.cut);
}

// Class names of a megabyte each are split for their own case and not
// remembered for the next (the reader's memo keeps short names only): each
// case still gets its own file and class.
TEST(JunitHugeText, MegabyteClassNamesAreSplitPerCase)
{
    std::string xml = "<testsuite>";
    for (char c : {'A', 'B', 'A'}) {
        const std::string cls = "Test" + std::string(1 << 20, c);
        xml += "<testcase classname=\"test_big." + cls + "\" name=\"test_x\"/>";
    }
    xml += "</testsuite>";
    Result<JunitReport> report = readJunitBuffer(xml);
    ASSERT_TRUE(report) << report.message();
    ASSERT_EQ(report->cases.size(), 3U);
    for (std::size_t i = 0; i < 3; ++i) {
        const char c = i == 1 ? 'B' : 'A';
        EXPECT_EQ(report->cases[i].file, "test_big.py") << i;
        EXPECT_EQ(report->cases[i].className, "Test" + std::string(1 << 20, c)) << i;
    }
}

TEST(JunitNotAReport, EmptyInputIsAnError)
{
    EXPECT_NE(readError("").find("empty"), std::string::npos);
    TempFile empty("");
    Result<JunitReport> fromFile = readJunitFile(empty.path);
    ASSERT_FALSE(fromFile);
    EXPECT_NE(fromFile.message().find("empty"), std::string::npos);
    EXPECT_NE(fromFile.message().find(empty.path), std::string::npos);
}

TEST(JunitNotAReport, TextJsonAndOtherXmlAreErrors)
{
    EXPECT_NE(readError("2026-07-29T23:58:10.4613408Z ##[error]Process completed with exit code 1.")
                  .find("not a JUnit XML report"),
              std::string::npos);
    EXPECT_NE(readError("{\"tests\": 3}").find("not a JUnit XML report"), std::string::npos);
    EXPECT_NE(readError("   \n\t ").find("no XML element"), std::string::npos);
    EXPECT_NE(readError("<html><body>404</body></html>").find("root element is <html>"),
              std::string::npos);
}

TEST(JunitNotAReport, MissingFileNamesThePath)
{
    const std::string path = testing::TempDir() + "no_such_report.xml";
    Result<JunitReport> report = readJunitFile(path);
    ASSERT_FALSE(report);
    EXPECT_NE(report.message().find(path), std::string::npos);
}

TEST(JunitNotAReport, AnEmptySuiteIsAReportWithNoCases)
{
    const JunitReport report = readOk("<testsuites><testsuite tests=\"0\"/></testsuites>");
    EXPECT_TRUE(report.cases.empty());
    EXPECT_EQ(report.suiteCount, 1U);
    EXPECT_FALSE(report.parseBreak);
}
