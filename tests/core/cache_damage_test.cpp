// A damaged cache is refused, never read as a short answer (issue 35): a
// probe flipped two bytes of one page and `suggest --failed` printed 1,931
// rows of 1,933 with exit 0. Here every page of a cache of 3,000 failed
// results is damaged in turn the same way; each open either refuses with
// "damaged" or reads every result. A cleanly closed cache is stamped and
// opens without the check; a step that meets damage says what to do.
#include "relayhud/results/report_import.h"
#include "relayhud/store/test_result_store.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

namespace relayhud {
namespace {

using testing::ScratchDir;

constexpr int kFailed = 3000;
constexpr std::int64_t kPage = 4096;

std::string failedReport()
{
    std::string xml = "<testsuite name=\"s\" tests=\"" + std::to_string(kFailed) + "\" failures=\""
                      + std::to_string(kFailed) + "\">";
    for (int i = 0; i < kFailed; ++i)
        xml += "<testcase classname=\"test_ops.TestOps\" name=\"test_case_" + std::to_string(i)
               + "\" file=\"test_ops.py\"><failure message=\"boom " + std::to_string(i % 7)
               + "\">trace</failure></testcase>";
    return xml + "</testsuite>";
}

// Imports the report into a new cache at `path`; the test run's id.
TestRunId importFailures(const ScratchDir& dir, const std::string& path)
{
    auto cache = relayhud::testing::openTestCache(path);
    EXPECT_TRUE(cache) << (cache ? "" : cache.message());
    const std::string report = dir.write("r.xml", failedReport());
    auto writer = TestResultStore(**cache).beginTestRun(
        TestRunOrigin{std::nullopt, TestRunSource::Import, "r.xml", report});
    EXPECT_TRUE(writer) << (writer ? "" : writer.message());
    auto summary = importReports({report}, **writer);
    EXPECT_TRUE(summary) << (summary ? "" : summary.message());
    auto id = (*writer)->commit(summary->totals);
    EXPECT_TRUE(id) << (id ? "" : id.message());
    return id ? *id : TestRunId{};
}

// Two bytes at offset 3 of page `page` (0-based): a leaf's first freeblock
// pointer, the kind of damage a read can walk past without an error.
void damagePage(const std::string& path, std::int64_t page)
{
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    file.seekp(page * kPage + 3);
    file.write("\0\0", 2);
}

TEST(CacheDamage, EveryDamagedPageIsRefusedOrReadWhole)
{
    const ScratchDir dir("damage");
    const std::string clean = dir.file("clean.sqlite");
    const TestRunId run = importFailures(dir, clean);
    ASSERT_TRUE(run);
    ASSERT_TRUE(std::filesystem::exists(clean + "-closed")) << "a clean close leaves its stamp";
    const auto pages = static_cast<std::int64_t>(std::filesystem::file_size(clean)) / kPage;
    ASSERT_GT(pages, 20);
    int refused = 0;
    for (std::int64_t page = 1; page < pages; ++page) {
        const std::string copy = dir.file("copy.sqlite");
        std::filesystem::copy_file(clean, copy, std::filesystem::copy_options::overwrite_existing);
        damagePage(copy, page);
        auto cache = relayhud::testing::openTestCache(copy);
        if (!cache) {
            EXPECT_NE(cache.message().find("is damaged"), std::string::npos) << cache.message();
            ++refused;
            continue;
        }
        auto results = TestResultStore(**cache).testResults(run);
        if (results)
            EXPECT_EQ(results->size(), static_cast<std::size_t>(kFailed))
                << "page " << page << " gave a short answer";
        else
            EXPECT_NE(results.message().find("damaged"), std::string::npos) << results.message();
    }
    EXPECT_GT(refused, pages / 2) << "the check found most damaged pages before any read";
}

TEST(CacheDamage, ACleanCloseIsTrustedAndAnyLaterChangeIsChecked)
{
    const ScratchDir dir("damage");
    const std::string path = dir.file("c.sqlite");
    const TestRunId run = importFailures(dir, path);
    ASSERT_TRUE(run);
    { // Opened and closed again: still stamped, nothing changed.
        auto cache = relayhud::testing::openTestCache(path);
        ASSERT_TRUE(cache) << cache.message();
    }
    ASSERT_TRUE(std::filesystem::exists(path + "-closed"));

    // Another program writes into it (the stamp no longer matches): checked.
    const std::string copy = dir.file("d.sqlite");
    std::filesystem::copy_file(path, copy);
    const auto pages = static_cast<std::int64_t>(std::filesystem::file_size(copy)) / kPage;
    {
        std::fstream file(copy, std::ios::binary | std::ios::in | std::ios::out);
        file.seekp(pages / 2 * kPage);
        file.write(std::string(static_cast<std::size_t>(kPage), '\x5a').data(), kPage);
    }
    std::filesystem::copy_file(path + "-closed", copy + "-closed");
    auto damaged = relayhud::testing::openTestCache(copy);
    ASSERT_FALSE(damaged) << "a file changed after its clean close is checked on open";
    EXPECT_NE(damaged.message().find("quick_check"), std::string::npos) << damaged.message();
    EXPECT_NE(damaged.message().find(".recover"), std::string::npos) << damaged.message();
}

TEST(CacheDamage, AFileReplacedWhileOpenIsCheckedAtTheNextOpen)
{
    const ScratchDir dir("damage");
    const std::string path = dir.file("c.sqlite");
    ASSERT_TRUE(importFailures(dir, path));
    auto first = relayhud::testing::openTestCache(path);
    ASSERT_TRUE(first) << first.message(); // trusted while it is open...
    // ...but a damaged copy moved over its name is another file.
    const std::string copy = dir.file("copy.sqlite");
    std::filesystem::copy_file(path, copy);
    const auto pages = static_cast<std::int64_t>(std::filesystem::file_size(copy)) / kPage;
    {
        std::fstream file(copy, std::ios::binary | std::ios::in | std::ios::out);
        file.seekp(pages / 2 * kPage);
        file.write(std::string(static_cast<std::size_t>(kPage), '\x5a').data(), kPage);
    }
    std::filesystem::rename(copy, path);
    auto second = relayhud::testing::openTestCache(path);
    ASSERT_FALSE(second) << "the file under the name changed: it is checked";
    EXPECT_NE(second.message().find("is damaged"), std::string::npos) << second.message();
}

TEST(CacheDamage, AFifoInPlaceOfTheStampIsNotWaitedOn)
{
    const ScratchDir dir("damage");
    const std::string path = dir.file("c.sqlite");
    const TestRunId run = importFailures(dir, path);
    ASSERT_TRUE(run);
    std::filesystem::remove(path + "-closed");
    ASSERT_EQ(::mkfifo((path + "-closed").c_str(), 0600), 0);
    {
        auto cache = relayhud::testing::openTestCache(path); // checks the file instead of blocking
        ASSERT_TRUE(cache) << cache.message();
        auto results = TestResultStore(**cache).testResults(run);
        ASSERT_TRUE(results) << results.message();
        EXPECT_EQ(results->size(), static_cast<std::size_t>(kFailed));
    }
    EXPECT_TRUE(std::filesystem::is_regular_file(path + "-closed")) << "a real stamp replaced it";
}

TEST(CacheDamage, AStepThatMeetsDamageSaysSoAndTheNextOpenChecks)
{
    const ScratchDir dir("damage");
    const std::string path = dir.file("c.sqlite");
    const TestRunId run = importFailures(dir, path);
    ASSERT_TRUE(run);
    auto cache = relayhud::testing::openTestCache(path);
    ASSERT_TRUE(cache) << cache.message();
    // Damage under an open cache, as a failing disk would: overwrite the
    // result table's pages with garbage behind SQLite's back.
    const auto pages = static_cast<std::int64_t>(std::filesystem::file_size(path)) / kPage;
    {
        std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
        const std::string garbage(static_cast<std::size_t>(kPage), '\x5a');
        for (std::int64_t page = 2; page < pages; ++page) {
            file.seekp(page * kPage);
            file.write(garbage.data(), static_cast<std::streamsize>(garbage.size()));
        }
    }
    auto results = TestResultStore(**cache).testResults(run);
    ASSERT_FALSE(results) << "damaged pages give an error, not " << results->size() << " results";
    EXPECT_NE(results.message().find("is damaged: move it aside"), std::string::npos)
        << results.message();
    EXPECT_FALSE(std::filesystem::exists(path + "-closed")) << "the next open checks";
    cache->reset();
    EXPECT_FALSE(std::filesystem::exists(path + "-closed")) << "a damaged file is never stamped";
    EXPECT_FALSE(relayhud::testing::openTestCache(path)) << "and the next open refuses it";
}

} // namespace
} // namespace relayhud
