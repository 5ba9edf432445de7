// LogStructure: groups and failure landmarks, on a hand-written log and on
// the real job-log fragments of the shared corpus.
#include "log_test_support.h"

#include "relayhud/logs/line_decoder.h"
#include "relayhud/logs/log_search.h"
#include "relayhud/logs/log_structure.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <regex>
#include <set>
#include <sstream>

using namespace relayhud;
using namespace relayhud::testing;

namespace {

const std::string kTs = "2026-07-29T23:58:10.4613408Z ";

std::string handWrittenLog()
{
    const std::vector<std::string> lines = {
        "##[group]Build",                                                        // 0
        "FAILED: [code=1] caffe2/foo.o ",                                        // 1
        "/src/a.cpp:12:3: error: no member named 'x'",                           // 2
        "##[endgroup]",                                                          // 3
        "##[group]Test",                                                         // 4
        "______ TestFoo.test_bar ______",                                        // 5
        "Traceback (most recent call last):",                                    // 6
        "  File \"x.py\", line 3, in test_bar",                                  // 7
        "    raise RuntimeError(\"boom\")",                                      // 8
        "RuntimeError: boom",                                                    // 9
        "FAILED test/test_foo.py::TestFoo::test_bar - RuntimeError: boom",       // 10
        "\x1b[31m==== 1 failed, 3 passed in 1.0s ====\x1b[0m",                   // 11
        "Segmentation fault (core dumped)",                                      // 12
        "##[error]Process completed with exit code 1.",                          // 13
        "##[error]The operation was canceled.",                                  // 14
        "ValueError: not after a traceback",                                     // 15
        "Timeout >15.0min",                                                      // 16
        "FAILED [0.5s] test_foo.py::TestFoo::test_baz - AssertionError",         // 17
        "  \x1b[41m\x1b[1mError\x1b[0m (CLANGTIDY) \x1b[4mLinter failed\x1b[0m", // 18
        "test_foo.py::TestFoo::test_qux PASSED [0.1s]",                          // 19
    };
    std::string text;
    for (const auto& l : lines)
        text += kTs + l + "\n";
    return text;
}

class HandWritten : public ::testing::Test {
protected:
    void SetUp() override
    {
        m_log = openIndexed(m_dir.write("hand.log", handWrittenLog()));
        ASSERT_TRUE(m_log);
        m_structure = std::make_unique<LogStructure>(m_log);
        m_structure->start();
        m_structure->wait();
        ASSERT_TRUE(m_structure->finished());
    }
    TempDir m_dir;
    std::shared_ptr<LogFile> m_log;
    std::unique_ptr<LogStructure> m_structure;
};

TEST_F(HandWritten, Landmarks)
{
    const auto all = m_structure->landmarks();
    std::vector<std::pair<std::uint64_t, LandmarkKind>> got;
    for (const auto& m : all)
        got.emplace_back(m.line.value, m.kind);
    using K = LandmarkKind;
    EXPECT_EQ(got, (std::vector<std::pair<std::uint64_t, LandmarkKind>>{
                       {1, K::BuildError},
                       {2, K::BuildError},
                       {5, K::TestSection},
                       {9, K::Exception},
                       {10, K::TestFailed},
                       {11, K::Summary},
                       {12, K::Signal},
                       {14, K::ErrorMarker},
                       {16, K::Timeout},
                       {17, K::TestFailed},
                       {18, K::LintError},
                   }));
    ASSERT_EQ(all.size(), got.size());
    EXPECT_EQ(all[0].title, "caffe2/foo.o");
    EXPECT_EQ(all[2].title, "TestFoo.test_bar");
    EXPECT_EQ(all[3].title, "RuntimeError: boom");
    EXPECT_EQ(all[3].firstLine, LineNumber{6});
    EXPECT_EQ(all[4].title, "test/test_foo.py::TestFoo::test_bar");
    EXPECT_EQ(all[5].title, "1 failed, 3 passed in 1.0s");
    EXPECT_EQ(all[7].title, "The operation was canceled.");
    EXPECT_EQ(all[9].title, "test_foo.py::TestFoo::test_baz");
}

TEST_F(HandWritten, Groups)
{
    const auto groups = m_structure->groups();
    ASSERT_EQ(groups.size(), 2U);
    EXPECT_EQ(groups[0], (LogGroup{{0}, {3}, "Build", true}));
    EXPECT_EQ(groups[1], (LogGroup{{4}, {19}, "Test", false}));
    EXPECT_EQ(m_structure->groupAt(LineNumber{2})->title, "Build");
    EXPECT_EQ(m_structure->groupAt(LineNumber{19})->title, "Test");
}

TEST_F(HandWritten, SteppingThroughLandmarks)
{
    EXPECT_EQ(m_structure->nextLandmark(LineNumber{0})->line, LineNumber{1});
    EXPECT_EQ(m_structure->nextLandmark(LineNumber{5})->line, LineNumber{9});
    EXPECT_EQ(m_structure->previousLandmark(LineNumber{9})->line, LineNumber{5});
    EXPECT_FALSE(m_structure->previousLandmark(LineNumber{1}).has_value());
    EXPECT_FALSE(m_structure->nextLandmark(LineNumber{18}).has_value());
}

TEST_F(HandWritten, FindsATestsFailure)
{
    EXPECT_EQ(m_structure->findTestFailure("test/test_foo.py::TestFoo::test_bar"), LineNumber{5});
    EXPECT_EQ(m_structure->findTestFailure("test_foo.py::TestFoo::test_bar"), LineNumber{5});
    // No section for test_baz: its FAILED line; the file may have more folders.
    EXPECT_EQ(m_structure->findTestFailure("test/test_foo.py::TestFoo::test_baz"), LineNumber{17});
    EXPECT_FALSE(m_structure->findTestFailure("test/test_foo.py::TestFoo::test_qux").has_value());
    EXPECT_FALSE(m_structure->findTestFailure("other.py::TestFoo::test_baz").has_value());
}

TEST(LogStructure, ExtendFollowsAGrowingLog)
{
    TempDir dir;
    dir.write("tail.log",
              kTs + "##[group]Build\n" + kTs + "FAILED: [code=1] x.o\n" + kTs + "FAILED: par");
    auto log = openIndexed(dir.path("tail.log"));
    ASSERT_TRUE(log);
    LogStructure structure(log);
    std::atomic<int> updates{0};
    structure.start([&](const StructureUpdate&) { ++updates; });
    structure.wait();
    ASSERT_EQ(structure.landmarks().size(), 2U);
    EXPECT_EQ(structure.landmarks()[1].title, "par");
    EXPECT_FALSE(structure.extend());

    dir.append("tail.log", "tial.o\n" + kTs + "##[endgroup]\n" + kTs + "Segmentation fault\n");
    ASSERT_EQ(log->refresh(), RefreshResult::Grown);
    log->waitForIndex();
    const int before = updates;
    ASSERT_TRUE(structure.extend());
    structure.wait();
    EXPECT_GT(updates.load(), before);
    const auto landmarks = structure.landmarks();
    ASSERT_EQ(landmarks.size(), 3U);
    EXPECT_EQ(landmarks[1].line, LineNumber{2});
    EXPECT_EQ(landmarks[1].title, "partial.o");
    EXPECT_EQ(landmarks[2].line, LineNumber{4});
    EXPECT_EQ(landmarks[2].kind, LandmarkKind::Signal);
    EXPECT_EQ(structure.groups(), (std::vector<LogGroup>{{{0}, {3}, "Build", true}}));
    EXPECT_FALSE(structure.extend());
}

// A corpus fragment with its markers taken out: the text, the MATCH line's
// number and the captured spans.
struct Fragment {
    std::string name;
    std::string text;
    std::uint64_t matchLine = 0;
    std::vector<std::string> captured;
};

Fragment stripMarkers(const std::string& path)
{
    Fragment f;
    f.name = std::filesystem::path(path).filename().string();
    std::istringstream in(readWholeFile(path));
    std::string line;
    std::uint64_t n = 0;
    const std::string open = "\xE2\x80\xB9";
    const std::string close = "\xE2\x80\xBA";
    while (std::getline(in, line)) {
        if (n == 0 && f.text.empty() && line.rfind("#=SOURCE=#", 0) == 0)
            continue;
        if (line.rfind("#=MATCH=# ", 0) == 0) {
            line.erase(0, 10);
            f.matchLine = n;
            for (std::size_t at = line.find(open); at != std::string::npos; at = line.find(open)) {
                const std::size_t end = line.find(close, at);
                f.captured.push_back(line.substr(at + open.size(), end - at - open.size()));
                line.erase(end, close.size());
                line.erase(at, open.size());
            }
        }
        f.text += line + "\n";
        ++n;
    }
    return f;
}

std::vector<std::string> corpusFiles()
{
    std::vector<std::string> files;
    const std::filesystem::path dir = std::filesystem::path(RELAYHUD_CORPUS_DIR) / "logs";
    if (std::filesystem::exists(dir))
        for (const auto& e : std::filesystem::directory_iterator(dir))
            if (e.path().extension() == ".txt")
                files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
}

const std::regex kTimestamp(R"(^(\xEF\xBB\xBF)?\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z( |$))");
const std::regex
    kGroup(R"(^(\xEF\xBB\xBF)?(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z )?##\[group\])");

// Timestamps on every line that has one, groups where the file has them.
void checkTimestampsAndGroups(const LogFile& log, const LogStructure& structure,
                              const std::string& name)
{
    auto lines = log.lines(LineNumber{0}, static_cast<std::size_t>(log.lineCount()));
    ASSERT_TRUE(lines.ok());
    std::size_t stamped = 0;
    std::vector<std::uint64_t> groupLines;
    for (const auto& l : *lines) {
        const bool has = std::regex_search(l.bytes, kTimestamp);
        stamped += has ? 1 : 0;
        EXPECT_EQ(!decodeLine(l.bytes).timestamp.empty(), has) << name << ":" << l.number.shown();
        if (std::regex_search(l.bytes, kGroup))
            groupLines.push_back(l.number.value);
    }
    std::vector<std::uint64_t> starts;
    for (const auto& g : structure.groups())
        starts.push_back(g.start.value);
    EXPECT_EQ(starts, groupLines) << name;
    std::printf("  %-40s %4zu of %4zu lines stamped, %zu groups\n", name.c_str(), stamped,
                lines->size(), starts.size());
}

bool foundBySearch(const std::shared_ptr<LogFile>& log, const Fragment& f)
{
    std::string text;
    stripEscapes(f.captured.front(), text);
    LogSearch search(log);
    if (!search.start({text, SearchSyntax::Literal, true, SearchText::Display}).ok())
        return false;
    search.wait();
    const auto m = search.matches();
    return std::binary_search(m.begin(), m.end(), LineNumber{f.matchLine});
}

// The fragments whose failure line is an infrastructure or tool message that
// no generic landmark names: the classifier finds them by searching.
const std::set<std::string> kFoundBySearch = {
    "dirty_checkout.txt",
    "distributed_test_wrapper.txt",
    "gh_api_rate_limit.txt",
    "inductor_graph_breaks.txt",
    "lint_lintrunner.txt",
    "pr_sanity_exit_code_only.txt",
    "pr_time_benchmarks_regression.txt",
};

TEST(LogCorpus, MatchLineIsALandmarkOrFoundBySearch)
{
    const auto files = corpusFiles();
    if (files.empty())
        GTEST_SKIP() << "no corpus at " << RELAYHUD_CORPUS_DIR;
    TempDir dir;
    std::set<std::string> bySearch;
    for (const auto& path : files) {
        const Fragment f = stripMarkers(path);
        ASSERT_FALSE(f.captured.empty()) << f.name;
        auto log = openIndexed(dir.write(f.name, f.text));
        ASSERT_TRUE(log);
        LogStructure structure(log);
        structure.start();
        structure.wait();
        checkTimestampsAndGroups(*log, structure, f.name);
        const auto landmarks = structure.landmarks();
        const bool isLandmark = std::any_of(landmarks.begin(), landmarks.end(), [&](const auto& m) {
            return m.line.value == f.matchLine;
        });
        // Landmarks point at failures, not at every line.
        EXPECT_LE(landmarks.size(), std::max<std::size_t>(4, log->lineCount() / 6)) << f.name;
        std::printf("  %-40s %4llu lines %3zu landmarks  MATCH line %4llu: %s\n", f.name.c_str(),
                    static_cast<unsigned long long>(log->lineCount()), landmarks.size(),
                    static_cast<unsigned long long>(f.matchLine + 1),
                    isLandmark ? "landmark" : "search");
        if (!isLandmark) {
            EXPECT_TRUE(foundBySearch(log, f)) << f.name;
            bySearch.insert(f.name);
        }
    }
    EXPECT_EQ(bySearch, kFoundBySearch);
}

// The line of the last "____ Class.test ____" header in a fragment.
std::optional<std::uint64_t> lastSection(const std::string& text, const std::string& dotted)
{
    std::optional<std::uint64_t> found;
    std::istringstream in(text);
    std::string line;
    for (std::uint64_t n = 0; std::getline(in, line); ++n)
        if (line.find("_ " + dotted + " _") != std::string::npos)
            found = n;
    return found;
}

TEST(LogCorpus, FindsTheFailureOfAPytestTest)
{
    const std::string dir = std::string(RELAYHUD_CORPUS_DIR) + "/logs/";
    if (!std::filesystem::exists(dir + "pytest_failures_section.txt"))
        GTEST_SKIP() << "no corpus";
    TempDir tmp;
    struct Case {
        const char* file;
        const char* identity;
        const char* dotted;
    };
    for (const auto& c :
         {Case{"pytest_failures_section.txt",
               "test/test_torch.py::TestTorchDeviceTypeCPU::test_cauchy_kstest_cpu_bfloat16",
               "TestTorchDeviceTypeCPU.test_cauchy_kstest_cpu_bfloat16"},
          Case{"pytest_failure.txt",
               "test/distributed/test_c10d_spawn_gloo.py::TestDistributedNNFunctionsGloo::"
               "test_all_gather",
               "TestDistributedNNFunctionsGloo.test_all_gather"}}) {
        const Fragment f = stripMarkers(dir + c.file);
        const auto section = lastSection(f.text, c.dotted);
        ASSERT_TRUE(section.has_value()) << c.file;
        auto log = openIndexed(tmp.write(c.file, f.text));
        ASSERT_TRUE(log);
        LogStructure structure(log);
        structure.start();
        structure.wait();
        EXPECT_EQ(structure.findTestFailure(c.identity), LineNumber{*section}) << c.file;
    }
    // In the first fragment the test ran three times; the classifier's MATCH
    // is the last attempt's section.
    const Fragment rerun = stripMarkers(dir + "pytest_failures_section.txt");
    EXPECT_EQ(lastSection(rerun.text, "TestTorchDeviceTypeCPU.test_cauchy_kstest_cpu_bfloat16"),
              rerun.matchLine);
}

TEST(LogCorpus, WholeRawLog)
{
    const std::string path = std::string(RELAYHUD_CORPUS_DIR) + "/raw-logs/error_log1.txt";
    if (!std::filesystem::exists(path))
        GTEST_SKIP() << "no corpus";
    auto log = openIndexed(path);
    ASSERT_TRUE(log);
    LogStructure structure(log);
    structure.start();
    structure.wait();
    checkTimestampsAndGroups(*log, structure, "error_log1.txt");
    const auto landmarks = structure.landmarks();
    ASSERT_FALSE(landmarks.empty());
    EXPECT_LE(landmarks.size() * 100, log->lineCount()); // at most 1% of the lines
    for (const auto& m : landmarks) {
        auto line = log->line(m.line);
        ASSERT_TRUE(line.ok());
        EXPECT_EQ(line->bytes.find("Process completed with exit code"), std::string::npos);
    }
    // Its tracebacks end in these exceptions.
    std::vector<std::string> titles;
    for (const auto& m : landmarks)
        if (m.kind == LandmarkKind::Exception)
            titles.push_back(m.title.substr(0, m.title.find(':')));
    EXPECT_NE(std::find(titles.begin(), titles.end(), "TimeoutError"), titles.end());
    EXPECT_NE(std::find(titles.begin(), titles.end(), "OSError"), titles.end());
}

} // namespace
