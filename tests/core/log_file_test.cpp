// LogFile: the line index and line reading, on ordinary and hostile files.
#include "log_test_support.h"

#include "relayhud/logs/log_file.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>

#include <unistd.h>

using namespace relayhud;
using namespace relayhud::testing;

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start)
{
    return std::chrono::duration<double>(Clock::now() - start).count();
}

void expectSameLines(const LogFile& log, const std::vector<std::string>& expected)
{
    ASSERT_EQ(log.lineCount(), expected.size());
    const auto got = allLines(log);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i)
        ASSERT_EQ(got[i], expected[i]) << "line " << i;
}

TEST(LogFile, SplitsLinesLikeGithubsViewer)
{
    TempDir dir;
    const std::string text = "unix\nwindows\r\nold mac\rlast\r\n\n\r\rtail";
    auto log = openIndexed(dir.write("mixed.log", text));
    ASSERT_TRUE(log);
    expectSameLines(*log, {"unix", "windows", "old mac", "last", "", "", "", "tail"});
}

TEST(LogFile, CarriageReturnOnlyFile)
{
    TempDir dir;
    auto log = openIndexed(dir.write("cr.log", "one\rtwo\rthree\r"));
    ASSERT_TRUE(log);
    expectSameLines(*log, {"one", "two", "three"});
}

TEST(LogFile, EmptyFileHasNoLines)
{
    TempDir dir;
    auto log = openIndexed(dir.write("empty.log", ""));
    ASSERT_TRUE(log);
    EXPECT_EQ(log->lineCount(), 0U);
    EXPECT_TRUE(log->progress().finished);
    auto lines = log->lines(LineNumber{0}, 10);
    ASSERT_TRUE(lines.ok());
    EXPECT_TRUE(lines->empty());
    EXPECT_FALSE(log->line(LineNumber{0}).ok());
}

TEST(LogFile, NulBytesAreOrdinaryBytes)
{
    TempDir dir;
    const std::string text("a\0b\n\0\0\nc\0", 9);
    auto log = openIndexed(dir.write("nul.log", text));
    ASSERT_TRUE(log);
    expectSameLines(*log, {std::string("a\0b", 3), std::string("\0\0", 2), std::string("c\0", 2)});
}

// Terminators on every side of the indexer's 512 KiB chunks and 4 KiB cells:
// the engine's lines must equal the reference splitter's everywhere.
TEST(LogFile, RandomLinesAcrossChunkBoundaries)
{
    TempDir dir;
    std::mt19937 rng(7);
    std::string text;
    const char* breaks[] = {"\n", "\r\n", "\r"};
    while (text.size() < 3 * 512 * 1024 + 777) {
        const std::size_t length = rng() % 7 == 0 ? rng() % 9000 : rng() % 120;
        text.append(length, static_cast<char>('a' + rng() % 26));
        text += breaks[rng() % 3];
    }
    // Put "\r\n" right across the first chunk boundary.
    text[512 * 1024 - 1] = '\r';
    text[512 * 1024] = '\n';
    const auto path = dir.write("random.log", text);
    const auto expected = referenceLines(text);
    for (unsigned threads : {1U, 2U, 3U}) {
        LogOpenOptions options;
        options.indexThreads = threads;
        auto log = openIndexed(path, options);
        ASSERT_TRUE(log);
        expectSameLines(*log, expected);
    }
}

TEST(LogFile, ReadsAnyWindowDirectly)
{
    TempDir dir;
    const std::string text = generatedLog(20000);
    auto log = openIndexed(dir.write("gen.log", text));
    ASSERT_TRUE(log);
    const auto expected = referenceLines(text);
    std::mt19937 rng(3);
    for (int round = 0; round < 200; ++round) {
        const std::uint64_t first = rng() % expected.size();
        auto lines = log->lines(LineNumber{first}, 60);
        ASSERT_TRUE(lines.ok()) << lines.message();
        ASSERT_EQ(lines->size(), std::min<std::size_t>(60, expected.size() - first));
        for (std::size_t i = 0; i < lines->size(); ++i) {
            EXPECT_EQ((*lines)[i].number.value, first + i);
            EXPECT_EQ((*lines)[i].bytes, expected[first + i]);
            EXPECT_FALSE((*lines)[i].truncated());
        }
    }
}

TEST(LogFile, IndexTakesUnderTwoPercentOfTheFile)
{
    TempDir dir;
    std::string text;
    // Short lines are the hard case for an index of line starts.
    for (int i = 0; i < 2'000'000; ++i)
        text += i % 3 ? "2026-07-29T23:58:10.4613408Z \n" : "ok\n";
    auto log = openIndexed(dir.write("short-lines.log", text));
    ASSERT_TRUE(log);
    EXPECT_EQ(log->lineCount(), 2'000'000U);
    const double ratio =
        static_cast<double>(log->indexMemoryBytes()) / static_cast<double>(text.size());
    EXPECT_LE(ratio, 0.02) << log->indexMemoryBytes() << " bytes for " << text.size();
    std::printf("index: %zu bytes for %zu bytes of log (%.3f%%)\n", log->indexMemoryBytes(),
                text.size(), ratio * 100);
}

// A single 100 MB line: opened, indexed and shown cut at the cap quickly,
// without reading or allocating the whole line for display.
TEST(LogFile, HundredMegabyteLineIsCutWithAMarker)
{
    TempDir dir;
    std::string text = "before\n";
    text.append(100u << 20, 'x');
    text += "\nafter\n";
    const auto path = dir.write("long.log", text);
    text.clear();
    text.shrink_to_fit();
    const auto start = Clock::now();
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    auto lines = log->lines(LineNumber{0}, 3);
    const double seconds = secondsSince(start);
    ASSERT_TRUE(lines.ok()) << lines.message();
    ASSERT_EQ(lines->size(), 3U);
    EXPECT_EQ((*lines)[0].bytes, "before");
    EXPECT_TRUE((*lines)[1].truncated());
    EXPECT_EQ((*lines)[1].length, 100u << 20);
    EXPECT_EQ((*lines)[1].bytes.size(), LogOpenOptions{}.maxLineBytes);
    EXPECT_EQ((*lines)[2].bytes, "after");
    EXPECT_LT(seconds, 3.0);
    // Repaints read at most the cap.
    const auto repaint = Clock::now();
    for (int i = 0; i < 100; ++i)
        ASSERT_TRUE(log->lines(LineNumber{1}, 1).ok());
    EXPECT_LT(secondsSince(repaint), 1.0);
}

TEST(LogFile, CapCutsAtACharacterBoundary)
{
    TempDir dir;
    std::string line;
    for (int i = 0; i < 100; ++i)
        line += "\xC3\xA9"; // é, two bytes
    auto log = openIndexed(dir.write("utf8.log", line + "\n"));
    ASSERT_TRUE(log);
    auto cut = log->line(LineNumber{0}, 7);
    ASSERT_TRUE(cut.ok());
    EXPECT_EQ(cut->bytes, "\xC3\xA9\xC3\xA9\xC3\xA9");
    EXPECT_TRUE(cut->truncated());
    EXPECT_EQ(cut->length, 200U);
}

TEST(LogFile, LinesAreReadableWhileIndexing)
{
    TempDir dir;
    const std::string text = generatedLog(600000); // ~60 MB: many chunks
    const auto expected = referenceLines(text);
    const auto path = dir.write("big.log", text);
    std::atomic<int> checkedDuringIndexing{0};
    std::atomic<bool> mismatch{false};
    std::shared_ptr<LogFile> log;
    std::atomic<LogFile*> raw{nullptr};
    LogOpenOptions options;
    options.indexThreads = 1;
    options.onProgress = [&](const IndexProgress& p) {
        if (p.finished || p.lineCount == 0)
            return;
        // open() returns before the index is done but may return after the
        // first chunks are reported; hold the indexing thread until the
        // pointer is published, so a fast machine cannot index the whole
        // file before any check runs.
        LogFile* f = raw.load();
        while (!f) {
            std::this_thread::yield();
            f = raw.load();
        }
        // Called on the indexing thread, so the index is mid-way for sure.
        auto lines = f->lines(LineNumber{p.lineCount - 1}, 1);
        if (!lines.ok() || lines->size() != 1 || lines->front().bytes != expected[p.lineCount - 1])
            mismatch = true;
        ++checkedDuringIndexing;
    };
    auto opened = LogFile::open(path, options);
    ASSERT_TRUE(opened.ok());
    log = *opened;
    raw = log.get();
    // A reader on another thread, too.
    while (log->indexing()) {
        const std::uint64_t n = log->lineCount();
        if (n > 0) {
            auto lines = log->lines(LineNumber{n - 1}, 1);
            ASSERT_TRUE(lines.ok());
            ASSERT_EQ(lines->size(), 1U);
            ASSERT_EQ(lines->front().bytes, expected[n - 1]);
        }
    }
    log->waitForIndex();
    EXPECT_FALSE(mismatch);
    EXPECT_GT(checkedDuringIndexing.load(), 0);
    EXPECT_EQ(log->lineCount(), expected.size());
}

TEST(LogFile, FollowsAGrowingFile)
{
    TempDir dir;
    std::string text = generatedLog(3000);
    const auto path = dir.write("tail.log", text);
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    EXPECT_EQ(log->refresh(), RefreshResult::Unchanged);
    // A partial line, then its end; a '\r' whose '\n' arrives later.
    for (const std::string& piece : {std::string("partial"), std::string(" line\r"),
                                     std::string("\nnext\n"), generatedLog(5000)}) {
        text += piece;
        dir.append("tail.log", piece);
        EXPECT_EQ(log->refresh(), RefreshResult::Grown);
        log->waitForIndex();
        expectSameLines(*log, referenceLines(text));
    }
}

TEST(LogFile, TruncatedWhileOpenGivesAClearErrorThenReindexes)
{
    TempDir dir;
    const std::string text = generatedLog(50000);
    const auto path = dir.write("trunc.log", text);
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    ASSERT_EQ(::truncate(path.c_str(), 1000), 0);
    auto beyond = log->lines(LineNumber{40000}, 10);
    ASSERT_FALSE(beyond.ok());
    EXPECT_NE(beyond.message().find("truncated"), std::string::npos) << beyond.message();
    EXPECT_EQ(log->refresh(), RefreshResult::Truncated);
    log->waitForIndex();
    expectSameLines(*log, referenceLines(text.substr(0, 1000)));
}

TEST(LogFile, TruncatedDuringIndexingDoesNotCrash)
{
    TempDir dir;
    const std::string text = generatedLog(400000);
    const auto path = dir.write("trunc2.log", text);
    auto log = LogFile::open(path);
    ASSERT_TRUE(log.ok());
    ASSERT_EQ(::truncate(path.c_str(), 5000), 0);
    (*log)->waitForIndex();
    // Either the indexer saw the short file or it stopped with a reason.
    const auto p = (*log)->progress();
    EXPECT_TRUE(p.finished || !p.error.empty());
    const auto refreshed = (*log)->refresh();
    EXPECT_TRUE(refreshed == RefreshResult::Truncated || refreshed == RefreshResult::Replaced
                || refreshed == RefreshResult::Unchanged);
    (*log)->waitForIndex();
    expectSameLines(**log, referenceLines(text.substr(0, 5000)));
}

TEST(LogFile, DeletedWhileOpenStaysReadable)
{
    TempDir dir;
    const std::string text = generatedLog(10000);
    const auto path = dir.write("gone.log", text);
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    ASSERT_EQ(::unlink(path.c_str()), 0);
    EXPECT_EQ(log->refresh(), RefreshResult::Deleted);
    expectSameLines(*log, referenceLines(text));
}

TEST(LogFile, ReplacedFileIsIndexedAgain)
{
    TempDir dir;
    const auto path = dir.write("rotate.log", generatedLog(2000));
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    const std::string fresh = "new file\nwith two lines\n";
    const auto other = dir.write("other.log", fresh);
    ASSERT_EQ(::rename(other.c_str(), path.c_str()), 0);
    EXPECT_EQ(log->refresh(), RefreshResult::Replaced);
    log->waitForIndex();
    expectSameLines(*log, referenceLines(fresh));
}

TEST(LogFile, RewrittenInPlaceIsIndexedAgain)
{
    TempDir dir;
    const auto path = dir.write("inplace.log", "aaaa\nbbbb\n");
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    const std::string fresh = "cccc\ndddd\neeee\n";
    {
        std::ofstream out(path, std::ios::binary | std::ios::in | std::ios::out);
        out.write(fresh.data(), static_cast<std::streamsize>(fresh.size()));
    }
    EXPECT_EQ(log->refresh(), RefreshResult::Replaced);
    log->waitForIndex();
    expectSameLines(*log, referenceLines(fresh));
}

TEST(LogFile, MissingFileIsAnError)
{
    auto log = LogFile::open("/nonexistent/relayhud/log.txt");
    ASSERT_FALSE(log.ok());
    EXPECT_NE(log.message().find("/nonexistent/relayhud/log.txt"), std::string::npos);
}

} // namespace
