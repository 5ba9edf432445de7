// History of one test across 1,000 runs in a cache holding 30 million
// results: TestResultStore::testHistory(run, {test}, 1000) <= 50 ms. Reference: a bare
// `SELECT count(*) FROM test_result WHERE test_id = ?` on the same file.
// The cache is built at bench time in a temp folder: 1,000 SHAs of one job
// with 30,000 tests each, a rerun on every 25th SHA and a second job on every
// 10th, so the query has attempts and other jobs to skip. The first run goes
// through TestRunWriter; the rest are bulk INSERT ... SELECT statements, with
// the by-test index built once at the end. Scale with
// RELAYHUD_BENCH_HISTORY_RUNS (default 1000) and RELAYHUD_BENCH_HISTORY_TESTS
// (default 30000); RELAYHUD_BENCH_KEEP=1 leaves the cache file for a look.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace relayhud::bench {
namespace {

namespace fs = std::filesystem;
struct Scale {
    int shas = 1000;
    int tests = 30000;
};

struct RunRef {
    CheckRunId id;
    bool withResults = true;
};

std::string shaOf(int i)
{
    char sha[41];
    std::snprintf(sha, sizeof sha, "%08x%032x", 0x5eed0000u + static_cast<unsigned>(i), 7u);
    return sha;
}

CheckRun makeRun(int sha, const std::string& job, int attempt)
{
    CheckRun run;
    run.downstreamRepo = "torch-spyre/torch-spyre";
    run.upstreamSha = Sha{shaOf(sha)};
    run.workflow = "Spyre CI";
    run.jobName = job;
    run.runId = std::to_string(14'800'000'000LL + sha);
    run.runAttempt = attempt;
    run.checkRunId = CheckRunId{std::to_string(42'000'000'000LL + sha * 10 + attempt)
                                + (job == "test (default)" ? "" : "9")};
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = sha % 3 ? Conclusion::Success : Conclusion::Failure;
    run.reported.artifactUrl =
        "https://github.com/torch-spyre/torch-spyre/actions/runs/" + run.runId + "/artifacts";
    return run;
}

// Commits and check runs through RunStore::apply; returns every run.
std::vector<CheckRun> addRuns(Database& cache, const Scale& scale)
{
    std::vector<CheckRun> all;
    SyncBatch batch;
    for (int i = 0; i < scale.shas; ++i) {
        batch.commits.push_back(
            {Sha{shaOf(i)}, 0, "main", EventType::Push, 1'760'000'000 + i * 600, "", ""});
        batch.runs.push_back(makeRun(i, "test (default)", 1));
        if (i % 25 == 0)
            batch.runs.push_back(makeRun(i, "test (default)", 2));
        if (i % 10 == 0)
            batch.runs.push_back(makeRun(i, "test (inductor)", 1));
    }
    if (auto r = RunStore(cache).apply(batch); !r)
        std::fprintf(stderr, "apply: %s\n", r.message().c_str());
    return batch.runs;
}

// The test cases, through the real writer, as the first run's results.
bool writeFirstRun(Database& cache, std::int64_t row, int tests)
{
    auto writer =
        TestResultStore(cache).beginTestRun({row, TestRunSource::Artifacts, "artifacts", "bench"});
    if (!writer)
        return false;
    TestCaseResult c;
    c.file = "test/test_ops.py";
    for (int t = 0; t < tests; ++t) {
        c.className = "TestCommonPRIVATEUSE1";
        c.name = "test_compare_cpu_op" + std::to_string(t) + "_spyre_float16";
        c.identity = c.file + "::" + c.className + "::" + c.name;
        c.baseName = "TestCommon::test_compare_cpu";
        if (!(*writer)->add(c))
            return false;
    }
    return static_cast<bool>((*writer)->commit({}));
}

// Every other run's results in bulk: ~2% failed, 3% skipped, the rest passed,
// scattered by a hash of (run, test).
bool bulkInsertResults(sqlite3* db, const std::vector<std::int64_t>& rows, int tests)
{
    sqlite3_stmt* addRun = nullptr;
    sqlite3_stmt* addResults = nullptr;
    sqlite3_prepare_v2(db,
                       "INSERT INTO test_run(check_run_row, source, state, label, location,"
                       " fetched_at, stored_results, passed) VALUES (?1, 0, 0, 'artifacts',"
                       " 'bench', 0, ?2, ?2)",
                       -1, &addRun, nullptr);
    sqlite3_prepare_v2(db,
                       "INSERT INTO test_result(test_run_id, test_id, outcome, duration_us)"
                       " SELECT ?1, id, CASE WHEN (id * 2654435761 + ?1 * 40503) % 1000 < 20"
                       " THEN 1 WHEN (id * 2654435761 + ?1 * 40503) % 1000 < 50 THEN 3 ELSE 0"
                       " END, (id * 7919 + ?1) % 250000 FROM test_case WHERE id <= ?2",
                       -1, &addResults, nullptr);
    bool ok = addRun && addResults && execOk(db, "BEGIN");
    for (std::size_t i = 0; ok && i < rows.size(); ++i) {
        sqlite3_reset(addRun);
        sqlite3_bind_int64(addRun, 1, rows[i]);
        sqlite3_bind_int(addRun, 2, tests);
        ok = sqlite3_step(addRun) == SQLITE_DONE;
        sqlite3_reset(addResults);
        sqlite3_bind_int64(addResults, 1, sqlite3_last_insert_rowid(db));
        sqlite3_bind_int(addResults, 2, tests);
        ok = ok && sqlite3_step(addResults) == SQLITE_DONE;
        if (ok && i % 100 == 99)
            ok = execOk(db, "COMMIT") && execOk(db, "BEGIN");
    }
    ok = ok && execOk(db, "COMMIT");
    sqlite3_finalize(addRun);
    sqlite3_finalize(addResults);
    return ok;
}

// Builds the whole cache; returns the row of the newest run of the main job.
std::int64_t buildCache(const std::string& path, const Scale& scale)
{
    std::vector<std::int64_t> rows;
    {
        auto cache = Database::open(path);
        if (!cache)
            return 0;
        for (const CheckRun& run : addRuns(**cache, scale))
            rows.push_back(**RunStore(**cache).checkRunRowFor(run.checkRunId));
        if (!writeFirstRun(**cache, rows.front(), scale.tests))
            return 0;
    }
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    // A bench file: durability while building buys nothing.
    bool ok = execOk(db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                         " PRAGMA cache_size = -262144; DROP INDEX test_result_by_test");
    ok = ok && bulkInsertResults(db, {rows.begin() + 1, rows.end()}, scale.tests);
    ok = ok
         && execOk(db, "CREATE INDEX test_result_by_test ON test_result(test_id,"
                       " test_run_id, outcome); ANALYZE; PRAGMA journal_mode = WAL");
    sqlite3_close(db);
    return ok ? **Database::open(path).value()->checkRunRowFor(
               makeRun(scale.shas - 1, "test (default)", 1).checkRunId)
              : 0;
}

double countMs(const std::string& path, std::int64_t testId, std::int64_t& count)
{
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db, "SELECT count(*) FROM test_result WHERE test_id = ?", -1, &s, nullptr);
    std::vector<double> times;
    for (int i = 0; i < 7; ++i) {
        sqlite3_reset(s);
        sqlite3_bind_int64(s, 1, testId);
        const auto start = Clock::now();
        if (sqlite3_step(s) == SQLITE_ROW)
            count = sqlite3_column_int64(s, 0);
        times.push_back(msSince(start));
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return median(times);
}

} // namespace

void benchTestHistory(Report& report)
{
    const Scale scale{envNumber("RELAYHUD_BENCH_HISTORY_RUNS", 1000),
                      envNumber("RELAYHUD_BENCH_HISTORY_TESTS", 30000)};
    const fs::path dir = fs::temp_directory_path() / "relayhud-bench-history";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = (dir / "cache.sqlite").string();
    auto start = Clock::now();
    const std::int64_t row = buildCache(path, scale);
    auto cache = Database::open(path);
    if (!row || !cache) {
        std::fprintf(stderr, "could not build the history cache\n");
        return;
    }
    const auto stats = RunStore(**cache).stats();
    std::printf("  built %lld test runs, %lld results (%.0f MB) in %.1f s\n",
                static_cast<long long>(stats->testRuns), static_cast<long long>(stats->testResults),
                static_cast<double>(fs::file_size(path)) / 1e6, msSince(start) / 1000.0);

    const std::int64_t testId = scale.tests / 2;
    std::vector<double> times;
    std::size_t points = 0;
    for (int i = 0; i < 9; ++i) {
        start = Clock::now();
        auto history = TestResultStore(**cache).testHistory(row, {testId}, 1000);
        times.push_back(msSince(start));
        points = history ? history->front().points.size() : 0;
    }
    std::printf("  first call %.2f ms (colder), %zu points per history\n", times.front(), points);
    std::int64_t count = 0;
    const double refMs = countMs(path, testId, count);
    report.add({"history of 1 test across " + std::to_string(points) + " runs", median(times), "ms",
                50, "count(*) of its " + std::to_string(count) + " results", refMs});

    std::vector<std::int64_t> hundred;
    for (std::int64_t t = 1; t <= 100; ++t)
        hundred.push_back(t * (scale.tests / 100));
    start = Clock::now();
    auto many = TestResultStore(**cache).testHistory(row, hundred, 1000);
    std::printf("  (for scale: 100 tests across the same runs: %.1f ms)\n", msSince(start));
    cache->reset();
    if (!std::getenv("RELAYHUD_BENCH_KEEP"))
        fs::remove_all(dir);
    else
        std::printf("  kept %s\n", path.c_str());
}

} // namespace relayhud::bench
