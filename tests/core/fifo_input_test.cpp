// A FIFO named as a log or a report (issue 35): `relayhud://log?path=FIFO`,
// `relayhud-cli grep FIFO`, `classify FIFO` blocked in open() for good when
// no one wrote to it. Every reader of a named file now refuses it at once, in
// one line that says what it is.
#include "relayhud/artifacts/archive_reader.h"
#include "relayhud/logs/checkout_scan.h"
#include "relayhud/logs/log_file.h"
#include "relayhud/triage/classifier.h"
#include "relayhud/triage/rule_set.h"
#include "relayhud/util/read_file.h"

#include "test_results_fixtures.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>

namespace {

using namespace relayhud;
using namespace std::chrono_literals;

// Far more than a refusal takes (microseconds), far less than a hang.
constexpr auto kAtOnce = 5s;

std::string makeFifo(const relayhud::testing::ScratchDir& dir, const std::string& name)
{
    const std::string path = dir.file(name);
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0);
    return path;
}

// A reader that blocked in open() is let go by a writer's open, so a failing
// test ends instead of hanging the suite.
void releaseReaders(const std::string& fifo)
{
    const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0)
        ::close(fd);
}

// `read(fifo)`'s error, which must come within kAtOnce.
std::string refusalOf(const std::string& fifo, std::function<std::string()> read)
{
    auto answer = std::async(std::launch::async, std::move(read));
    if (answer.wait_for(kAtOnce) != std::future_status::ready) {
        ADD_FAILURE() << "reading " << fifo << " blocked";
        while (answer.wait_for(10ms) != std::future_status::ready)
            releaseReaders(fifo);
    }
    return answer.get();
}

void expectOneLineRefusal(const std::string& message, const std::string& fifo,
                          const std::string& what)
{
    EXPECT_EQ(message, fifo + " is a FIFO, not a regular file; " + what + " must be one");
    EXPECT_EQ(message.find('\n'), std::string::npos);
}

template <class T>
std::string errorOf(const Result<T>& result)
{
    return result ? std::string("(opened)") : result.message();
}

} // namespace

TEST(FifoInput, JobLogsInTheViewerGrepClassifyAndTheCheckoutScanAreRefusedAtOnce)
{
    relayhud::testing::ScratchDir dir("fifo");
    const std::string fifo = makeFifo(dir, "job.log");
    LogOpenOptions options;
    options.cacheDir = dir.file("cache");
    expectOneLineRefusal(refusalOf(fifo, [&] { return errorOf(LogFile::open(fifo, options)); }),
                         fifo, "a job log");
    auto classifier = triage::Classifier::create(triage::defaultRuleSet());
    ASSERT_TRUE(classifier) << classifier.message();
    expectOneLineRefusal(refusalOf(fifo, [&] { return errorOf(classifier->classifyFile(fifo)); }),
                         fifo, "a log to classify");
    expectOneLineRefusal(refusalOf(fifo, [&] { return errorOf(logs::scanCheckouts(fifo)); }), fifo,
                         "a job log");
}

TEST(FifoInput, ReportsAndArchivesOfReportsAreRefusedAtOnce)
{
    relayhud::testing::ScratchDir dir("fifo");
    const std::string fifo = makeFifo(dir, "reports.zip");
    expectOneLineRefusal(
        refusalOf(fifo, [&] { return errorOf(ArchiveReader::fromFile(fifo).list()); }), fifo,
        "a report or archive of reports");
    expectOneLineRefusal(
        refusalOf(fifo, [&] { return errorOf(readRegularFile(fifo, 1024, "a JUnit report")); }),
        fifo, "a JUnit report");
}

// A followed log whose path is replaced by a FIFO: the refresh reopens the
// path, and must not wait there.
TEST(FifoInput, AFollowedLogReplacedByAFifoIsNotReopened)
{
    relayhud::testing::ScratchDir dir("fifo");
    const std::string path = dir.file("job.log");
    std::ofstream(path) << "one\ntwo\n";
    LogOpenOptions options;
    options.cacheDir = dir.file("cache");
    auto log = LogFile::open(path, options);
    ASSERT_TRUE(log) << log.message();
    (*log)->waitForIndex();
    std::filesystem::remove(path);
    ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
    const std::string outcome = refusalOf(path, [&] {
        return std::string((*log)->refresh() == RefreshResult::Deleted ? "deleted" : "other");
    });
    EXPECT_EQ(outcome, "deleted");
    EXPECT_EQ((*log)->lineCount(), 2u);
}

TEST(FifoInput, ARegularFileOpensWithBlockingReadsAndItsSize)
{
    relayhud::testing::ScratchDir dir("fifo");
    const std::string path = dir.file("ok.log");
    std::ofstream(path) << "hello";
    auto opened = openRegularFile(path, "a job log");
    ASSERT_TRUE(opened) << opened.message();
    EXPECT_EQ(opened->size, 5u);
    EXPECT_EQ(::fcntl(opened->fd.get(), F_GETFL) & O_NONBLOCK, 0);
    auto folder = openRegularFile(dir.path().string(), "a job log");
    ASSERT_FALSE(folder);
    EXPECT_EQ(folder.message(), dir.path().string()
                                    + " is a folder, not a regular file; a job "
                                      "log must be one");
    auto device = openRegularFile("/dev/null", "a job log");
    ASSERT_FALSE(device);
    EXPECT_EQ(device.message(), "/dev/null is a character device, not a regular file; a job log "
                                "must be one");
}
