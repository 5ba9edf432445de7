// .gz logs: decompressed once into the cache folder, atomically; corrupt or
// truncated archives give a clear error and leave nothing behind.
#include "log_test_support.h"

#include "relayhud/logs/log_file.h"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <zlib.h>

using namespace relayhud;
using namespace relayhud::testing;

namespace {

std::string gzipped(const std::string& text)
{
    z_stream z{};
    EXPECT_EQ(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    std::string out(deflateBound(&z, static_cast<uLong>(text.size())) + 64, '\0');
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
    z.avail_in = static_cast<uInt>(text.size());
    z.next_out = reinterpret_cast<Bytef*>(out.data());
    z.avail_out = static_cast<uInt>(out.size());
    EXPECT_EQ(deflate(&z, Z_FINISH), Z_STREAM_END);
    out.resize(z.total_out);
    deflateEnd(&z);
    return out;
}

std::size_t filesIn(const std::string& dir)
{
    std::size_t n = 0;
    if (std::filesystem::exists(dir))
        for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir))
            ++n;
    return n;
}

LogOpenOptions inCache(const TempDir& dir)
{
    LogOpenOptions o;
    o.cacheDir = dir.path("cache");
    return o;
}

TEST(LogGz, DecompressesOnceIntoTheCache)
{
    TempDir dir;
    const std::string text = generatedLog(5000);
    const auto path = dir.write("job.log.gz", gzipped(text));
    auto first = openIndexed(path, inCache(dir));
    ASSERT_TRUE(first);
    EXPECT_TRUE(first->wasCompressed());
    EXPECT_NE(first->dataPath(), path);
    EXPECT_EQ(readWholeFile(first->dataPath()), text);
    EXPECT_EQ(allLines(*first), referenceLines(text));
    EXPECT_EQ(first->refresh(), RefreshResult::NotFollowable);

    const auto cached = first->dataPath();
    const auto stamp = std::filesystem::last_write_time(cached);
    auto second = openIndexed(path, inCache(dir));
    ASSERT_TRUE(second);
    EXPECT_EQ(second->dataPath(), cached);
    EXPECT_EQ(std::filesystem::last_write_time(cached), stamp);
    EXPECT_EQ(filesIn(dir.path("cache")), 1U);
}

// 64 MiB of one byte gzips to ~64 KiB: past 250:1 after the 16 MiB grace, a
// bomb, refused before the cache folder holds more than the grace.
TEST(LogGz, AGzipBombIsRefusedAndLeavesNothing)
{
    TempDir dir;
    const auto path = dir.write("bomb.log.gz", gzipped(std::string(64u << 20, 'a')));
    auto log = LogFile::open(path, inCache(dir));
    ASSERT_FALSE(log);
    EXPECT_NE(log.message().find("inflates more than 250 times its size (a gzip bomb?)"),
              std::string::npos)
        << log.message();
    EXPECT_EQ(filesIn(dir.path("cache")), 0U);
}

// The copies stay under the cap: opening a third drops the least recently
// opened, never the one being opened.
TEST(LogGz, TheCopiesStayUnderTheCapLeastRecentlyOpenedFirst)
{
    TempDir dir;
    LogOpenOptions options = inCache(dir);
    const std::string text = generatedLog(2000);
    options.cacheCapBytes = 2 * text.size() + 100; // room for two copies
    std::vector<std::string> copies;
    for (const char* name : {"a.log.gz", "b.log.gz"}) {
        auto log = openIndexed(dir.write(name, gzipped(text + name)), options);
        ASSERT_TRUE(log);
        copies.push_back(log->dataPath());
    }
    // a is opened again: b is now the least recently opened.
    const timespec past[2] = {{1'000'000, 0}, {0, UTIME_OMIT}};
    ASSERT_EQ(::utimensat(AT_FDCWD, copies[1].c_str(), past, 0), 0);
    ASSERT_TRUE(openIndexed(dir.path("a.log.gz"), options));
    auto c = openIndexed(dir.write("c.log.gz", gzipped(text + "c")), options);
    ASSERT_TRUE(c);
    EXPECT_TRUE(std::filesystem::exists(copies[0]));
    EXPECT_FALSE(std::filesystem::exists(copies[1]));
    EXPECT_TRUE(std::filesystem::exists(c->dataPath()));
    EXPECT_EQ(filesIn(dir.path("cache")), 2U);
}

TEST(LogGz, ConcatenatedMembersAreOneLog)
{
    TempDir dir;
    const auto path = dir.write("two.gz", gzipped("first\n") + gzipped("second\n"));
    auto log = openIndexed(path, inCache(dir));
    ASSERT_TRUE(log);
    EXPECT_EQ(allLines(*log), (std::vector<std::string>{"first", "second"}));
}

TEST(LogGz, CorruptArchiveIsAClearErrorAndLeavesNothing)
{
    TempDir dir;
    std::string bytes = gzipped(generatedLog(2000));
    for (std::size_t i = 20; i < bytes.size(); i += 7)
        bytes[i] = static_cast<char>(bytes[i] ^ 0x5A);
    auto log = LogFile::open(dir.write("bad.gz", bytes), inCache(dir));
    ASSERT_FALSE(log.ok());
    EXPECT_NE(log.message().find("not a valid gzip file"), std::string::npos) << log.message();
    EXPECT_EQ(filesIn(dir.path("cache")), 0U);
}

TEST(LogGz, TruncatedArchiveIsAClearError)
{
    TempDir dir;
    const std::string bytes = gzipped(generatedLog(20000));
    auto log = LogFile::open(dir.write("cut.gz", bytes.substr(0, bytes.size() / 2)), inCache(dir));
    ASSERT_FALSE(log.ok());
    EXPECT_NE(log.message().find("truncated"), std::string::npos) << log.message();
    EXPECT_EQ(filesIn(dir.path("cache")), 0U);
}

TEST(LogGz, GzipMagicAloneIsAnError)
{
    TempDir dir;
    auto log = LogFile::open(dir.write("magic.gz", std::string("\x1f\x8b", 2)), inCache(dir));
    ASSERT_FALSE(log.ok());
    EXPECT_NE(log.message().find("not a valid gzip file"), std::string::npos) << log.message();
}

} // namespace
