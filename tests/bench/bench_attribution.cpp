// Attribution of every failure in a 30-day window (issue 15): 2,000 PR runs
// of 30,000 tests, about 20,000 failures, <= 1 s from a freshly opened cache;
// after a sync of 50 new runs, their failures <= 100 ms; each beside a bare
// SQLite read of the same failing results.
// The cache is built at bench time in a temp folder through the real writer:
// 4 test jobs on 500 PR heads (250 PRs of two heads each, other authors)
// over 30 days, and failures of the kinds attribution tells apart: each job's
// 100 flaky tests (5% of runs each), PRs that break tests of their own (one
// in ten PRs, 30 tests, on both heads), a broken trunk (a culprit PR's heads,
// then every run for two days) and a backend break (every run for a day).
// Scale with RELAYHUD_BENCH_ATTRIBUTION_HEADS (default 500) and
// RELAYHUD_BENCH_ATTRIBUTION_TESTS (default 30000); RELAYHUD_BENCH_KEEP=1
// leaves the cache file. The OS page cache stays warm: "cold" means a cache
// opened afresh, with nothing read yet. At full size the cache holds 60
// million results, written in batches of 25 heads (Database::beginWriteBatch);
// the folder's disk use (database and WAL, sampled every 20 ms while it is
// built) is printed and held to <= 5,000 MB. It takes about 15 minutes.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/triage/suggest.h"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace relayhud::bench {
namespace {

namespace fs = std::filesystem;
using triage::FailureClass;

constexpr int kJobs = 4;
constexpr int kFlakyTests = 100;
constexpr EpochSeconds kStart = 1'760'000'000;
constexpr EpochSeconds kDays = 30;

constexpr int kHeadsPerStep = 25; // one write batch: 100 runs

// What the bench's folder holds on disk (allocated blocks, so a sparse or
// preallocated file counts as what it uses).
struct DiskUse {
    double lastMb = 0;
    double peakMb = 0;
    double peakWalMb = 0;
    double databaseMb = 0;

    void sample(const fs::path& dir)
    {
        double total = 0;
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(dir, error)) {
            struct stat info {};
            if (::stat(entry.path().c_str(), &info) != 0)
                continue;
            const double mb = static_cast<double>(info.st_blocks) * 512.0 / 1e6;
            total += mb;
            const std::string name = entry.path().filename().string();
            if (name.ends_with("-wal"))
                peakWalMb = std::max(peakWalMb, mb);
            if (name.ends_with(".sqlite"))
                databaseMb = mb;
        }
        lastMb = total;
        peakMb = std::max(peakMb, total);
    }
};

struct World {
    int heads = 500;
    int tests = 30000;
    EpochSeconds step = 0; // seconds between heads
};

std::string shaOf(int i)
{
    char sha[41];
    std::snprintf(sha, sizeof sha, "%08x%032x", 0xa77u + static_cast<unsigned>(i), 7u);
    return sha;
}

// Head h belongs to PR 160000 + h / 2 (its two heads are adjacent in time).
std::int64_t prOf(int head) { return 160'000 + head / 2; }

// The failing tests of head h on job j (sorted, distinct).
std::vector<int> failingTests(const World& w, int head, int job)
{
    std::set<int> out;
    std::mt19937_64 rng(static_cast<std::uint64_t>(head) * 1000 + static_cast<std::uint64_t>(job));
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    for (int t = 0; t < kFlakyTests; ++t)
        if (unit(rng) < 0.05)
            out.insert(t);
    const std::int64_t pr = prOf(head);
    if (pr % 10 == 3) // this PR's own breakage, both heads
        for (int k = 0; k < 30; ++k)
            out.insert(1000 + static_cast<int>((pr * 37 + k * 101) % (w.tests - 2000)));
    const int culprit = w.heads * 2 / 5; // its heads, then everyone for ~2 days
    const int trunkEnd = culprit + 2 + static_cast<int>(2 * 86400 / w.step);
    if (head / 2 == culprit / 2 || (head > culprit + 1 && head < trunkEnd))
        for (int k = 0; k < 5; ++k)
            out.insert(500 + k);
    const int backend = w.heads * 3 / 4; // every run for ~a day
    if (head >= backend && head < backend + static_cast<int>(86400 / w.step))
        for (int k = 0; k < 5; ++k)
            out.insert(600 + k);
    return {out.begin(), out.end()};
}

CheckRun makeRun(const World& w, int head, int job)
{
    CheckRun run;
    run.downstreamRepo = "torch-spyre/torch-spyre";
    run.upstreamSha = Sha{shaOf(head)};
    run.prNumber = prOf(head);
    run.eventType = EventType::PullRequest;
    run.workflow = "CI";
    run.jobName = "test (default, " + std::to_string(job + 1) + ", " + std::to_string(kJobs) + ")";
    run.runId = std::to_string(20'000'000'000LL + head);
    run.runAttempt = 1;
    run.checkRunId = CheckRunId{std::to_string(60'000'000'000LL + head * kJobs + job)};
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion =
        failingTests(w, head, job).empty() ? Conclusion::Success : Conclusion::Failure;
    run.reported.startedAt = kStart + head * w.step + 60;
    return run;
}

bool writeResults(Database& cache, std::int64_t row, const World& w, int head, int job)
{
    auto writer =
        TestResultStore(cache).beginTestRun({row, TestRunSource::Artifacts, "artifacts", "bench"});
    if (!writer)
        return false;
    const std::vector<int> failing = failingTests(w, head, job);
    TestCaseResult c;
    c.file = "test/test_ops.py";
    c.className = "TestCommonPRIVATEUSE1";
    TestRunTotals totals;
    std::size_t next = 0;
    for (int t = 0; t < w.tests; ++t) {
        c.name = "test_compare_cpu_op" + std::to_string(t) + "_spyre_float16";
        c.identity = c.file + "::" + c.className + "::" + c.name;
        const bool fails = next < failing.size() && failing[next] == t;
        next += fails ? 1U : 0U;
        c.outcome = fails ? TestOutcome::Failed : TestOutcome::Passed;
        c.message.text = fails ? "AssertionError: Tensor-likes are not close!" : "";
        ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
        if (!(*writer)->add(c))
            return false;
    }
    return static_cast<bool>((*writer)->commit(totals));
}

// Heads [from, to) of every job: commits, runs and results.
bool addHeads(Database& cache, const World& w, int from, int to, std::vector<std::int64_t>* rows)
{
    SyncBatch batch;
    for (int h = from; h < to; ++h) {
        batch.commits.push_back({Sha{shaOf(h)}, prOf(h), "", EventType::PullRequest,
                                 kStart + h * w.step, "PR " + std::to_string(prOf(h)),
                                 "author" + std::to_string(prOf(h))});
        for (int j = 0; j < kJobs; ++j)
            batch.runs.push_back(makeRun(w, h, j));
    }
    if (!RunStore(cache).apply(batch))
        return false;
    for (const CheckRun& run : batch.runs) {
        auto row = RunStore(cache).checkRunRowFor(run.checkRunId);
        if (!row || !*row)
            return false;
        const int head = static_cast<int>(std::stoll(run.runId) - 20'000'000'000LL);
        const int job = run.jobName[15] - '1';
        if (!writeResults(cache, **row, w, head, job))
            return false;
        if (rows)
            rows->push_back(**row);
    }
    return true;
}

// The whole window, in steps of one write batch each (a backfill's way: one
// commit per run would write every test's page of the by-test index 2,000
// times over).
bool buildCache(const std::string& path, const World& w)
{
    auto cache = Database::open(path);
    if (!cache) {
        std::fprintf(stderr, "%s\n", cache.message().c_str());
        return false;
    }
    for (int from = 0; from < w.heads; from += kHeadsPerStep) {
        auto batch = (*cache)->beginWriteBatch();
        if (!batch || !addHeads(**cache, w, from, std::min(w.heads, from + kHeadsPerStep), nullptr)
            || !(*batch)->commit()) {
            std::fprintf(stderr, "could not build the attribution cache\n");
            return false;
        }
    }
    const auto stats = RunStore(**cache).stats();
    if (!stats)
        return false;
    std::printf("  %lld test runs, %lld results\n", static_cast<long long>(stats->testRuns),
                static_cast<long long>(stats->testResults));
    return true;
}

// The reference: every failing result of these runs, read bare through the
// same partial index.
double bareReadMs(const std::string& path, const std::vector<std::int64_t>& rows,
                  std::int64_t& count)
{
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT r.test_id, r.outcome FROM test_run t"
                       " JOIN test_result r INDEXED BY test_result_triage"
                       " ON r.test_run_id = t.id"
                       " WHERE t.check_run_row = ? AND r.outcome IN (1, 2, 4, 5)",
                       -1, &s, nullptr);
    const double ms = medianMs(5, [&] {
        count = 0;
        for (const std::int64_t row : rows) {
            sqlite3_reset(s);
            sqlite3_bind_int64(s, 1, row);
            while (sqlite3_step(s) == SQLITE_ROW)
                ++count;
        }
    });
    sqlite3_finalize(s);
    sqlite3_close(db);
    return ms;
}

// Suggestions for `rows` on a freshly opened cache; false on an error.
bool attribute(const std::string& path, const std::vector<std::int64_t>* rows, double& ms,
               std::map<FailureClass, int>& classes, std::vector<std::int64_t>& picked)
{
    auto cache = Database::open(path);
    if (!cache)
        return false;
    triage::SuggestOptions options;
    options.includeExpected = false;
    const auto start = Clock::now();
    if (rows) {
        picked = *rows;
    } else {
        auto all = EvidenceStore(**cache).triageRunRows({});
        if (!all)
            return false;
        picked = std::move(*all);
    }
    auto suggestions = triage::suggestForRuns(**cache, picked, options);
    ms = msSince(start);
    if (!suggestions) {
        std::fprintf(stderr, "suggest: %s\n", suggestions.message().c_str());
        return false;
    }
    classes.clear();
    for (const auto& s : *suggestions)
        ++classes[s.cls];
    return true;
}

void printClasses(const std::map<FailureClass, int>& classes)
{
    for (const auto& [cls, n] : classes)
        std::printf(" %d %s", n, std::string(triage::failureClassName(cls)).c_str());
    std::printf("\n");
}

} // namespace

void benchAttribution(Report& report)
{
    World w;
    w.heads = envNumber("RELAYHUD_BENCH_ATTRIBUTION_HEADS", 500);
    w.tests = std::max(envNumber("RELAYHUD_BENCH_ATTRIBUTION_TESTS", 30000), 4000);
    w.step = kDays * 86400 / w.heads;
    const fs::path dir = fs::temp_directory_path() / "relayhud-bench-attribution";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = (dir / "cache.sqlite").string();
    auto start = Clock::now();
    DiskUse disk;
    {
        // The folder is sampled every 20 ms while the cache is built, so that
        // a WAL that grows inside a batch and is truncated after its commit
        // is seen too.
        std::atomic<bool> built = false;
        std::thread sampler([&] {
            while (!built.load()) {
                disk.sample(dir);
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            }
        });
        const bool ok = buildCache(path, w);
        built = true;
        sampler.join();
        if (!ok)
            return;
        std::printf("  built in %.1f s\n", msSince(start) / 1000.0);
    }
    disk.sample(dir);
    std::printf("  disk: %.0f MB at the end, %.0f MB at most while building (the WAL at most "
                "%.0f MB)\n",
                disk.lastMb, disk.peakMb, disk.peakWalMb);
    report.add({"attribution cache on disk, most while building", disk.peakMb, "MB", 5000,
                "its database at the end", disk.databaseMb});

    std::vector<double> times;
    std::map<FailureClass, int> classes;
    std::vector<std::int64_t> rows;
    for (int i = 0; i < 5; ++i) {
        double ms = 0;
        if (!attribute(path, nullptr, ms, classes, rows))
            return;
        times.push_back(ms);
    }
    int failures = 0;
    for (const auto& [cls, n] : classes)
        failures += n;
    std::printf("  first call %.1f ms; %zu runs:", times.front(), rows.size());
    printClasses(classes);
    std::int64_t count = 0;
    double refMs = bareReadMs(path, rows, count);
    report.add({"attribution of " + std::to_string(failures) + " failures in "
                    + std::to_string(rows.size()) + " runs, freshly opened cache",
                median(times), "ms", 1000,
                "bare read of the same " + std::to_string(count) + " failing results", refMs});

    // A sync brings 50 new runs (12 heads of 4 jobs, and 2 of a 13th head).
    std::vector<std::int64_t> fresh;
    {
        auto cache = Database::open(path);
        if (!cache || !addHeads(**cache, w, w.heads, w.heads + 13, &fresh)) {
            std::fprintf(stderr, "could not add the new runs\n");
            return;
        }
        fresh.resize(50);
    }
    times.clear();
    for (int i = 0; i < 5; ++i) {
        double ms = 0;
        if (!attribute(path, &fresh, ms, classes, rows))
            return;
        times.push_back(ms);
    }
    std::printf("  50 new runs:");
    printClasses(classes);
    refMs = bareReadMs(path, fresh, count);
    report.add({"attribution after a sync of 50 new runs, freshly opened cache", median(times),
                "ms", 100, "bare read of their " + std::to_string(count) + " failing results",
                refMs});
    if (!std::getenv("RELAYHUD_BENCH_KEEP"))
        fs::remove_all(dir);
    else
        std::printf("  kept %s\n", path.c_str());
}

} // namespace relayhud::bench
