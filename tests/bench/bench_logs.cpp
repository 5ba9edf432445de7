// The log engine on a generated 1 GiB GitHub Actions log (timestamps, groups,
// ANSI colours, pytest PASSED lines, a few FAILED sections with tracebacks),
// each time beside its reference on the same file in the same run:
//   index                <= 1.2 x `wc -l`
//   first screen         <= 100 ms after open (60 lines read and decoded)
//   literal search       <= 1.0 x `grep -c -F`   (counts must equal grep's)
//   regex search         <= 1.5 x `grep -c -E`   (counts must equal grep's), for a
//                        regex with literals to look for first and for one
//                        without (RE2 over every line, most of which match)
//   jump anywhere        <= 8 ms per screen (60 random lines, read and decoded)
//   index memory         <= 2% of the file
// RELAYHUD_BENCH_LOG_MB sets the size (default 1024).
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/logs/line_decoder.h"
#include "relayhud/logs/log_file.h"
#include "relayhud/logs/log_search.h"
#include "relayhud/logs/log_structure.h"

#include <array>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>

#include <unistd.h>

namespace relayhud::bench {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kScreenLines = 60;
constexpr const char* kLiteral = "Tensor-likes are not close";
constexpr const char* kRegex = R"(test_\w+_cuda_(bfloat16|int64) FAILED)";
constexpr const char* kDenseRegex = R"(\[ ?[0-9]{2}%\]$)";

constexpr std::array<const char*, 12> kOps = {"add", "sub", "mul",  "div",     "matmul", "sum",
                                              "exp", "log", "relu", "softmax", "where",  "cat"};
constexpr std::array<const char*, 4> kDtypes = {"float16", "float32", "bfloat16", "int64"};

// A failure section as pytest writes it with --tb=native, then its summary line.
void appendFailure(std::string& out, const std::string& stamp, std::size_t i)
{
    const std::string test = std::string("test_compare_cpu_") + kOps[i % kOps.size()] + "_cuda_"
                             + kDtypes[(i / 7) % kDtypes.size()];
    for (const std::string& line :
         {"____________ TestCommonCUDA." + test + " ____________",
          std::string("Traceback (most recent call last):"),
          std::string("  File \"/opt/pytorch/test/test_ops.py\", line 2312, in test_compare_cpu"),
          std::string("    self.assertEqual(actual, expected, atol=atol, rtol=rtol)"),
          std::string("AssertionError: Tensor-likes are not close!"),
          "\x1b[31mFAILED\x1b[0m test_ops.py::TestCommonCUDA::" + test + " - AssertionError",
          "test_ops.py::TestCommonCUDA::" + test + " FAILED [1.2345s] [ 42%]"})
        out += stamp + line + "\n";
}

void appendLine(std::string& out, std::size_t i)
{
    char stamp[40];
    std::snprintf(stamp, sizeof stamp, "2026-07-29T%02zu:%02zu:%02zu.%07zuZ ", (i / 3600000) % 24,
                  (i / 60000) % 60, (i / 1000) % 60, (i * 7919) % 10000000);
    if (i % 2000 == 0) {
        out += std::string(stamp) + "##[group]Run python test/run_test.py --shard "
               + std::to_string(i / 2000) + "\n" + stamp
               + "\x1b[36;1mpython test/run_test.py --include test_ops --verbose\x1b[0m\n";
    } else if (i % 2000 == 1999) {
        out += std::string(stamp) + "##[endgroup]\n";
    } else if (i % 100000 == 500) {
        appendFailure(out, stamp, i);
    } else {
        out += stamp;
        out += "test_ops.py::TestCommonCUDA::test_compare_cpu_";
        out += kOps[i % kOps.size()];
        out += "_cuda_";
        out += kDtypes[(i / 3) % kDtypes.size()];
        out += (i % 9 == 0) ? " \x1b[32mPASSED\x1b[0m [0." : " PASSED [0.";
        out += std::to_string(1000 + (i * 31) % 9000) + "s] [ " + std::to_string(i % 100) + "%]\n";
    }
}

bool generateLog(const std::string& path, std::uint64_t bytes)
{
    std::FILE* f = std::fopen(path.c_str(), "wb");
    if (!f)
        return false;
    std::string block;
    std::uint64_t written = 0;
    for (std::size_t i = 0; written < bytes; ++i) {
        appendLine(block, i);
        if (block.size() >= (8u << 20)) {
            written += std::fwrite(block.data(), 1, block.size(), f);
            block.clear();
        }
    }
    written += std::fwrite(block.data(), 1, block.size(), f);
    return std::fclose(f) == 0 && written > 0;
}

// Runs a shell command, returns its first line of output and its time.
std::string runReference(const std::string& command, double& ms)
{
    const auto start = Clock::now();
    std::FILE* p = ::popen(command.c_str(), "r");
    char line[256] = {0};
    if (p && !std::fgets(line, sizeof line, p))
        line[0] = 0;
    if (p)
        ::pclose(p);
    ms = msSince(start);
    std::string out(line);
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
        out.pop_back();
    return out;
}

double indexOnceMs(const std::string& path)
{
    const auto start = Clock::now();
    auto log = LogFile::open(path);
    if (!log)
        return 0;
    (*log)->waitForIndex();
    return msSince(start);
}

// Open, wait for the first screen's lines to be indexed, read and decode them.
double firstScreenMs(const std::string& path)
{
    std::mutex mutex;
    std::condition_variable ready;
    bool enough = false;
    LogOpenOptions options;
    options.onProgress = [&](const IndexProgress& p) {
        std::lock_guard lock(mutex);
        enough = enough || p.lineCount >= kScreenLines || p.finished;
        ready.notify_all();
    };
    const auto start = Clock::now();
    auto log = LogFile::open(path, options);
    if (!log)
        return 1e9;
    {
        std::unique_lock lock(mutex);
        ready.wait(lock, [&] { return enough; });
    }
    auto lines = (*log)->lines(LineNumber{0}, kScreenLines);
    std::size_t bytes = 0;
    if (lines)
        for (const auto& l : *lines)
            bytes += decodeLine(l.bytes).text.size();
    const double ms = msSince(start);
    return bytes > 0 ? ms : 1e9;
}

double searchMs(const std::shared_ptr<LogFile>& log, const SearchQuery& query, std::uint64_t& count)
{
    LogSearch search(log);
    const auto start = Clock::now();
    if (!search.start(query))
        return 1e9;
    search.wait();
    count = search.matchCount();
    return msSince(start);
}

// Ours against the reference, alternating, median of `rounds` each.
struct Pair {
    double ours = 0;
    double reference = 0;
    bool countsEqual = true;
};

Pair compareSearch(const std::shared_ptr<LogFile>& log, const SearchQuery& query,
                   const std::string& referenceCommand, int rounds)
{
    std::vector<double> ours;
    std::vector<double> theirs;
    Pair pair;
    for (int r = 0; r < rounds; ++r) {
        double refMs = 0;
        const std::string refCount = runReference(referenceCommand, refMs);
        theirs.push_back(refMs);
        std::uint64_t count = 0;
        ours.push_back(searchMs(log, query, count));
        if (std::to_string(count) != refCount) {
            std::printf("  COUNT MISMATCH for '%s': ours %llu, reference %s\n",
                        query.pattern.c_str(), static_cast<unsigned long long>(count),
                        refCount.c_str());
            pair.countsEqual = false;
        }
    }
    pair.ours = median(ours);
    pair.reference = median(theirs);
    return pair;
}

double jumpMs(const LogFile& log)
{
    std::mt19937_64 rng(42);
    std::vector<double> times;
    const std::uint64_t lines = log.lineCount();
    for (int i = 0; i < 500 && lines > kScreenLines; ++i) {
        const auto start = Clock::now();
        auto screen = log.lines(LineNumber{rng() % (lines - kScreenLines)}, kScreenLines);
        if (screen)
            for (const auto& l : *screen)
                (void)decodeLine(l.bytes);
        times.push_back(msSince(start));
    }
    std::sort(times.begin(), times.end());
    return times.empty() ? 0 : times[times.size() * 99 / 100];
}

void measure(Report& report, const std::string& path, std::uint64_t size)
{
    const std::string quoted = "'" + path + "'";
    const double mb = static_cast<double>(size) / (1 << 20);
    std::vector<double> wc;
    std::vector<double> ours;
    for (int r = 0; r < 3; ++r) {
        double ms = 0;
        runReference("wc -l " + quoted, ms);
        wc.push_back(ms);
        ours.push_back(indexOnceMs(path));
    }
    const std::string size_ = std::to_string(static_cast<int>(mb)) + " MB";
    report.add({"log: index " + size_, median(ours), "ms", 1.2 * median(wc), "wc -l", median(wc)});

    std::vector<double> screens;
    for (int r = 0; r < 5; ++r)
        screens.push_back(firstScreenMs(path));
    report.add({"log: first screen after open", median(screens), "ms", 100, "", 0});

    auto log = LogFile::open(path);
    if (!log)
        return;
    (*log)->waitForIndex();
    const auto literal =
        compareSearch(*log, {kLiteral, SearchSyntax::Literal, true, SearchText::Display},
                      std::string("grep -c -F '") + kLiteral + "' " + quoted, 3);
    report.add({"log: literal search " + size_, literal.countsEqual ? literal.ours : 1e9, "ms",
                literal.reference, "grep -c -F", literal.reference});
    const auto regex = compareSearch(*log, {kRegex, SearchSyntax::Regex, true, SearchText::Display},
                                     std::string("grep -c -E '") + kRegex + "' " + quoted, 3);
    report.add({"log: regex search " + size_, regex.countsEqual ? regex.ours : 1e9, "ms",
                1.5 * regex.reference, "grep -c -E", regex.reference});
    const auto dense =
        compareSearch(*log, {kDenseRegex, SearchSyntax::Regex, true, SearchText::Display},
                      std::string("grep -c -E '") + kDenseRegex + "' " + quoted, 3);
    report.add({"log: regex, no literal, most lines match", dense.countsEqual ? dense.ours : 1e9,
                "ms", 1.5 * dense.reference, "grep -c -E", dense.reference});

    report.add({"log: jump anywhere, 60 lines (p99)", jumpMs(**log), "ms", 8, "", 0});
    const double indexPercent =
        100.0 * static_cast<double>((*log)->indexMemoryBytes()) / static_cast<double>(size);
    report.add({"log: index memory, % of the file", indexPercent, "%", 2, "", 0});

    const auto start = Clock::now();
    LogStructure structure(*log);
    structure.start();
    structure.wait();
    std::printf("  (landmark scan: %zu landmarks, %zu groups in %.0f ms)\n",
                structure.landmarks().size(), structure.groups().size(), msSince(start));
}

} // namespace

void benchLogs(Report& report)
{
    const auto size = static_cast<std::uint64_t>(envNumber("RELAYHUD_BENCH_LOG_MB", 1024)) << 20;
    const fs::path dir =
        fs::temp_directory_path() / ("relayhud-bench-logs-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const std::string path = (dir / "job.log").string();
    const auto start = Clock::now();
    if (!generateLog(path, size)) {
        std::printf("  cannot write %s\n", path.c_str());
        fs::remove_all(dir);
        return;
    }
    const auto actual = fs::file_size(path);
    std::printf("  generated %s (%.0f MB) in %.1f s\n", path.c_str(),
                static_cast<double>(actual) / (1 << 20), msSince(start) / 1000);
    double warm = 0;
    runReference("cat '" + path + "' > /dev/null", warm); // into the page cache, as for wc
    measure(report, path, actual);
    fs::remove_all(dir);
}

} // namespace relayhud::bench
