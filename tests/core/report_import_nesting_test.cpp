// Archives inside archives and corrupt gzip streams, met through `import`
// (and every `artifacts` pass, which imports the same way; issue 35): zips
// nested 5,000 deep in .xml.gz entries (608 kB) once crashed the import with
// a SIGSEGV, and 3,000 deep took 630 MB; a gzip whose CRC did not match its
// data, or a zip inside an artifact, was imported without a word.
#include "archive_packer.h"
#include "relayhud/results/report_import.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>

#include <chrono>

using namespace relayhud;
using namespace relayhud::testing;
using relayhud::test::Packer;

namespace {

std::string smallReport(const std::string& suite)
{
    return "<testsuite name=\"" + suite + "\" tests=\"2\" failures=\"0\">"
           + "<testcase classname=\"test_ops." + suite + "\" name=\"test_a\"/>"
           + "<testcase classname=\"test_ops." + suite + "\" name=\"test_b\"/></testsuite>";
}

std::string gzipped(const std::string& name, const std::string& bytes)
{
    Packer gz(Packer::Kind::Gzip);
    return gz.add(name, bytes).finish();
}

// A report gzipped, then wrapped in `levels` zips, each one stored in the
// next as an entry named n.xml.gz (the names say gzip; the bytes are zips).
std::string nestedZips(std::size_t levels)
{
    std::string bytes = gzipped("r.xml", smallReport("Innermost"));
    for (std::size_t i = 0; i < levels; ++i) {
        Packer zip(Packer::Kind::StoredZip);
        bytes = zip.add("n.xml.gz", bytes).finish();
    }
    return bytes;
}

class ImportNesting : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_dir = std::make_unique<ScratchDir>("import-nesting");
        m_cache = openCacheOk(m_dir->file("cache.sqlite"));
    }

    Result<ImportSummary> import(const std::vector<std::string>& paths)
    {
        auto writer = TestResultStore(*m_cache).beginTestRun(
            TestRunOrigin{std::nullopt, TestRunSource::Import, "import", paths.front()}, nullptr);
        EXPECT_TRUE(writer);
        auto summary = importReports(paths, **writer, {});
        if (summary) {
            EXPECT_TRUE((*writer)->commit(summary->totals));
        }
        return summary;
    }

    static std::string joined(const std::vector<std::string>& lines)
    {
        std::string all;
        for (const auto& line : lines)
            all += line + "\n";
        return all;
    }

    std::unique_ptr<ScratchDir> m_dir;
    relayhud::testing::TestCache m_cache;
};

} // namespace

TEST_F(ImportNesting, ZipsNestedFiveThousandDeepAreRefusedQuicklyAndSaidSo)
{
    const std::string bytes = nestedZips(5000);
    ASSERT_LT(bytes.size(), 2u << 20);
    const auto path = m_dir->write("deep.xml.gz", bytes);
    const auto start = std::chrono::steady_clock::now();
    auto summary = import({path});
    const auto took = std::chrono::steady_clock::now() - start;
    ASSERT_FALSE(summary);
    EXPECT_EQ(summary.message(), "nothing imported from " + path
                                     + ": deep.xml.gz: an archive nested 4 deep (the limit is "
                                       "3); not read");
    EXPECT_LT(took, std::chrono::seconds(5));
    EXPECT_EQ(RunStore(*m_cache).stats()->testResults, 0);
}

TEST_F(ImportNesting, ReportsBesideADeepChainAreKeptAndTheChainNamed)
{
    Packer zip(Packer::Kind::Zip);
    zip.add("reports/a.xml", smallReport("Beside"))
        .add("reports/ok.xml.gz", gzipped("ok.xml", smallReport("Gzipped")))
        .add("reports/deep.xml.gz", nestedZips(50));
    auto summary = import({m_dir->write("artifact.zip", zip.finish())});
    ASSERT_TRUE(summary) << summary.message();
    EXPECT_EQ(summary->reports.size(), 2u) << joined(summary->warnings);
    EXPECT_EQ(RunStore(*m_cache).stats()->testResults, 4);
    EXPECT_NE(joined(summary->warnings)
                  .find("artifact.zip:reports/deep.xml.gz: an archive nested 4 deep (the limit "
                        "is 3); not read"),
              std::string::npos)
        << joined(summary->warnings);
}

TEST_F(ImportNesting, NestingWithinTheLimitIsRead)
{
    // artifact.zip (1) > inner.xml.gz, a zip (2) > r.xml.gz, a gzip (3) > r.xml
    auto summary = import({m_dir->write("artifact.zip", nestedZips(2))});
    ASSERT_TRUE(summary) << summary.message();
    EXPECT_EQ(summary->reports.size(), 1u);
    EXPECT_TRUE(summary->warnings.empty()) << joined(summary->warnings);
    EXPECT_EQ(RunStore(*m_cache).stats()->testResults, 2);
}

TEST_F(ImportNesting, AZipInsideAnArtifactIsNamedNotIgnored)
{
    Packer inner(Packer::Kind::Zip);
    inner.add("hidden.xml", smallReport("Hidden"));
    Packer zip(Packer::Kind::Zip);
    zip.add("a.xml", smallReport("Seen")).add("more/reports.zip", inner.finish());
    auto summary = import({m_dir->write("artifact.zip", zip.finish())});
    ASSERT_TRUE(summary) << summary.message();
    EXPECT_EQ(summary->reports.size(), 1u);
    EXPECT_NE(joined(summary->warnings)
                  .find("artifact.zip: entry 'more/reports.zip' is an archive inside an archive; "
                        "not read"),
              std::string::npos)
        << joined(summary->warnings);
}

// libarchive 3.6 never checks a gzip's CRC-32: a report whose bytes changed
// after gzip wrote them imported silently.
TEST_F(ImportNesting, AGzipWithABadCrcIsImportedWithAWarning)
{
    std::string bytes = gzipped("r.xml", smallReport("Crc"));
    const auto good = import({m_dir->write("good.xml.gz", bytes)});
    ASSERT_TRUE(good) << good.message();
    EXPECT_TRUE(good->warnings.empty()) << joined(good->warnings);

    bytes[bytes.size() - 8] = static_cast<char>(bytes[bytes.size() - 8] ^ 0x5a); // the CRC's byte
    auto summary = import({m_dir->write("report.xml.gz", bytes)});
    ASSERT_TRUE(summary) << summary.message();
    EXPECT_EQ(summary->reports.size(), 1u);
    EXPECT_NE(joined(summary->warnings)
                  .find("report.xml.gz: entry 'report.xml' fails gzip's integrity check "
                        "(incorrect data check); its data was read but may be corrupt"),
              std::string::npos)
        << joined(summary->warnings);
}

TEST_F(ImportNesting, AGzipWithABadCrcInsideAZipIsNamed)
{
    std::string bytes = gzipped("r.xml", smallReport("Crc"));
    bytes[bytes.size() - 5] = static_cast<char>(bytes[bytes.size() - 5] ^ 0x01);
    Packer zip(Packer::Kind::Zip);
    zip.add("reports/r.xml.gz", bytes);
    auto summary = import({m_dir->write("artifact.zip", zip.finish())});
    ASSERT_TRUE(summary) << summary.message();
    EXPECT_NE(joined(summary->warnings)
                  .find("artifact.zip:reports/r.xml.gz: entry 'r.xml' fails gzip's integrity "
                        "check"),
              std::string::npos)
        << joined(summary->warnings);
}
