// Files a user or CI names, read without trusting them (issue 19): devices,
// folders and files past their kind's limit are refused before a byte is
// read, with both sizes in the message; a log line longer than a block is
// matched by its start, in one block of memory.
#include "relayhud/config/config_file.h"
#include "relayhud/junit/junit_reader.h"
#include "relayhud/triage/classifier.h"
#include "relayhud/triage/rule_set.h"
#include "relayhud/util/read_file.h"

#include "test_results_fixtures.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

namespace {

using namespace relayhud;
namespace fs = std::filesystem;

// A sparse file of `bytes`: no disk used.
std::string sparse(const relayhud::testing::ScratchDir& dir, const std::string& name,
                   std::uintmax_t bytes)
{
    const std::string path = dir.file(name);
    std::ofstream(path).close();
    fs::resize_file(path, bytes);
    return path;
}

// What both whole-file readers refuse before reading a byte, in the same
// words: a device, a FIFO, a folder, a file over the limit, a missing file.
template <class Read>
void expectRefusals(const relayhud::testing::ScratchDir& dir, Read read)
{
    auto zero = read("/dev/zero", 1024, "a thing");
    ASSERT_FALSE(zero);
    EXPECT_EQ(zero.message(),
              "/dev/zero is a character device, not a regular file; a thing must be one");
    const std::string fifo = dir.file("pipe");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    auto piped = read(fifo, 1024, "a thing"); // never blocks on the writer
    ASSERT_FALSE(piped);
    EXPECT_NE(piped.message().find("is a FIFO, not a regular file"), std::string::npos)
        << piped.message();
    auto folder = read(dir.path().string(), 1024, "a thing");
    ASSERT_FALSE(folder);
    EXPECT_NE(folder.message().find("is a folder, not"), std::string::npos) << folder.message();
    const std::string big = sparse(dir, "big.yaml", (17ull << 20) + 1);
    auto over = read(big, 16ull << 20, "an outcome config");
    ASSERT_FALSE(over);
    EXPECT_EQ(over.message(), big + " is 17 MiB; an outcome config is at most 16 MiB");
    auto missing = read(dir.file("none"), 10, "a thing");
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.message().find("cannot open"), std::string::npos);
}

TEST(HostileInput, ReadRegularFileRefusesDevicesFoldersAndOversizeFilesBeforeReading)
{
    relayhud::testing::ScratchDir dir("hostile");
    expectRefusals(dir, readRegularFile);
    std::ofstream(dir.file("ok.txt")) << "hello";
    auto ok = readRegularFile(dir.file("ok.txt"), 5, "a thing");
    ASSERT_TRUE(ok) << ok.message();
    EXPECT_EQ(*ok, "hello");
    EXPECT_EQ(byteSizeText(512), "512 bytes");
    EXPECT_EQ(byteSizeText(1536), "1.5 KiB");
    EXPECT_EQ(byteSizeText(100ull << 30), "100 GiB");
}

// The mapped reader (JUnit reports) refuses alike, and gives the bytes
// writable (the parser works in place) and whole, huge-page sized or not.
TEST(HostileInput, ReadRegularFileBytesChecksAsReadRegularFileDoes)
{
    relayhud::testing::ScratchDir dir("hostile");
    expectRefusals(dir, readRegularFileBytes);
    std::ofstream(dir.file("empty.xml")).close();
    auto empty = readRegularFileBytes(dir.file("empty.xml"), 10, "a thing");
    ASSERT_TRUE(empty) << empty.message();
    EXPECT_TRUE(empty->empty());
    for (const std::size_t size : {std::size_t{3 * 4096 + 17}, std::size_t{(5u << 20) + 3}}) {
        std::string text(size, 'x');
        text.front() = '<';
        text.back() = '>';
        std::ofstream(dir.file("pages.xml"), std::ios::binary | std::ios::trunc) << text;
        auto read = readRegularFileBytes(dir.file("pages.xml"), 16u << 20, "a thing");
        ASSERT_TRUE(read) << read.message();
        EXPECT_TRUE(read->view() == text) << size;
        read->data()[0] = '(';
        FileBytes moved = std::move(*read);
        EXPECT_EQ(moved.view().substr(0, 2), "(x");
        EXPECT_EQ(moved.size(), text.size());
    }
}

TEST(HostileInput, ConfigsRulesReportsAndLogsFromDevZeroAreClearErrors)
{
    auto config = config::loadConfigFile("/dev/zero");
    ASSERT_FALSE(config);
    EXPECT_NE(config.message().find("not a regular file"), std::string::npos) << config.message();

    triage::RuleSet rules = triage::defaultRuleSet();
    auto added = rules.addFile("/dev/zero");
    ASSERT_FALSE(added);
    EXPECT_NE(added.message().find("a rule file must be one"), std::string::npos)
        << added.message();

    auto report = readJunitFile("/dev/zero");
    ASSERT_FALSE(report);
    EXPECT_NE(report.message().find("a JUnit report must be one"), std::string::npos)
        << report.message();

    auto classifier = triage::Classifier::create(triage::defaultRuleSet());
    ASSERT_TRUE(classifier) << classifier.message();
    auto classified = classifier->classifyFile("/dev/zero");
    ASSERT_FALSE(classified);
    EXPECT_NE(classified.message().find("not a regular file"), std::string::npos)
        << classified.message();
}

TEST(HostileInput, AHundredGibibyteReportIsRefusedNotAllocated)
{
    relayhud::testing::ScratchDir dir("hostile");
    const std::string path = sparse(dir, "huge.xml", 100ull << 30);
    auto report = readJunitFile(path);
    ASSERT_FALSE(report);
    EXPECT_NE(report.message().find("is 100 GiB; a JUnit report is at most 1 GiB"),
              std::string::npos)
        << report.message();
}

// A 20 MiB line (past the 8 MiB block) is matched by its start; the lines
// after it keep their numbers.
TEST(HostileInput, AGiantLogLineIsMatchedByItsStartAndTheNextLinesKeepTheirNumbers)
{
    relayhud::testing::ScratchDir dir("hostile");
    const std::string path = dir.file("job.log");
    {
        std::ofstream out(path, std::ios::binary);
        out << "2026-05-04T10:00:00.0000000Z start\n";
        out << "2026-05-04T10:00:01.0000000Z " << std::string(20u << 20, 'x') << "\n";
        out << "2026-05-04T10:00:02.0000000Z ##[error]The self-hosted runner: gpu-7 lost "
               "communication with the server.\n";
    }
    auto classifier = triage::Classifier::create(triage::defaultRuleSet());
    ASSERT_TRUE(classifier) << classifier.message();
    auto line = classifier->classifyFile(path);
    ASSERT_TRUE(line) << line.message();
    ASSERT_TRUE(*line);
    EXPECT_EQ((*line)->ruleName, "Runner lost");
    EXPECT_EQ((*line)->line, 3u);
}

} // namespace
