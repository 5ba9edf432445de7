// The tested-SHA evidence: what a job log says actions/checkout checked out
// (logs/checkout_scan.h). The formats are the real ones: the corpus's raw
// pytorch/pytorch job log (checkout v3, quoted '%H') and checkout v4's
// unquoted --format=%H (actions/checkout src/git-source-provider.ts @0109144c).
#include "log_test_support.h"
#include "relayhud/logs/checkout_scan.h"
#include "relayhud/logs/line_decoder.h"

#include <gtest/gtest.h>

#include <string>

namespace relayhud {
namespace {

using testing::TempDir;

constexpr const char* kTorchSha = "c8ab2e8b637515b6488931f5e59f23848aae9991";
constexpr const char* kOwnSha = "0123456789abcdef0123456789abcdef01234567";

std::string stamped(std::string_view text)
{
    return "2026-07-29T23:58:10.4613408Z " + std::string(text) + "\n";
}

// A v4 checkout step as the runner logs it.
std::string checkoutStep(const std::string& repo, const std::string& sha)
{
    return stamped("##[group]Run actions/checkout@v4") + stamped("  repository: " + repo)
           + stamped("##[endgroup]") + stamped("Syncing repository: " + repo)
           + stamped("##[group]Checking out the ref")
           + stamped("[command]/usr/bin/git checkout --progress --force " + sha)
           + stamped("HEAD is now at " + sha.substr(0, 7) + " subject") + stamped("##[endgroup]")
           + stamped("[command]/usr/bin/git log -1 --format=%H") + stamped(sha);
}

// The 1-based line of the first line whose text (timestamp apart) is `text`.
std::uint64_t lineOf(std::string_view log, const std::string& text)
{
    const auto lines = testing::referenceLines(log);
    for (std::size_t i = 0; i < lines.size(); ++i)
        if (std::string_view(lines[i]).substr(timestampPrefixLength(lines[i])) == text)
            return i + 1;
    return 0;
}

TEST(CheckoutScan, TheCorpusJobLogCheckedOutItsPyTorchCommit)
{
    const std::string path = std::string(RELAYHUD_CORPUS_DIR) + "/raw-logs/error_log1.txt";
    auto found = logs::scanCheckouts(path);
    ASSERT_TRUE(found) << found.message();
    // Lines 106 ("Syncing repository: pytorch/pytorch"), 1023 (the query)
    // and 1024 ('c8ab2e8b...', quoted): checkout v3 as pytorch ran it.
    ASSERT_EQ(found->size(), 1u);
    EXPECT_EQ((*found)[0], (LogCheckout{"pytorch/pytorch", kTorchSha, 1024}));
    EXPECT_EQ(logs::scanCheckoutsIn(testing::readWholeFile(path)), *found);
}

TEST(CheckoutScan, EachCheckoutIsNamedByItsOwnSyncingLine)
{
    const std::string log =
        stamped("Current runner version: '2.325.0'") + checkoutStep("ibm/torch-spyre", kOwnSha)
        + checkoutStep("pytorch/pytorch", kTorchSha) + stamped("Successfully installed torch");
    const auto found = logs::scanCheckoutsIn(log);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0], (LogCheckout{"ibm/torch-spyre", kOwnSha, lineOf(log, kOwnSha)}));
    EXPECT_EQ(found[1], (LogCheckout{"pytorch/pytorch", kTorchSha, lineOf(log, kTorchSha)}));
    EXPECT_EQ(found[1].line, 21u);
}

TEST(CheckoutScan, LinesAreNumberedAsTheViewerSplitsThem)
{
    // CRLF endings, git's progress lines ended by lone CRs, a BOM first: the
    // viewer's numbering (line_scan.h), which the reference splitter shares.
    std::string log = "\xEF\xBB\xBF" + stamped("Runner");
    log += "Receiving objects:  10%\rReceiving objects:  50%\rReceiving objects: 100%\n";
    std::string step = checkoutStep("pytorch/pytorch", kTorchSha);
    std::string crlf;
    for (const char c : step)
        crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
    log += crlf;
    const auto found = logs::scanCheckoutsIn(log);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].sha, kTorchSha);
    EXPECT_EQ(found[0].line, lineOf(log, kTorchSha));
    EXPECT_EQ(found[0].line, 14u);
}

TEST(CheckoutScan, OnlyTheRunnersEchoOfTheQueryCounts)
{
    // A shell's own `git log` (set -x) is some other repository's commit; an
    // answer that is not a SHA is no checkout; a query with no Syncing line
    // since the last checkout cannot say whose commit it printed.
    const std::string log =
        stamped("Syncing repository: pytorch/pytorch") + stamped("+ git log -1 --format=%H")
        + stamped(kOwnSha) + stamped("[command]/usr/bin/git log -1 --format=%H")
        + stamped("fatal: your current branch 'main' does not have any commits")
        + stamped("[command]/usr/bin/git log -1 --format='%H'")
        + stamped(std::string("'") + kTorchSha + "'")
        + stamped("[command]/usr/bin/git log -1 --format=%H")
        + stamped("ABCDEF0123456789ABCDEF0123456789ABCDEF01")
        + stamped("[command]/usr/bin/git log -1 --format=%h") + stamped("abcdef0");
    const auto found = logs::scanCheckoutsIn(log);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0], (LogCheckout{"pytorch/pytorch", kTorchSha, 7}));
    EXPECT_EQ(found[1], (LogCheckout{"", "abcdef0123456789abcdef0123456789abcdef01", 9}));
}

TEST(CheckoutScan, AHostileSyncingLineNamesNoRepository)
{
    const std::string log = stamped("Syncing repository: evil/../../etc\x1b]52;c;aGk=\x07")
                            + stamped("[command]/usr/bin/git log -1 --format=%H")
                            + stamped(kTorchSha);
    const auto found = logs::scanCheckoutsIn(log);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].repository, "");
}

TEST(CheckoutScan, FileScanAgreesWithMemoryAcrossBlockBoundaries)
{
    // The file is read in 4 MiB blocks: put the query and its answer across
    // the boundary at every offset near it.
    TempDir dir;
    constexpr std::size_t kBlock = std::size_t{4} << 20;
    const std::string step = checkoutStep("pytorch/pytorch", kTorchSha);
    for (std::size_t shift = 0; shift < step.size() + 2; shift += 11) {
        std::string log;
        const std::string filler = stamped(std::string(100, 'x'));
        while (log.size() + filler.size() < kBlock - step.size() + shift)
            log += filler;
        log += std::string(kBlock - step.size() + shift - log.size(), 'y') + "\r\n";
        log += step;
        const std::string path = dir.write("log.txt", log);
        const auto fromFile = logs::scanCheckouts(path);
        ASSERT_TRUE(fromFile) << fromFile.message();
        const auto inMemory = logs::scanCheckoutsIn(log);
        ASSERT_EQ(inMemory.size(), 1u) << "shift " << shift;
        EXPECT_EQ(*fromFile, inMemory) << "shift " << shift;
        EXPECT_EQ(inMemory[0].line, lineOf(log, kTorchSha)) << "shift " << shift;
    }
}

TEST(CheckoutScan, ALineLongerThanABlockIsSkippedAndCounted)
{
    TempDir dir;
    std::string log = stamped("Syncing repository: pytorch/pytorch")
                      + stamped("[command]/usr/bin/git log -1 --format=%H");
    log += std::string((std::size_t{9} << 20), 'a') + "\r"; // a 9 MiB "answer", lone CR
    log += "\n" + checkoutStep("pytorch/pytorch", kTorchSha);
    const std::string path = dir.write("long.txt", log);
    const auto found = logs::scanCheckouts(path);
    ASSERT_TRUE(found) << found.message();
    ASSERT_EQ(found->size(), 1u);
    EXPECT_EQ((*found)[0].sha, kTorchSha);
    EXPECT_EQ((*found)[0].line, lineOf(log, kTorchSha));
}

TEST(CheckoutScan, AFloodOfCheckoutsIsCapped)
{
    std::string log;
    for (int i = 0; i < 1000; ++i)
        log += checkoutStep("pytorch/pytorch", kTorchSha);
    EXPECT_EQ(logs::scanCheckoutsIn(log).size(), logs::kMaxLogCheckouts);
    TempDir dir;
    const auto fromFile = logs::scanCheckouts(dir.write("flood.txt", log));
    ASSERT_TRUE(fromFile);
    EXPECT_EQ(fromFile->size(), logs::kMaxLogCheckouts);
}

TEST(CheckoutScan, WhatIsNotARegularFileIsAnError)
{
    const auto zero = logs::scanCheckouts("/dev/zero");
    ASSERT_FALSE(zero);
    EXPECT_NE(zero.message().find("not a regular file"), std::string::npos) << zero.message();
    const auto missing = logs::scanCheckouts("/nonexistent/relayhud/log.txt");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.message().find("cannot open"), std::string::npos) << missing.message();
    EXPECT_TRUE(logs::scanCheckoutsIn("").empty());
}

} // namespace
} // namespace relayhud
