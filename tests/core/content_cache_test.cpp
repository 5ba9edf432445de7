#include "relayhud/store/content_cache.h"
#include "test_files.h"

#include <gtest/gtest.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <thread>

#include <sys/resource.h>
#include <sys/stat.h>

using namespace relayhud;
namespace fs = std::filesystem;

namespace {

using relayhud::test::readFile;

constexpr const char* kHelloHash =
    "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824";

class CacheDir {
public:
    CacheDir()
        : m_path(fs::temp_directory_path()
                 / ("relayhud-content-cache-test-"
                    + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name())))
    {
        fs::remove_all(m_path);
    }
    ~CacheDir() { fs::remove_all(m_path); }
    std::string root() const { return (m_path / "blobs").string(); }
    ContentCache open(std::uint64_t cap = ContentCache::kDefaultCapBytes) const
    {
        auto cache = ContentCache::open(root(), cap);
        EXPECT_TRUE(cache.ok()) << cache.message();
        return std::move(cache).value();
    }
    // Every file under the cache root, relative.
    std::vector<std::string> files() const
    {
        std::vector<std::string> names;
        for (const auto& e : fs::recursive_directory_iterator(root()))
            if (e.is_regular_file())
                names.push_back(fs::relative(e.path(), root()).string());
        std::sort(names.begin(), names.end());
        return names;
    }

private:
    fs::path m_path;
};

std::string putOk(ContentCache& cache, const std::string& bytes)
{
    auto hash = cache.put(bytes);
    EXPECT_TRUE(hash.ok()) << hash.message();
    return hash.ok() ? *hash : std::string();
}

void setAge(const std::string& path, int seconds)
{
    const auto when = fs::file_time_type::clock::now() - std::chrono::seconds(seconds);
    fs::last_write_time(path, when);
}

} // namespace

TEST(ContentCache, PutsAndFindsBlobsByContentHash)
{
    CacheDir dir;
    auto cache = dir.open();
    EXPECT_EQ(contentHash("hello"), kHelloHash);
    EXPECT_EQ(putOk(cache, "hello"), kHelloHash);
    EXPECT_EQ(putOk(cache, "hello"), kHelloHash); // stored once
    EXPECT_TRUE(cache.has(kHelloHash));
    const auto path = cache.path(kHelloHash);
    ASSERT_TRUE(path);
    EXPECT_EQ(*path, dir.root() + "/2c/" + kHelloHash);
    EXPECT_EQ(readFile(*path), "hello");
    EXPECT_EQ(dir.files(), std::vector<std::string>{std::string("2c/") + kHelloHash});

    EXPECT_FALSE(cache.has(contentHash("other")));
    EXPECT_FALSE(cache.path(contentHash("other")));
    EXPECT_FALSE(cache.has("../../etc/passwd"));
    EXPECT_FALSE(cache.path(std::string(kHelloHash).substr(0, 63) + "/"));
    auto total = cache.totalBytes();
    ASSERT_TRUE(total.ok());
    EXPECT_EQ(*total, 5u);
}

TEST(ContentCache, MovesADownloadedFileIn)
{
    CacheDir dir;
    auto cache = dir.open();
    const std::string download = cache.tempDir() + "/artifact-123.zip.part";
    std::ofstream(download, std::ios::binary) << "zip bytes";
    const auto hash = cache.putFile(download);
    ASSERT_TRUE(hash.ok()) << hash.message();
    EXPECT_EQ(*hash, contentHash("zip bytes"));
    EXPECT_FALSE(fs::exists(download));
    EXPECT_EQ(readFile(*cache.path(*hash)), "zip bytes");

    std::ofstream(download, std::ios::binary) << "zip bytes";
    EXPECT_EQ(*cache.putFile(download), *hash); // already there: the copy is dropped
    EXPECT_FALSE(fs::exists(download));
    EXPECT_FALSE(cache.putFile(cache.tempDir() + "/missing").ok());
    EXPECT_FALSE(cache.putFile(cache.tempDir()).ok()); // a folder
}

TEST(ContentCache, EvictsLeastRecentlyUsedFirstAcrossRestarts)
{
    CacheDir dir;
    auto cache = dir.open(3000);
    const std::string a = putOk(cache, std::string(1000, 'a'));
    const std::string b = putOk(cache, std::string(1000, 'b'));
    const std::string c = putOk(cache, std::string(1000, 'c'));
    ASSERT_TRUE(cache.path(a)); // a is now the most recently used
    const std::string d = putOk(cache, std::string(1000, 'd'));

    auto report = cache.evictToFit();
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_EQ(report->removedBlobs, 1u);
    EXPECT_EQ(report->removedBytes, 1000u);
    EXPECT_EQ(report->remainingBytes, 3000u);
    EXPECT_TRUE(cache.has(a));
    EXPECT_FALSE(cache.has(b));
    EXPECT_TRUE(cache.has(c));
    EXPECT_TRUE(cache.has(d));

    ASSERT_TRUE(cache.path(c));    // order of use now: a, d, c
    auto smaller = dir.open(2000); // a restart with a lower cap
    report = smaller.evictToFit();
    ASSERT_TRUE(report.ok()) << report.message();
    EXPECT_EQ(report->removedBlobs, 1u);
    EXPECT_FALSE(smaller.has(a));
    EXPECT_TRUE(smaller.has(c));
    EXPECT_TRUE(smaller.has(d));
    EXPECT_EQ(*smaller.totalBytes(), 2000u);

    report = smaller.evictToFit(); // within the cap: nothing to do
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report->removedBlobs, 0u);
}

TEST(ContentCache, KeepsBlobsAndUrlRecordsAcrossRestarts)
{
    CacheDir dir;
    const std::string url = "https://api.github.com/repos/torch-spyre/torch-spyre/actions/"
                            "artifacts/42/zip";
    std::string hash;
    {
        auto cache = dir.open();
        hash = putOk(cache, "artifact");
        ASSERT_TRUE(
            cache.recordUrl(url, {hash, "W/\"abc\"", "Tue, 04 May 2026 20:48:28 GMT"}).ok());
    }
    auto reopened = dir.open();
    EXPECT_TRUE(reopened.has(hash));
    const auto record = reopened.lookupUrl(url);
    ASSERT_TRUE(record);
    EXPECT_EQ(record->hash, hash);
    EXPECT_EQ(record->etag, "W/\"abc\"");
    EXPECT_EQ(record->lastModified, "Tue, 04 May 2026 20:48:28 GMT");
    EXPECT_EQ(*reopened.totalBytes(), 8u); // records are not blobs
}

TEST(ContentCache, UrlIndexFollowsTheBlobs)
{
    CacheDir dir;
    auto cache = dir.open(0);
    const std::string url = "https://bucket.example/runs/7/report.xml.gz?X-Amz-Signature=abc";
    EXPECT_FALSE(cache.lookupUrl(url));
    const auto missing = cache.recordUrl(url, {contentHash("never stored"), "e1", ""});
    ASSERT_FALSE(missing.ok());
    EXPECT_NE(missing.message().find("is not in the cache"), std::string::npos);

    const std::string first = putOk(cache, "v1");
    const std::string second = putOk(cache, "v2");
    ASSERT_TRUE(cache.recordUrl(url, {first, "e1", ""}).ok());
    ASSERT_TRUE(cache.recordUrl(url, {second, "e2", ""}).ok()); // the URL changed content
    EXPECT_EQ(cache.lookupUrl(url)->etag, "e2");
    EXPECT_FALSE(cache.lookupUrl(url + "&other=1"));

    // Cap 0: everything goes, and with the blob its validators.
    ASSERT_TRUE(cache.evictToFit().ok());
    EXPECT_FALSE(cache.lookupUrl(url));
    EXPECT_TRUE(dir.files().empty());
}

TEST(ContentCache, LeavesNoTempFilesAndNothingFromAFailedWrite)
{
    CacheDir dir;
    auto cache = dir.open();
    for (int i = 0; i < 20; ++i)
        putOk(cache, "blob " + std::to_string(i));
    for (const auto& name : dir.files())
        EXPECT_EQ(name.find(".relayhud-tmp"), std::string::npos) << name;
    EXPECT_EQ(dir.files().size(), 20u);

    // A real failed write: the file size limit makes write() fail with EFBIG
    // half-way through the blob.
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    rlimit small = saved;
    small.rlim_cur = 64 * 1024;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    const auto failed = cache.put(std::string(1 << 20, 'x'));
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &saved), 0);
    std::signal(SIGXFSZ, SIG_DFL);

    ASSERT_FALSE(failed.ok());
    EXPECT_NE(failed.message().find("cannot write"), std::string::npos) << failed.message();
    EXPECT_FALSE(cache.has(contentHash(std::string(1 << 20, 'x'))));
    EXPECT_EQ(dir.files().size(), 20u); // the blobs from before, and nothing else
}

TEST(ContentCache, StaysConsistentUnderConcurrentPutsAndEvictions)
{
    // Separate instances on one root, as separate processes would have.
    CacheDir dir;
    dir.open();
    std::vector<std::thread> workers;
    for (int w = 0; w < 4; ++w)
        workers.emplace_back([&dir] {
            auto cache = dir.open(20'000);
            for (int i = 0; i < 60; ++i) {
                const auto hash = cache.put(std::string(1000, static_cast<char>('a' + i % 26))
                                            + std::to_string(i));
                EXPECT_TRUE(hash.ok()) << hash.message();
                if (i % 10 == 9) {
                    EXPECT_TRUE(cache.evictToFit().ok());
                }
            }
        });
    for (auto& worker : workers)
        worker.join();
    auto cache = dir.open(20'000);
    for (const auto& name : dir.files()) {
        EXPECT_EQ(name.find(".relayhud-tmp"), std::string::npos) << name;
        EXPECT_TRUE(cache.verify(fs::path(name).filename().string()).ok()) << name;
    }
    ASSERT_TRUE(cache.evictToFit().ok());
    EXPECT_LE(*cache.totalBytes(), 20'000u);
}

TEST(ContentCache, DetectsAndRemovesACorruptedBlob)
{
    CacheDir dir;
    auto cache = dir.open();
    const std::string hash = putOk(cache, "<testsuites tests=\"3\"/>");
    EXPECT_TRUE(cache.verify(hash).ok());
    std::ofstream(*cache.path(hash), std::ios::binary | std::ios::trunc)
        << "<testsuites tests=\"0\"/>";

    const auto verdict = cache.verify(hash);
    ASSERT_FALSE(verdict.ok());
    EXPECT_NE(verdict.message().find("cached blob " + hash + " was damaged"), std::string::npos)
        << verdict.message();
    EXPECT_FALSE(cache.has(hash));
    EXPECT_NE(cache.verify(hash).message().find("is not in the cache"), std::string::npos);
}

TEST(ContentCache, SweepsTempFilesLeftByCrashedWriters)
{
    CacheDir dir;
    auto cache = dir.open();
    const std::string hash = putOk(cache, "kept");
    const std::string fanOut = dir.root() + "/" + hash.substr(0, 2);
    for (const auto& name :
         {fanOut + "/.relayhud-tmp-1-0-0", dir.root() + "/urls/.relayhud-tmp-2-0-0",
          cache.tempDir() + "/stale.part", fanOut + "/.relayhud-tmp-3-0-0",
          cache.tempDir() + "/fresh.part"})
        std::ofstream(name) << "partial";
    setAge(fanOut + "/.relayhud-tmp-1-0-0", 7200);
    setAge(dir.root() + "/urls/.relayhud-tmp-2-0-0", 7200);
    setAge(cache.tempDir() + "/stale.part", 7200);

    EXPECT_EQ(*cache.totalBytes(), 4u); // temp files are not blobs
    ASSERT_TRUE(cache.evictToFit().ok());
    EXPECT_EQ(dir.files(),
              (std::vector<std::string>{hash.substr(0, 2) + "/.relayhud-tmp-3-0-0",
                                        hash.substr(0, 2) + "/" + hash, "tmp/fresh.part"}));
}

// A killed import leaves its staging folder (links to blobs) in tmp/: swept
// after a day, the blobs it linked kept; a running import's folder stays.
TEST(ContentCache, SweepsStagingFoldersLeftByKilledImports)
{
    CacheDir dir;
    auto cache = dir.open();
    const std::string hash = putOk(cache, "kept");
    const std::string stale = cache.tempDir() + "/import-AbC123";
    const std::string running = cache.tempDir() + "/import-XyZ789";
    for (const auto& folder : {stale, running}) {
        fs::create_directories(folder);
        fs::create_hard_link(*cache.path(hash), folder + "/report.zip");
    }
    setAge(stale, 2 * 86400);
    setAge(running, 7200); // an hour past a temp file's limit: still running
    ASSERT_TRUE(cache.evictToFit().ok());
    EXPECT_FALSE(fs::exists(stale));
    EXPECT_TRUE(fs::exists(running + "/report.zip"));
    EXPECT_TRUE(cache.has(hash));
}
