#include "relayhud/artifacts/archive_reader.h"
#include "test_files.h"

#include <archive.h>
#include <archive_entry.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

using namespace relayhud;
namespace fs = std::filesystem;

namespace {

// Builds archives in memory with libarchive's writer, hostile entries included
// (the writer stores names and types as given; only extractors judge them).
class ArchiveBuilder {
public:
    enum class Kind { Zip, Tar, TarGz, Gzip };

    explicit ArchiveBuilder(Kind kind) : m_archive(archive_write_new())
    {
        if (kind == Kind::Zip)
            archive_write_set_format_zip(m_archive);
        else if (kind == Kind::Gzip)
            archive_write_set_format_raw(m_archive);
        else
            archive_write_set_format_pax_restricted(m_archive);
        if (kind == Kind::TarGz || kind == Kind::Gzip)
            archive_write_add_filter_gzip(m_archive);
        archive_write_set_bytes_in_last_block(m_archive, 1);
        archive_write_open(m_archive, this, nullptr, &ArchiveBuilder::append, nullptr);
    }
    ~ArchiveBuilder() { archive_write_free(m_archive); }
    ArchiveBuilder(const ArchiveBuilder&) = delete;
    ArchiveBuilder& operator=(const ArchiveBuilder&) = delete;

    ArchiveBuilder& file(const std::string& path, const std::string& bytes)
    {
        return add(path, AE_IFREG, bytes, [](archive_entry*) {});
    }
    ArchiveBuilder& folder(const std::string& path)
    {
        return add(path, AE_IFDIR, {}, [](archive_entry*) {});
    }
    ArchiveBuilder& symlink(const std::string& path, const std::string& target)
    {
        return add(path, AE_IFLNK, {},
                   [&](archive_entry* e) { archive_entry_set_symlink(e, target.c_str()); });
    }
    ArchiveBuilder& hardlink(const std::string& path, const std::string& target)
    {
        return add(path, AE_IFREG, {},
                   [&](archive_entry* e) { archive_entry_set_hardlink(e, target.c_str()); });
    }
    ArchiveBuilder& special(const std::string& path, unsigned type)
    {
        return add(path, type, {}, [](archive_entry* e) { archive_entry_set_rdev(e, 0x0103); });
    }
    std::string finish()
    {
        EXPECT_EQ(archive_write_close(m_archive), ARCHIVE_OK) << archive_error_string(m_archive);
        return std::move(m_bytes);
    }

private:
    template <class Extra>
    ArchiveBuilder& add(const std::string& path, unsigned type, const std::string& bytes,
                        Extra extra)
    {
        archive_entry* entry = archive_entry_new();
        archive_entry_set_pathname(entry, path.c_str());
        archive_entry_set_filetype(entry, type);
        archive_entry_set_perm(entry, type == AE_IFDIR ? 0755 : 0644);
        archive_entry_set_size(entry, static_cast<la_int64_t>(bytes.size()));
        extra(entry);
        EXPECT_EQ(archive_write_header(m_archive, entry), ARCHIVE_OK)
            << path << ": " << archive_error_string(m_archive);
        if (!bytes.empty())
            archive_write_data(m_archive, bytes.data(), bytes.size());
        archive_entry_free(entry);
        return *this;
    }
    static la_ssize_t append(archive*, void* self, const void* data, size_t size)
    {
        static_cast<ArchiveBuilder*>(self)->m_bytes.append(static_cast<const char*>(data), size);
        return static_cast<la_ssize_t>(size);
    }

    archive* m_archive;
    std::string m_bytes;
};

using Kind = ArchiveBuilder::Kind;
using relayhud::test::readFile;
using relayhud::test::TempDir;

std::string randomBytes(std::size_t n, unsigned seed)
{
    std::mt19937 rng(seed);
    std::string bytes(n, '\0');
    for (auto& c : bytes)
        c = static_cast<char>(rng() & 0xff);
    return bytes;
}

// Counts what a streamed extraction hands over, to show where it stopped.
class CountingSink final : public EntrySink {
public:
    Result<void> beginFile(const ArchiveEntryInfo&) override { return {}; }
    Result<void> write(std::string_view chunk) override
    {
        bytes += chunk.size();
        return {};
    }
    Result<void> endFile() override { return {}; }
    std::uint64_t bytes = 0;
};

ArchiveLimits bombLimits()
{
    ArchiveLimits limits;
    limits.maxRatio = 200;
    limits.ratioGraceBytes = 1 << 20;
    return limits;
}

void expectRefused(const std::string& archiveBytes, const std::string& needle, TempDir& tmp)
{
    const auto reader = ArchiveReader::fromMemory(archiveBytes, "artifact.zip");
    const auto listed = reader.list();
    ASSERT_FALSE(listed.ok());
    EXPECT_NE(listed.message().find(needle), std::string::npos) << listed.message();
    const auto extracted = reader.extractTo((tmp / "out").string());
    ASSERT_FALSE(extracted.ok());
    EXPECT_NE(extracted.message().find("artifact.zip"), std::string::npos) << extracted.message();
    EXPECT_NE(extracted.message().find(needle), std::string::npos) << extracted.message();
    // Nothing at all is left: no destination, no staging folder, nothing outside.
    EXPECT_TRUE(tmp.contents().empty());
}

} // namespace

TEST(ArchiveReader, ExtractsNestedFoldersFromZipAndTarGz)
{
    for (const Kind kind : {Kind::Zip, Kind::TarGz, Kind::Tar}) {
        TempDir tmp;
        const std::string bytes = ArchiveBuilder(kind)
                                      .folder("reports/")
                                      .file("reports/unit/test_ops.xml", "<testsuites/>")
                                      .file("./summary.txt", "42 passed")
                                      .finish();
        const auto report =
            ArchiveReader::fromMemory(bytes, "run.zip").extractTo((tmp / "out").string());
        ASSERT_TRUE(report.ok()) << report.message();
        EXPECT_EQ(report->files,
                  (std::vector<std::string>{"reports/unit/test_ops.xml", "summary.txt"}));
        EXPECT_TRUE(report->warnings.empty());
        EXPECT_EQ(report->bytes, 22u);
        EXPECT_EQ(readFile(tmp / "out/reports/unit/test_ops.xml"), "<testsuites/>");
        EXPECT_EQ(readFile(tmp / "out/summary.txt"), "42 passed");
        EXPECT_EQ(tmp.contents(),
                  (std::vector<std::string>{"out", "out/reports", "out/reports/unit",
                                            "out/reports/unit/test_ops.xml", "out/summary.txt"}));
    }
}

TEST(ArchiveReader, ReadsAnArchiveFromAFile)
{
    TempDir tmp;
    std::ofstream(tmp / "artifact.tgz", std::ios::binary)
        << ArchiveBuilder(Kind::TarGz).file("a.xml", "<a/>").finish();
    const auto files = ArchiveReader::fromFile((tmp / "artifact.tgz").string()).extractToMemory();
    ASSERT_TRUE(files.ok()) << files.message();
    ASSERT_EQ(files->size(), 1u);
    EXPECT_EQ((*files)[0].path, "a.xml");
    EXPECT_EQ((*files)[0].bytes, "<a/>");
}

TEST(ArchiveReader, RefusesZipSlipInEveryForm)
{
    for (const Kind kind : {Kind::Zip, Kind::TarGz}) {
        for (const std::string evil : {"../../evil", "a/../../x", "ok/../y", "/abs/path"}) {
            TempDir tmp;
            SCOPED_TRACE(evil);
            const std::string bytes =
                ArchiveBuilder(kind).file("fine.xml", "<x/>").file(evil, "pwned").finish();
            expectRefused(bytes, "'" + evil + "'", tmp);
            EXPECT_FALSE(fs::exists(tmp.path().parent_path() / "evil"));
        }
    }
}

TEST(ArchiveReader, TreatsBackslashesInZipNamesAsSeparators)
{
    TempDir tmp;
    expectRefused(ArchiveBuilder(Kind::Zip).file("..\\..\\evil", "pwned").finish(), "evil", tmp);
    expectRefused(ArchiveBuilder(Kind::Zip).file("C:\\Windows\\evil", "pwned").finish(), "absolute",
                  tmp);
    const auto files =
        ArchiveReader::fromMemory(ArchiveBuilder(Kind::Zip).file("reports\\a.xml", "<a/>").finish())
            .extractToMemory();
    ASSERT_TRUE(files.ok()) << files.message();
    EXPECT_EQ((*files)[0].path, "reports/a.xml");
}

TEST(ArchiveReader, SkipsLinksAndDevicesWithAWarningAndNeverCreatesThem)
{
    TempDir tmp;
    const std::string bytes = ArchiveBuilder(Kind::Tar)
                                  .file("real.xml", "<r/>")
                                  .symlink("escape", "../../../../etc")
                                  .symlink("passwd.xml", "/etc/passwd")
                                  .hardlink("hard.xml", "real.xml")
                                  .special("fifo", AE_IFIFO)
                                  .special("tty", AE_IFCHR)
                                  .finish();
    const auto reader = ArchiveReader::fromMemory(bytes, "links.tar");
    const auto report = reader.extractTo((tmp / "out").string());
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_EQ(report->files, std::vector<std::string>{"real.xml"});
    ASSERT_EQ(report->warnings.size(), 5u);
    EXPECT_NE(report->warnings[0].find("'escape' skipped: a symlink to '../../../../etc'"),
              std::string::npos)
        << report->warnings[0];
    EXPECT_NE(report->warnings[2].find("a hardlink"), std::string::npos);
    EXPECT_NE(report->warnings[3].find("a FIFO"), std::string::npos);
    EXPECT_NE(report->warnings[4].find("a device"), std::string::npos);
    EXPECT_EQ(tmp.contents(), (std::vector<std::string>{"out", "out/real.xml"}));

    const auto listed = reader.list();
    ASSERT_TRUE(listed.ok()) << listed.message();
    ASSERT_EQ(listed->size(), 6u);
    EXPECT_EQ((*listed)[1].kind, EntryKind::Link);
    EXPECT_EQ((*listed)[3].kind, EntryKind::Link);
    EXPECT_EQ((*listed)[4].kind, EntryKind::Special);
}

TEST(ArchiveReader, SkipsSymlinksInZips)
{
    const std::string bytes =
        ArchiveBuilder(Kind::Zip).symlink("link.xml", "/etc/passwd").file("a.xml", "<a/>").finish();
    const auto files = ArchiveReader::fromMemory(bytes).extractToMemory();
    ASSERT_TRUE(files.ok()) << files.message();
    ASSERT_EQ(files->size(), 1u);
    EXPECT_EQ((*files)[0].path, "a.xml");
}

TEST(ArchiveReader, LimitsTheNumberOfEntries)
{
    ArchiveBuilder builder(Kind::TarGz);
    for (int i = 0; i < 10'001; ++i)
        builder.file("cases/" + std::to_string(i) + ".xml", "x");
    const std::string bytes = builder.finish();
    const auto all = ArchiveReader::fromMemory(bytes).list();
    ASSERT_TRUE(all.ok()) << all.message();
    EXPECT_EQ(all->size(), 10'001u);

    ArchiveLimits limits;
    limits.maxEntries = 10'000;
    const auto reader = ArchiveReader::fromMemory(bytes, "many.tar.gz", limits);
    const auto listed = reader.list();
    ASSERT_FALSE(listed.ok());
    EXPECT_EQ(listed.message(), "many.tar.gz has more than 10000 entries; refused");
    EXPECT_FALSE(reader.extractToMemory().ok());
}

TEST(ArchiveReader, StopsAZipBombEarly)
{
    TempDir tmp;
    const std::string bomb =
        ArchiveBuilder(Kind::Zip).file("zeros.xml", std::string(50u << 20, '\0')).finish();
    ASSERT_LT(bomb.size(), 200'000u);
    const auto reader = ArchiveReader::fromMemory(bomb, "bomb.zip", bombLimits());
    CountingSink sink;
    const auto streamed = reader.stream(sink);
    ASSERT_FALSE(streamed.ok());
    EXPECT_NE(streamed.message().find("bomb.zip: entry 'zeros.xml' expands more than 200:1"),
              std::string::npos)
        << streamed.message();
    // Stopped just past the 1 MiB grace, not after 50 MB.
    EXPECT_LT(sink.bytes, 2u << 20);
    EXPECT_FALSE(reader.extractTo((tmp / "out").string()).ok());
    EXPECT_TRUE(tmp.contents().empty());
}

TEST(ArchiveReader, StopsAGzipBombEarly)
{
    const std::string bomb =
        ArchiveBuilder(Kind::Gzip).file("data", std::string(50u << 20, 'a')).finish();
    CountingSink sink;
    const auto streamed =
        ArchiveReader::fromMemory(bomb, "report.xml.gz", bombLimits()).stream(sink);
    ASSERT_FALSE(streamed.ok());
    EXPECT_NE(streamed.message().find("zip bomb"), std::string::npos) << streamed.message();
    EXPECT_LT(sink.bytes, 2u << 20);
}

TEST(ArchiveReader, MeasuresTheRatioOnCompressedBytesActuallyRead)
{
    // Incompressible data, stored (tar) or deflated (zip), from memory and
    // from a file, passes even a 2:1 limit: the compressed side is counted
    // as it is read, not in whole-buffer jumps that would make it look tiny.
    TempDir tmp;
    ArchiveLimits strict;
    strict.maxRatio = 2;
    strict.ratioGraceBytes = 1 << 20;
    const std::string noise = randomBytes(6u << 20, 3);
    for (const Kind kind : {Kind::Tar, Kind::Zip}) {
        const std::string bytes =
            ArchiveBuilder(kind).file("a.log", noise).file("b.log", noise).finish();
        std::ofstream(tmp / "noise", std::ios::binary | std::ios::trunc) << bytes;
        for (const auto& reader : {ArchiveReader::fromMemory(bytes, "noise", strict),
                                   ArchiveReader::fromFile((tmp / "noise").string(), strict)}) {
            CountingSink sink;
            const auto report = reader.stream(sink);
            ASSERT_TRUE(report.ok()) << report.message();
            EXPECT_EQ(sink.bytes, 2 * noise.size());
        }
    }
}

TEST(ArchiveReader, CountsExtractedBytesAgainstTheSizeLimits)
{
    ArchiveLimits limits;
    limits.maxEntryBytes = 100'000;
    const std::string big = randomBytes(300'000, 1);
    // A raw .gz declares no size: the limit is enforced on the bytes produced.
    CountingSink sink;
    const auto gz = ArchiveReader::fromMemory(ArchiveBuilder(Kind::Gzip).file("data", big).finish(),
                                              "log.txt.gz", limits)
                        .stream(sink);
    ASSERT_FALSE(gz.ok());
    EXPECT_EQ(gz.message(), "log.txt.gz: entry 'log.txt' extracts to more than 100000 bytes, the "
                            "limit per entry; refused");
    EXPECT_LE(sink.bytes, 100'000u);

    const auto declared = ArchiveReader::fromMemory(
                              ArchiveBuilder(Kind::Tar).file("big", big).finish(), "a.tar", limits)
                              .extractToMemory();
    ASSERT_FALSE(declared.ok());
    EXPECT_NE(declared.message().find("declares 300000 bytes"), std::string::npos);

    limits.maxEntryBytes = 1u << 30;
    limits.maxTotalBytes = 500'000;
    const std::string two = ArchiveBuilder(Kind::Zip).file("a", big).file("b", big).finish();
    const auto total = ArchiveReader::fromMemory(two, "two.zip", limits).extractToMemory();
    ASSERT_FALSE(total.ok());
    EXPECT_NE(total.message().find("more than 500000 bytes in all (at entry 'b')"),
              std::string::npos)
        << total.message();
}

TEST(ArchiveReader, LimitsPathLengthAndDepth)
{
    std::string deep;
    for (int i = 0; i < 40; ++i)
        deep += "d/";
    const auto depth =
        ArchiveReader::fromMemory(ArchiveBuilder(Kind::Tar).file(deep + "x.xml", "x").finish())
            .list();
    ASSERT_FALSE(depth.ok());
    EXPECT_NE(depth.message().find("nested 41 deep; the limit is 32"), std::string::npos);

    const auto longName = ArchiveReader::fromMemory(
                              ArchiveBuilder(Kind::Tar).file(std::string(300, 'n'), "x").finish())
                              .list();
    ASSERT_FALSE(longName.ok());
    EXPECT_NE(longName.message().find("name part of 300 bytes"), std::string::npos);
}

TEST(ArchiveReader, RejectsBrokenInputWithAClearError)
{
    std::string zip;
    {
        ArchiveBuilder builder(Kind::Zip);
        for (int i = 0; i < 8; ++i)
            builder.file("r" + std::to_string(i) + ".xml",
                         randomBytes(20'000, static_cast<unsigned>(i)));
        zip = builder.finish();
    }
    const auto truncated =
        ArchiveReader::fromMemory(zip.substr(0, zip.size() / 2), "cut.zip").extractToMemory();
    ASSERT_FALSE(truncated.ok());
    EXPECT_EQ(truncated.message().rfind("cut.zip", 0), 0u) << truncated.message();

    for (const auto& junk : {randomBytes(4096, 7), std::string(), std::string("\x1f\x8bnot gzip"),
                             std::string("\x1f\x8b\x08\0\0\0\0\0\0\x03garbage", 17)}) {
        const auto r = ArchiveReader::fromMemory(junk, "junk.bin").extractToMemory();
        ASSERT_FALSE(r.ok());
        EXPECT_EQ(r.message().rfind("junk.bin", 0), 0u) << r.message();
    }
    const auto missing = ArchiveReader::fromFile("/nonexistent/artifact.zip").list();
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.message().find("/nonexistent/artifact.zip"), std::string::npos);
}

TEST(ArchiveReader, ReadsASingleGzipFile)
{
    TempDir tmp;
    const std::string xml = "<testsuites><testsuite name=\"pytest\"/></testsuites>";
    const std::string gz = ArchiveBuilder(Kind::Gzip).file("data", xml).finish();
    const auto memory = ArchiveReader::fromMemory(gz, "shard-3/report.xml.gz").extractToMemory();
    ASSERT_TRUE(memory.ok()) << memory.message();
    ASSERT_EQ(memory->size(), 1u);
    EXPECT_EQ((*memory)[0].path, "report.xml");
    EXPECT_EQ((*memory)[0].bytes, xml);

    std::ofstream(tmp / "report.XML.GZ", std::ios::binary) << gz;
    const auto report =
        ArchiveReader::fromFile((tmp / "report.XML.GZ").string()).extractTo((tmp / "out").string());
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_EQ(readFile(tmp / "out/report.XML"), xml);
}

TEST(ArchiveReader, ExtractsOnlyFilteredEntriesIntoMemory)
{
    const std::string bytes =
        ArchiveBuilder(Kind::Zip)
            .file("test-reports/python-pytest/test_ops/test_ops-1.xml", "<1/>")
            .file("test-reports/UPPER.XML", "<2/>")
            .file("logs/pytest.log", "log")
            .file("test-reports/nested.xml.gz", "gz")
            .symlink("evil.xml", "/etc/passwd")
            .finish();
    const auto files = ArchiveReader::fromMemory(bytes).extractToMemory(suffixFilter({".xml"}));
    ASSERT_TRUE(files.ok()) << files.message();
    ASSERT_EQ(files->size(), 2u);
    EXPECT_EQ((*files)[0].path, "test-reports/python-pytest/test_ops/test_ops-1.xml");
    EXPECT_EQ((*files)[0].bytes, "<1/>");
    EXPECT_EQ((*files)[1].path, "test-reports/UPPER.XML");

    const auto both = ArchiveReader::fromMemory(bytes).list(suffixFilter({".xml", ".xml.gz"}));
    ASSERT_TRUE(both.ok());
    EXPECT_EQ(both->size(), 4u); // the symlink is listed, with its kind
}

TEST(ArchiveReader, ExtractsOnlyIntoAnEmptyOrNewFolder)
{
    TempDir tmp;
    const std::string bytes = ArchiveBuilder(Kind::Zip).file("a.xml", "<a/>").finish();
    const auto reader = ArchiveReader::fromMemory(bytes);
    fs::create_directories(tmp / "empty");
    EXPECT_TRUE(reader.extractTo((tmp / "empty").string()).ok());
    const auto again = reader.extractTo((tmp / "empty").string());
    ASSERT_FALSE(again.ok());
    EXPECT_NE(again.message().find("not an empty folder"), std::string::npos);
    EXPECT_TRUE(reader.extractTo((tmp / "new/deeper").string()).ok());
    EXPECT_EQ(readFile(tmp / "new/deeper/a.xml"), "<a/>");
}

TEST(ArchiveReader, KeepsTheLastCopyOfARepeatedPath)
{
    TempDir tmp;
    const std::string bytes =
        ArchiveBuilder(Kind::Tar).file("r.xml", "first").file("r.xml", "second").finish();
    const auto report = ArchiveReader::fromMemory(bytes).extractTo((tmp / "out").string());
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_EQ(readFile(tmp / "out/r.xml"), "second");
    EXPECT_EQ(tmp.contents(), (std::vector<std::string>{"out", "out/r.xml"}));
}
