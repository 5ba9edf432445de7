// Failure clusters and triage marks (issue 5). 100,000 failing tests, their
// reasons generated from 200 real-looking failure shapes with varying
// numbers, addresses, temp paths and durations:
//   clusterKey + buildClusters                 <= 1 s, beside `sort | uniq -c`
//                                                 of the same reasons
//   TriageStore::failuresForClustering (100k rows)   <= 1 s, beside a bare SQLite
//                                                 read of the same results
//   TriageStore::triageProgress, 200 x 60 matrix     <= 20 ms, with a tenth of the
//                                                 failures tagged and untagged
// The cache holds 200 SHAs x 60 jobs, every run red with 9 failing and 20
// passing tests: the worst case for the marks (a real matrix is mostly green).
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/triage_store.h"
#include "relayhud/triage/cluster.h"

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace relayhud::bench {
namespace {

constexpr int kShas = 200;
constexpr int kJobs = 60;
constexpr int kFailing = 9;
constexpr int kPassing = 20;
constexpr int kShapes = 200;

// Failure shape `shape` with instance `i`'s varying parts.
std::string reason(int shape, std::uint64_t i)
{
    const std::string n = std::to_string(i % 977);
    const std::string s = std::to_string(shape);
    switch (shape % 8) {
    case 0:
        return "AssertionError: Tensor-likes are not close! shape" + s
               + "\n\nMismatched "
                 "elements: "
               + n + " / 4096 (" + n + ".5%)";
    case 1:
        return "RuntimeError: op" + s + ": out of memory. Tried to allocate " + n
               + ".00 MiB (GPU 0; 15.78 GiB total capacity)";
    case 2:
        return "FileNotFoundError: [Errno 2] No such file: '/tmp/pytest-of-ci/pytest-" + n
               + "/test_io" + s + "0/out.bin'";
    case 3:
        return "RuntimeError: Process " + n + " terminated or timed out after " + n
               + ".25 seconds (suite " + s + ")";
    case 4:
        return "Fatal Python error: Segmentation fault in kernel_" + s + " at 0x7f3a"
               + std::to_string(100000 + i % 90000);
    case 5:
        return "AssertionError: Scalars are not equal! Expected " + n + " but got "
               + std::to_string(i % 13) + " in check " + s;
    case 6: return "Failed: Timeout >" + n + ".0s in test_slow_" + s;
    default:
        return "KeyError: 'run-" + std::to_string(10000000 + i % 80000000) + "abc-key" + s + "'";
    }
}

std::string shaOf(int sha) { return "c0ffee" + std::to_string(1000000 + sha); }

struct BenchCache {
    std::string path;
    std::vector<std::int64_t> rows;
    std::vector<std::string> reasons; // the failures' messages, in write order
};

TestCaseResult testCase(int test, TestOutcome outcome, std::string message)
{
    TestCaseResult c;
    c.file = "test/test_bench.py";
    c.className = "TestBench" + std::to_string(test % 17);
    c.name = "test_case_" + std::to_string(test);
    c.identity = c.file + "::" + c.className + "::" + c.name;
    c.baseName = c.className + "::" + c.name;
    c.outcome = outcome;
    c.message.text = std::move(message);
    c.message.fullBytes = c.message.text.size();
    return c;
}

bool fill(Database& cache, BenchCache& out)
{
    SyncBatch batch;
    batch.backends.push_back(Backend{"org/bench", Level::L2, {}});
    for (int sha = 0; sha < kShas; ++sha) {
        const EpochSeconds time = 1'780'000'000 + sha * 600;
        batch.commits.push_back({Sha{shaOf(sha)}, 0, "main", EventType::Push, time, "", ""});
        for (int job = 0; job < kJobs; ++job) {
            CheckRun run;
            run.downstreamRepo = "org/bench";
            run.upstreamSha = Sha{shaOf(sha)};
            run.workflow = "CI";
            run.jobName = "test (" + std::to_string(job) + ")";
            run.runId = std::to_string(sha * 100 + job);
            run.checkRunId = CheckRunId{"cr" + run.runId};
            run.reported.status = RunStatus::Completed;
            run.reported.conclusion = Conclusion::Failure;
            batch.runs.push_back(std::move(run));
        }
    }
    if (!RunStore(cache).apply(batch))
        return false;
    std::uint64_t instance = 0;
    std::vector<TriageTag> tags;
    for (const CheckRun& run : batch.runs) {
        auto row = RunStore(cache).checkRunRowFor(run.checkRunId);
        if (!row || !*row)
            return false;
        out.rows.push_back(**row);
        auto writer =
            TestResultStore(cache).beginTestRun({**row, TestRunSource::Artifacts, "bench", ""});
        if (!writer)
            return false;
        TestRunTotals totals;
        for (int t = 0; t < kFailing + kPassing; ++t) {
            const bool failing = t < kFailing;
            const TestOutcome outcome = failing ? TestOutcome::Failed : TestOutcome::Passed;
            std::string message;
            if (failing) {
                ++instance;
                message = reason(static_cast<int>(instance * 7919 % kShapes), instance);
                out.reasons.push_back(message);
            }
            const TestCaseResult c =
                testCase(t + static_cast<int>(instance % 50) * 100, outcome, std::move(message));
            if (failing && instance % 10 == 0)
                tags.push_back({TriageTarget{run.downstreamRepo, run.workflow, run.jobName,
                                             run.upstreamSha, 1, c.identity},
                                triage::FailureClass::Flaky, "", "", "bench", 1});
            if (!(*writer)->add(c))
                return false;
            ++totals.outcomes[static_cast<std::size_t>(outcome)];
        }
        if (!(*writer)->commit(totals))
            return false;
    }
    return TriageStore(cache).setTriageTags(tags).ok();
}

// The reference for the read: the same failing results and their messages,
// straight from SQLite with no joins to runs, jobs or commits.
double bareReadMs(const std::string& path, std::size_t& rows)
{
    sqlite3* db = nullptr;
    rows = 0;
    if (sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
        sqlite3_close(db);
        return 0;
    }
    const auto start = Clock::now();
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT r.test_id, substr(m.text, 1, 2048) FROM test_result r"
                       " LEFT JOIN test_message m ON m.id = r.message_id"
                       " WHERE r.outcome IN (1, 2, 5)",
                       -1, &s, nullptr);
    std::size_t bytes = 0;
    while (sqlite3_step(s) == SQLITE_ROW) {
        ++rows;
        bytes += static_cast<std::size_t>(sqlite3_column_bytes(s, 1));
    }
    sqlite3_finalize(s);
    const double ms = msSince(start);
    sqlite3_close(db);
    return bytes > 0 ? ms : 0;
}

double sortUniqMs(const std::vector<FailureRecord>& failures, const std::string& file)
{
    {
        std::ofstream out(file, std::ios::binary);
        for (const FailureRecord& f : failures)
            out << f.reason << '\n';
    }
    const auto start = Clock::now();
    const std::string command = "LC_ALL=C sort '" + file + "' | uniq -c | sort -rn >/dev/null";
    if (std::system(command.c_str()) != 0)
        return 0;
    return msSince(start);
}

} // namespace

void benchClusters(Report& report)
{
    namespace fs = std::filesystem;
    const fs::path dir = fs::temp_directory_path() / "relayhud-bench-clusters";
    fs::remove_all(dir);
    fs::create_directories(dir);
    BenchCache data;
    data.path = (dir / "cache.sqlite").string();
    auto cache = Database::open(data.path);
    const auto buildStart = Clock::now();
    if (!cache || !fill(**cache, data)) {
        std::printf("  clusters: could not build the bench cache\n");
        return;
    }
    std::printf("  (cache of %zu runs, %zu failing tests built in %.1f s)\n", data.rows.size(),
                data.reasons.size(), msSince(buildStart) / 1000.0);

    std::vector<double> reads, bare, clusterTimes;
    std::vector<FailureRecord> failures;
    std::size_t bareRows = 0;
    for (int i = 0; i < 3; ++i) {
        auto start = Clock::now();
        auto read = TriageStore(**cache).failuresForClustering({0, 0, kShas});
        reads.push_back(read ? msSince(start) : 1e9);
        if (read)
            failures = std::move(*read);
        bare.push_back(bareReadMs(data.path, bareRows));
    }
    auto tags = TriageStore(**cache).triageTags();
    std::size_t clusterCount = 0;
    for (int i = 0; i < 3; ++i) {
        const auto start = Clock::now();
        const auto clusters =
            triage::buildClusters(failures, tags ? *tags : std::vector<TriageTag>{});
        clusterTimes.push_back(msSince(start));
        clusterCount = clusters.size();
    }
    const double reference = sortUniqMs(failures, (dir / "reasons.txt").string());
    auto marks = [&] {
        std::vector<double> times;
        for (int i = 0; i < 5; ++i) {
            const auto start = Clock::now();
            auto progress = TriageStore(**cache).triageProgress(data.rows);
            times.push_back(progress ? msSince(start) : 1e9);
        }
        return median(times);
    };
    const double taggedMarks = marks();
    // The same matrix before anyone triaged: the undo of every tag.
    std::vector<TriageTarget> targets;
    for (const TriageTag& tag : tags ? *tags : std::vector<TriageTag>{})
        targets.push_back(tag.target);
    const bool undone =
        (*cache)
            ->restoreTriageTags(targets, std::vector<std::optional<TriageTag>>(targets.size()))
            .ok();
    const double untaggedMarks = undone ? marks() : 1e9;
    const bool whole = failures.size() == data.reasons.size() && bareRows == failures.size();
    const std::string n = std::to_string(failures.size());
    report.add(
        {"clusters: key + group " + n + " failures (" + std::to_string(clusterCount) + " clusters)",
         whole ? median(clusterTimes) : 1e9, "ms", 1000, "sort | uniq -c | sort -rn", reference});
    report.add({"clusters: cache read of " + n + " failures", whole ? median(reads) : 1e9, "ms",
                1000, "bare SQLite read", median(bare)});
    report.add({"triage marks: 200 x 60 red cells, 10% tagged", taggedMarks, "ms", 20, "", 0});
    report.add({"triage marks: 200 x 60 red cells, untagged", untaggedMarks, "ms", 20, "", 0});
    fs::remove_all(dir);
}

} // namespace relayhud::bench
