// Automatic failure classes after a sync (issue 5): suggestions for the 1,000
// failed tests of one SHA's runs <= 0.5 s, beside the bare SQLite read of
// those same failing results.
// The cache is built at bench time in a temp folder through the real writer:
// 5 test jobs x 40 SHAs x 1,000 tests, and on the newest SHA 200 failures per
// job of the kinds the rules tell apart: tests that passed before
// (regressions), failed before (pre-existing), flip every SHA (flaky by
// history), and in one job pass on a rerun attempt (flaky by retry); plus 3
// backends' jobs that failed without tests with an infra line (one outage). Scale with
// RELAYHUD_BENCH_SUGGEST_SHAS (default 40) and RELAYHUD_BENCH_SUGGEST_TESTS
// (default 1000); RELAYHUD_BENCH_KEEP=1 leaves the cache file for a look.
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/triage/suggest.h"

#include <sqlite3.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace relayhud::bench {
namespace {

namespace fs = std::filesystem;
using triage::FailureClass;

constexpr int kJobs = 5;
constexpr int kFailing = 200; // per job on the newest SHA: 5 x 200 = 1,000

std::string shaOf(int i)
{
    char sha[41];
    std::snprintf(sha, sizeof sha, "%08x%032x", 0xb1e5u + static_cast<unsigned>(i), 11u);
    return sha;
}

CheckRun makeRun(const std::string& repo, int sha, const std::string& job, int attempt,
                 Conclusion conclusion)
{
    CheckRun run;
    run.downstreamRepo = repo;
    run.upstreamSha = Sha{shaOf(sha)};
    run.workflow = "CI";
    run.jobName = job;
    run.runId = std::to_string(15'000'000'000LL + sha * 100);
    run.runAttempt = attempt;
    run.checkRunId =
        CheckRunId{repo + "/" + job + "/" + std::to_string(sha) + "/" + std::to_string(attempt)};
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = conclusion;
    run.reported.startedAt = 1'760'000'000 + sha * 600;
    return run;
}

// A test's outcome in the main jobs: tests below kFailing fail on the newest
// SHA (the first job's rerun there passes them all); before it, the first
// quarter passed, the second failed, the third flipped, the fourth passed.
TestOutcome outcomeOf(int test, int sha, int newest, int attempt)
{
    if (test >= kFailing || attempt > 1)
        return TestOutcome::Passed;
    if (sha == newest)
        return TestOutcome::Failed;
    switch (test / (kFailing / 4)) {
    case 1: return TestOutcome::Failed;
    case 2: return sha % 2 ? TestOutcome::Failed : TestOutcome::Passed;
    default: return TestOutcome::Passed;
    }
}

bool writeResults(Database& cache, std::int64_t row, int tests, int sha, int newest, int attempt)
{
    auto writer =
        TestResultStore(cache).beginTestRun({row, TestRunSource::Artifacts, "artifacts", "bench"});
    if (!writer)
        return false;
    TestCaseResult c;
    c.file = "test/test_ops.py";
    c.className = "TestCommonPRIVATEUSE1";
    TestRunTotals totals;
    for (int t = 0; t < tests; ++t) {
        c.name = "test_compare_cpu_op" + std::to_string(t) + "_spyre_float16";
        c.identity = c.file + "::" + c.className + "::" + c.name;
        c.outcome = outcomeOf(t, sha, newest, attempt);
        ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
        if (!(*writer)->add(c))
            return false;
    }
    return static_cast<bool>((*writer)->commit(totals));
}

std::int64_t rowOf(Database& cache, const CheckRun& run)
{
    auto row = RunStore(cache).checkRunRowFor(run.checkRunId);
    return row && *row ? **row : 0;
}

// Builds the cache; false when something could not be written.
bool buildCache(Database& cache, int shas, int tests)
{
    const std::string repo = "torch-spyre/torch-spyre";
    const int newest = shas - 1;
    SyncBatch batch;
    std::vector<std::pair<CheckRun, int>> withResults; // run, SHA index
    for (int i = 0; i < shas; ++i) {
        batch.commits.push_back(
            {Sha{shaOf(i)}, 0, "main", EventType::Push, 1'760'000'000 + i * 600, "", ""});
        for (int j = 0; j < kJobs; ++j) {
            const std::string job = "test (default, " + std::to_string(j + 1) + ")";
            const auto conclusion = i == newest ? Conclusion::Failure : Conclusion::Success;
            withResults.emplace_back(makeRun(repo, i, job, 1, conclusion), i);
            if (i == newest && j == 0)
                withResults.emplace_back(makeRun(repo, i, job, 2, Conclusion::Success), i);
        }
    }
    for (const auto& [run, sha] : withResults)
        batch.runs.push_back(run);
    std::vector<CheckRun> infra;
    for (const std::string other : {"intel/torch-xpu-ops", "Ascend/pytorch", "openmlu/torch-mlu"})
        infra.push_back(makeRun(other, newest, "build", 1, Conclusion::Failure));
    batch.runs.insert(batch.runs.end(), infra.begin(), infra.end());
    if (!RunStore(cache).apply(batch))
        return false;
    for (const auto& [run, sha] : withResults)
        if (!writeResults(cache, rowOf(cache, run), tests, sha, newest, run.runAttempt))
            return false;
    for (const CheckRun& run : infra) {
        JobFailureLine line;
        line.checkRunRow = rowOf(cache, run);
        line.state = JobLineState::Matched;
        line.rule = "Runner lost";
        line.cls = FailureClass::Infra;
        line.line = 812;
        line.text = "##[error]The self-hosted runner: gpu-3 lost communication with the server.";
        if (!EvidenceStore(cache).putJobFailureLine(line))
            return false;
    }
    return true;
}

// The reference: the failing results of the same runs, read bare.
double bareReadMs(const std::string& path, const std::vector<std::int64_t>& rows,
                  std::int64_t& count)
{
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT r.test_id, r.outcome, c.identity, c.name FROM test_run t"
                       " JOIN test_result r ON r.test_run_id = t.id"
                       " JOIN test_case c ON c.id = r.test_id"
                       " WHERE t.check_run_row = ? AND r.outcome IN (1, 2, 4, 5)",
                       -1, &s, nullptr);
    std::vector<double> times;
    for (int i = 0; i < 7; ++i) {
        const auto start = Clock::now();
        count = 0;
        for (const std::int64_t row : rows) {
            sqlite3_reset(s);
            sqlite3_bind_int64(s, 1, row);
            while (sqlite3_step(s) == SQLITE_ROW)
                ++count;
        }
        times.push_back(msSince(start));
    }
    sqlite3_finalize(s);
    sqlite3_close(db);
    return median(times);
}

} // namespace

void benchSuggest(Report& report)
{
    const int shas = envNumber("RELAYHUD_BENCH_SUGGEST_SHAS", 40);
    const int tests = std::max(envNumber("RELAYHUD_BENCH_SUGGEST_TESTS", 1000), kFailing);
    const fs::path dir = fs::temp_directory_path() / "relayhud-bench-suggest";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = (dir / "cache.sqlite").string();
    auto start = Clock::now();
    auto cache = Database::open(path);
    if (!cache || !buildCache(**cache, shas, tests)) {
        std::fprintf(stderr, "could not build the suggestions cache\n");
        return;
    }
    const auto stats = RunStore(**cache).stats();
    std::printf("  built %lld test runs, %lld results in %.1f s\n",
                static_cast<long long>(stats->testRuns), static_cast<long long>(stats->testResults),
                msSince(start) / 1000.0);

    // What the CLI and the app do after a sync: the newest SHA's runs to
    // triage, then their suggestions.
    TriageRunQuery query;
    query.sha = Sha{shaOf(shas - 1)};
    std::vector<double> times;
    std::vector<std::int64_t> rows;
    std::map<FailureClass, int> classes;
    std::size_t failedTests = 0;
    for (int i = 0; i < 7; ++i) {
        start = Clock::now();
        auto picked = EvidenceStore(**cache).triageRunRows(query);
        if (!picked) {
            std::fprintf(stderr, "triage runs: %s\n", picked.message().c_str());
            return;
        }
        auto suggestions = triage::suggestForRuns(**cache, *picked);
        times.push_back(msSince(start));
        if (!suggestions) {
            std::fprintf(stderr, "suggest: %s\n", suggestions.message().c_str());
            return;
        }
        rows = *picked;
        classes.clear();
        failedTests = 0;
        for (const auto& s : *suggestions) {
            ++classes[s.cls];
            failedTests += s.target.isJob() ? 0U : 1U;
        }
    }
    std::printf("  first call %.1f ms (colder); %zu runs:", times.front(), rows.size());
    for (const auto& [cls, n] : classes)
        std::printf(" %d %s", n, std::string(triage::failureClassName(cls)).c_str());
    std::printf("\n");
    std::int64_t count = 0;
    const double refMs = bareReadMs(path, rows, count);
    report.add({"suggestions for " + std::to_string(failedTests) + " failed tests after a sync",
                median(times), "ms", 500,
                "bare read of the same " + std::to_string(count) + " failing results", refMs});
    cache->reset();
    if (!std::getenv("RELAYHUD_BENCH_KEEP"))
        fs::remove_all(dir);
    else
        std::printf("  kept %s\n", path.c_str());
}

} // namespace relayhud::bench
