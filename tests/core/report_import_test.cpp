// importReports: every corpus report, reports inside zips and tarballs (built
// here with libarchive's writer), folders, and hostile input, stored into a
// real SQLite cache.
#include "archive_packer.h"
#include "relayhud/artifacts/report_names.h"
#include "relayhud/results/report_import.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "test_files.h"
#include "test_results_fixtures.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

using namespace relayhud;
using namespace relayhud::testing;
namespace fs = std::filesystem;

namespace {

using relayhud::test::readFile;

using relayhud::test::Packer;

// A pytest report of `passed` passing and `failed` failing test_ops cases.
std::string pytestReport(int passed, int failed, const std::string& cls = "TestCommonPRIVATEUSE1",
                         const std::string& failureText = "Traceback ...")
{
    std::string xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><testsuites><testsuite "
                      "name=\"pytest\" errors=\"0\" failures=\""
                      + std::to_string(failed) + "\" skipped=\"0\" tests=\""
                      + std::to_string(passed + failed) + "\">";
    for (int i = 0; i < passed + failed; ++i) {
        xml += "<testcase classname=\"test_ops." + cls + "\" name=\"test_case_" + std::to_string(i)
               + "_spyre_float16\" time=\"0.01\">";
        if (i >= passed)
            xml += "<failure message=\"AssertionError: not close\">" + failureText + "</failure>";
        xml += "</testcase>";
    }
    return xml + "</testsuite></testsuites>";
}

struct Imported {
    Result<ImportSummary> summary = makeError("not run");
    TestRunId testRunId;
};

class Import : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = std::make_unique<ScratchDir>("import");
        m_cache = openCacheOk(m_dir->file("cache.sqlite"));
        auto blobs = ContentCache::open(m_dir->file("blobs"));
        ASSERT_TRUE(blobs);
        m_blobs = std::make_unique<ContentCache>(std::move(*blobs));
    }

    Imported import(const std::vector<std::string>& paths, const ImportOptions& options = {})
    {
        Imported out;
        auto writer = TestResultStore(*m_cache).beginTestRun(
            TestRunOrigin{std::nullopt, TestRunSource::Import, "import", paths.front()},
            m_blobs.get());
        EXPECT_TRUE(writer);
        out.summary = importReports(paths, **writer, options);
        if (out.summary) {
            auto id = (*writer)->commit(out.summary->totals);
            EXPECT_TRUE(id) << id.message();
            out.testRunId = id ? *id : TestRunId{};
        }
        return out;
    }

    std::string write(const std::string& name, const std::string& bytes)
    {
        return m_dir->write(name, bytes);
    }

    std::int64_t storedResults() { return RunStore(*m_cache).stats()->testResults; }

    static bool anyContains(const std::vector<std::string>& list, const std::string& needle)
    {
        for (const auto& s : list)
            if (s.find(needle) != std::string::npos)
                return true;
        return false;
    }

    std::unique_ptr<ScratchDir> m_dir;
    relayhud::testing::TestCache m_cache;
    std::unique_ptr<ContentCache> m_blobs;
};

// The report's own <testsuite> attributes, read with a regex rather than the
// JUnit reader under test.
JunitTotals attributesOf(const std::string& xml)
{
    JunitTotals t;
    static const std::regex suite("<testsuite\\s[^>]*>");
    auto number = [](const std::string& tag, const char* name) -> std::size_t {
        std::smatch m;
        const std::regex attr(std::string("\\s") + name + "=\"(\\d+)\"");
        return std::regex_search(tag, m, attr) ? std::stoul(m[1]) : 0;
    };
    for (auto it = std::sregex_iterator(xml.begin(), xml.end(), suite);
         it != std::sregex_iterator(); ++it) {
        const std::string tag = it->str();
        t.tests += number(tag, "tests");
        t.failures += number(tag, "failures");
        t.errors += number(tag, "errors");
        t.skipped += number(tag, "skipped");
    }
    return t;
}

std::size_t occurrences(const std::string& text, const std::string& needle)
{
    std::size_t n = 0;
    for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
        ++n;
    return n;
}

} // namespace

TEST_F(Import, EveryCorpusReportMatchesItsOwnAttributes)
{
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(RELAYHUD_CORPUS_DIR "/junit")) {
        if (entry.path().extension() != ".xml")
            continue;
        ++files;
        SCOPED_TRACE(entry.path().filename().string());
        const std::string xml = readFile(entry.path().string());
        const JunitTotals attributes = attributesOf(xml);
        const std::int64_t before = storedResults();
        auto imported = import({entry.path().string()});
        ASSERT_TRUE(imported.summary) << imported.summary.message();
        ASSERT_EQ(imported.summary->reports.size(), 1u);
        const ImportedReport& report = imported.summary->reports[0];
        EXPECT_EQ(report.name, entry.path().filename().string());
        EXPECT_EQ(report.declared, attributes);
        // pytest counts an xfail as skipped and a strict XPASS as a failure;
        // the counted figures follow it, so they match the attributes too.
        EXPECT_EQ(report.counted.failures, attributes.failures);
        EXPECT_EQ(report.counted.errors, attributes.errors);
        EXPECT_EQ(report.counted.skipped, attributes.skipped);
        const std::size_t testcases = occurrences(xml, "<testcase ");
        EXPECT_EQ(report.counted.tests, testcases);
        EXPECT_EQ(report.cases, static_cast<std::int64_t>(testcases));
        EXPECT_EQ(storedResults() - before, static_cast<std::int64_t>(testcases));
        if (attributes.tests != testcases) // dorny's file declares 15 over 10 cases
            EXPECT_TRUE(anyContains(imported.summary->warnings, "declares"));
        else
            EXPECT_EQ(report.declared.tests, testcases);
        auto info = TestResultStore(*m_cache).testRun(imported.testRunId);
        ASSERT_TRUE(info);
        EXPECT_EQ(info->totals.cases(), static_cast<std::int64_t>(testcases));
        EXPECT_EQ(info->totals.declared, attributes);
        EXPECT_EQ(info->warnings, imported.summary->warnings);
    }
    EXPECT_GE(files, 7u);
}

TEST_F(Import, ZipsAndTarballsWithReportsAtAnyDepth)
{
    Packer zip(Packer::Kind::Zip);
    zip.add("test-reports/python-pytest/test_ops/test_ops-1.xml", pytestReport(3, 1))
        .add("test-reports/python-pytest/test_view_ops/deep/er/test_view_ops.xml",
             pytestReport(2, 0, "TestViewOpsPRIVATEUSE1"))
        .add("test-reports/usage.log", "not a report")
        .add("test-reports/gz/test_torch.xml.gz", [] {
            Packer gz(Packer::Kind::Gzip);
            return gz.add("test_torch.xml", pytestReport(1, 1, "TestTorch")).finish();
        }());
    const auto zipPath = write("test-reports-runattempt1-default-1-2-linux.zip", zip.finish());
    Packer tgz(Packer::Kind::TarGz);
    tgz.add("a/b/c/report.xml", pytestReport(4, 0, "TestBinaryUfuncsPRIVATEUSE1"))
        .add("a/latest", "", AE_IFLNK);
    const auto tgzPath = write("reports.tar.gz", tgz.finish());
    Packer tar(Packer::Kind::Tar);
    tar.add("r.xml", pytestReport(1, 0, "TestTensorCreationPRIVATEUSE1"));
    const auto tarPath = write("reports.tar", tar.finish());

    auto imported = import({zipPath, tgzPath, tarPath});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    const auto& s = *imported.summary;
    ASSERT_EQ(s.reports.size(), 5u);
    EXPECT_EQ(s.reports[0].name, "test-reports-runattempt1-default-1-2-linux.zip:"
                                 "test-reports/python-pytest/test_ops/test_ops-1.xml");
    EXPECT_EQ(s.reports[2].name,
              "test-reports-runattempt1-default-1-2-linux.zip:test-reports/gz/test_torch.xml.gz");
    EXPECT_EQ(s.reports[2].cases, 2);
    EXPECT_EQ(s.reports[3].name, "reports.tar.gz:a/b/c/report.xml");
    EXPECT_EQ(s.totals.reports, 5);
    EXPECT_EQ(s.totals.cases(), 13);
    EXPECT_EQ(s.totals.count(TestOutcome::Failed), 2);
    EXPECT_EQ(s.totals.declared.tests, 13u);
    EXPECT_EQ(storedResults(), 13);
    std::string all;
    for (const auto& w : s.warnings)
        all += w + "\n";
    for (const auto& r : s.reports)
        all += r.name + " " + std::to_string(r.cases) + "\n";
    EXPECT_TRUE(anyContains(s.warnings, "reports.tar.gz: entry 'a/latest' skipped: a symlink"))
        << all;
    EXPECT_FALSE(anyContains(s.warnings, m_dir->path().string())) << all;
}

// .xml.gz files inside a zip inflate against the zip's one budget: each
// within its own limits, together past the total, they are refused (a 21 MB
// zip once inflated 4 GiB past the 2 GiB cap, each nested file starting
// afresh).
TEST_F(Import, NestedGzipReportsCountAgainstTheOuterArchivesBudget)
{
    // ~400 KiB of XML per report (a padded message), ~3 KiB gzipped.
    auto padded = [](int shard) {
        std::string xml = pytestReport(1, 1, "TestShard" + std::to_string(shard));
        const std::string failure = "<failure message=\"";
        const auto at = xml.find(failure);
        EXPECT_NE(at, std::string::npos);
        xml.insert(at + failure.size(), std::string(400u << 10, 'x'));
        return xml;
    };
    Packer zip(Packer::Kind::Zip);
    for (int shard = 0; shard < 4; ++shard)
        zip.add("test-reports/shard" + std::to_string(shard) + ".xml.gz", [&] {
            Packer gz(Packer::Kind::Gzip);
            return gz.add("r.xml", padded(shard)).finish();
        }());
    const auto path = write("nested.zip", zip.finish());
    ImportOptions options;
    options.limits.maxTotalBytes = 1u << 20; // room for two of the four
    auto imported = import({path}, options);
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    EXPECT_EQ(imported.summary->reports.size(), 2u);
    EXPECT_TRUE(anyContains(imported.summary->warnings,
                            "inflate past 1 MiB in all, nested archives included; refused"));

    options.limits.maxTotalBytes = 8u << 20;
    auto whole = import({path}, options);
    ASSERT_TRUE(whole.summary) << whole.summary.message();
    EXPECT_EQ(whole.summary->reports.size(), 4u);
}

TEST_F(Import, ASingleGzippedReport)
{
    Packer gz(Packer::Kind::Gzip);
    gz.add("report.xml", pytestReport(5, 2));
    auto imported = import({write("report.xml.gz", gz.finish())});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    ASSERT_EQ(imported.summary->reports.size(), 1u);
    EXPECT_EQ(imported.summary->reports[0].name, "report.xml.gz");
    EXPECT_EQ(imported.summary->reports[0].cases, 7);
}

TEST_F(Import, AFolderRecursivelyWithoutFollowingSymlinks)
{
    write("results/shard1/test_ops.xml", pytestReport(2, 1));
    write("results/shard2/nested/test_torch.xml", pytestReport(3, 0, "TestTorch"));
    write("results/notes.txt", "hello");
    write("results/config.xml", "<?xml version=\"1.0\"?><project><name>x</name></project>");
    write("outside/secret.xml", pytestReport(50, 0, "TestSecret"));
    fs::create_directory_symlink(m_dir->path() / "outside", m_dir->path() / "results/linked");
    fs::create_symlink(m_dir->path() / "outside/secret.xml", m_dir->path() / "results/s.xml");

    auto imported = import({m_dir->file("results")});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    const auto& s = *imported.summary;
    ASSERT_EQ(s.reports.size(), 2u);
    EXPECT_EQ(s.reports[0].name, "results/shard1/test_ops.xml");
    EXPECT_EQ(s.reports[1].name, "results/shard2/nested/test_torch.xml");
    EXPECT_EQ(s.totals.cases(), 6);
    EXPECT_TRUE(anyContains(s.warnings, "results/config.xml: not a JUnit XML report"));
    EXPECT_TRUE(anyContains(s.warnings, "results/linked: a symlink; not followed"));
    EXPECT_TRUE(anyContains(s.warnings, "results/s.xml: a symlink; not followed"));
    EXPECT_FALSE(anyContains(s.warnings, "notes.txt"));
}

TEST_F(Import, ATruncatedReportKeepsItsCasesAndSaysWhereItBroke)
{
    const std::string whole = pytestReport(20, 0);
    const auto path = write("cut.xml", whole.substr(0, whole.size() * 2 / 3));
    auto imported = import({path});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    const auto cases = imported.summary->reports.at(0).cases;
    EXPECT_GT(cases, 5);
    EXPECT_LT(cases, 20);
    EXPECT_EQ(storedResults(), cases);
    EXPECT_TRUE(anyContains(imported.summary->warnings, "cut.xml: XML ends unexpectedly"));
    auto info = TestResultStore(*m_cache).testRun(imported.testRunId);
    EXPECT_TRUE(anyContains(info->warnings, "XML ends unexpectedly"));
}

TEST_F(Import, NothingImportableIsAnErrorThatSaysWhy)
{
    const auto text = write("notes.txt", "this is not XML at all");
    auto imported = import({text});
    ASSERT_FALSE(imported.summary);
    EXPECT_NE(imported.summary.message().find("nothing imported from " + text), std::string::npos);
    EXPECT_NE(imported.summary.message().find("notes.txt: not a JUnit XML report"),
              std::string::npos)
        << imported.summary.message();
    EXPECT_EQ(storedResults(), 0);

    auto missing = import({m_dir->file("missing.xml")});
    ASSERT_FALSE(missing.summary);
    EXPECT_NE(missing.summary.message().find("missing.xml"), std::string::npos);
    EXPECT_NE(missing.summary.message().find("No such file"), std::string::npos);

    fs::create_directory(m_dir->path() / "empty");
    auto empty = import({m_dir->file("empty")});
    ASSERT_FALSE(empty.summary);
    EXPECT_NE(empty.summary.message().find("no JUnit reports"), std::string::npos);

    auto zero = import({write("zero.xml", "")});
    ASSERT_FALSE(zero.summary);
    EXPECT_NE(zero.summary.message().find("empty"), std::string::npos);
}

TEST_F(Import, OneBadFileDoesNotStopTheOthers)
{
    const auto good = write("good.xml", pytestReport(3, 0));
    const auto bad = write("bad.xml", "<testsuites><testsuite tests=\"1\"><testcase name=\"x\"");
    const auto random = write("random.zip", std::string(4096, '\x07'));
    auto imported = import({bad, random, good});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    EXPECT_EQ(imported.summary->totals.cases(), 3);
    EXPECT_TRUE(anyContains(imported.summary->warnings, "random.zip"));
    EXPECT_TRUE(anyContains(imported.summary->warnings, "bad.xml"));
}

TEST_F(Import, InvalidUtf8BecomesReplacementCharacters)
{
    const std::string xml = "<testsuite tests=\"1\" failures=\"1\"><testcase classname=\"t.TestX\""
                            " name=\"test_\xff\xfe\"><failure message=\"bad \xc3\x28 byte\">"
                            "trace \xe2\x82</failure></testcase></testsuite>";
    auto imported = import({write("utf8.xml", xml)});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    auto results = TestResultStore(*m_cache).testResults(imported.testRunId);
    ASSERT_EQ(results->size(), 1u);
    EXPECT_EQ((*results)[0].name, "test_\xef\xbf\xbd\xef\xbf\xbd");
    EXPECT_EQ((*results)[0].message, "bad \xef\xbf\xbd( byte");
}

TEST_F(Import, ATenMegabyteFailureMessageIsCutWithTheWholeKeptOnDisk)
{
    std::string huge;
    huge.reserve(10u << 20);
    for (int i = 0; huge.size() < (10u << 20); ++i)
        huge += "E   frame " + std::to_string(i) + ": RuntimeError: spyre kernel failed\n";
    const auto path = write("huge.xml", pytestReport(1, 1, "TestCommonPRIVATEUSE1", huge));
    auto imported = import({path});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    auto results =
        TestResultStore(*m_cache).testResults(imported.testRunId, {{TestOutcome::Failed}, 0});
    ASSERT_EQ(results->size(), 1u);
    auto traceback = TestResultStore(*m_cache).testText((*results)[0].tracebackId);
    ASSERT_TRUE(traceback);
    EXPECT_LE(traceback->text.size(), JunitReadOptions{}.maxInlineTextBytes);
    EXPECT_EQ(traceback->fullBytes, static_cast<std::int64_t>(huge.size()));
    ASSERT_FALSE(traceback->fullTextHash.empty());
    auto blob = m_blobs->path(traceback->fullTextHash);
    ASSERT_TRUE(blob);
    EXPECT_EQ(readFile(*blob), huge);
    EXPECT_EQ(huge.substr(0, traceback->text.size()), traceback->text);
}

TEST_F(Import, AZipSlipArchiveIsRefusedWholeWhileOthersImport)
{
    Packer zip(Packer::Kind::Zip);
    zip.add("ok/first.xml", pytestReport(2, 0)).add("../../escape.xml", pytestReport(9, 0));
    const auto evil = write("evil.zip", zip.finish());
    const auto good = write("good.xml", pytestReport(1, 0));
    auto imported = import({evil, good});
    ASSERT_TRUE(imported.summary) << imported.summary.message();
    // Not even the entry before the bad one: half an artifact is worse than none.
    EXPECT_EQ(imported.summary->totals.cases(), 1);
    EXPECT_EQ(storedResults(), 1);
    EXPECT_TRUE(anyContains(imported.summary->warnings, "evil.zip"));
    EXPECT_FALSE(fs::exists(m_dir->path().parent_path() / "escape.xml"));
}

TEST_F(Import, AZipBombIsStoppedByTheLimits)
{
    Packer zip(Packer::Kind::Zip);
    zip.add("bomb.xml", pytestReport(1, 0) + std::string(64u << 20, ' '));
    ImportOptions options;
    options.limits.maxEntryBytes = 8u << 20;
    auto imported = import({write("bomb.zip", zip.finish())}, options);
    ASSERT_FALSE(imported.summary);
    EXPECT_NE(imported.summary.message().find("bomb.zip"), std::string::npos);
    EXPECT_EQ(storedResults(), 0);
}

TEST_F(Import, CancellingStopsWithAnError)
{
    const auto a = write("a.xml", pytestReport(2, 0));
    std::atomic<bool> cancel{true};
    ImportOptions options;
    options.cancel = &cancel;
    auto imported = import({a}, options);
    ASSERT_FALSE(imported.summary);
    EXPECT_NE(imported.summary.message().find("cancelled"), std::string::npos);
}

TEST(ImportNames, WhatTheImporterReads)
{
    for (const char* name : {"a.xml", "A.XML", "r.xml.gz", "x.zip", "x.tar", "x.tar.gz", "x.TGZ"})
        EXPECT_TRUE(isImportableName(name)) << name;
    for (const char* name : {"a.txt", "xml", "a.xml.bak", "a.gz", "log.txt.gz"})
        EXPECT_FALSE(isImportableName(name)) << name;
}
