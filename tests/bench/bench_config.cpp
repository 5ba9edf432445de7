// The outcome-config engine on a generated config of 400 names (the size of
// the largest real one), beside yaml-cpp's bare Load of the same text:
//   load + validate          <= 20 ms (issue 6)
//   one edit with re-parse   <= 20 ms (issue 6)
// and suggestions over 1,000 runs (10 jobs x the last 100 runs, 400 tests
// each: 400,000 results) in a cache built at bench time, beside the bare
// SQLite read of the same results:
//   EvidenceStore::recentResults + suggestModeChanges <= 0.5 s (issue 6)
#include "bench_sections.h"
#include "bench_util.h"

#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_suggest.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"

#include <sqlite3.h>
#include <yaml-cpp/yaml.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace relayhud::bench {
namespace {

constexpr int kEntries = 8;
constexpr int kNamesPerEntry = 50;
constexpr int kRounds = 21;

// Entries alternate modes and carry edits and comments, as real ones do.
std::string generatedConfig()
{
    std::string text = "test_suite_config:\n  labels: [trunk]\n  files:\n"
                       "    - path: ${TORCH_ROOT}/test/test_bench.py\n"
                       "      unlisted_test_mode: skip\n      tests:\n";
    for (int e = 0; e < kEntries; ++e) {
        text += "        # group " + std::to_string(e) + ": why these tests share a mode\n";
        text += "        - names:\n";
        for (int n = 0; n < kNamesPerEntry; ++n)
            text += "            - TestBench::test_case_" + std::to_string(e) + "_"
                    + std::to_string(n) + "  # RuntimeError https://example.org/issues/"
                    + std::to_string(n) + "\n";
        text += e % 2 ? "          mode: xfail\n" : "          mode: mandatory_success\n";
        text += "          edits:\n            dtypes:\n              exclude:\n"
                "                - name: int64\n";
    }
    text += "  global:\n    supported_dtypes:\n      - name: float16\n      - name: int64\n"
            "    supported_ops:\n      - name: add\n      - name: mul\n        force_xfail: true\n";
    return text;
}

constexpr int kJobs = 10;
constexpr int kShas = 100;

CheckRun suggestRun(int sha, int job)
{
    CheckRun run;
    run.downstreamRepo = "torch-spyre/torch-spyre";
    run.upstreamSha = Sha{std::string(32, 'c') + std::to_string(10'000'000 + sha)};
    run.workflow = "Spyre CI";
    run.jobName = "test (default, " + std::to_string(job) + ", " + std::to_string(kJobs) + ")";
    run.runId = std::to_string(14'800'000'000LL + sha);
    run.checkRunId = CheckRunId{std::to_string(43'000'000'000LL + sha * 100 + job)};
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = Conclusion::Failure;
    return run;
}

// Every run of every job; the first run's 400 tests through the real writer
// (test_case rows), every other run's results in bulk: a seventh of the tests
// always fail, the rest pass but for a scattered 1%.
bool buildSuggestCache(const std::string& path)
{
    std::vector<std::int64_t> rows;
    {
        auto cache = Database::open(path);
        if (!cache)
            return false;
        SyncBatch batch;
        for (int sha = 0; sha < kShas; ++sha) {
            batch.commits.push_back({suggestRun(sha, 0).upstreamSha, 0, "main", EventType::Push,
                                     1'760'000'000 + sha * 600, "", ""});
            for (int job = 0; job < kJobs; ++job)
                batch.runs.push_back(suggestRun(sha, job));
        }
        if (!RunStore(**cache).apply(batch))
            return false;
        for (const CheckRun& run : batch.runs)
            rows.push_back(**RunStore(**cache).checkRunRowFor(run.checkRunId));
        auto writer = TestResultStore(**cache).beginTestRun(
            {rows.front(), TestRunSource::Artifacts, "a", "b"});
        if (!writer)
            return false;
        TestCaseResult c;
        c.file = "test/test_bench.py";
        c.className = "TestBench";
        for (int e = 0; e < kEntries; ++e)
            for (int n = 0; n < kNamesPerEntry; ++n) {
                c.name = "test_case_" + std::to_string(e) + "_" + std::to_string(n);
                c.identity = c.file + "::TestBench::" + c.name;
                c.baseName = "TestBench::" + c.name;
                c.outcome =
                    (e * kNamesPerEntry + n + 1) % 7 ? TestOutcome::Passed : TestOutcome::Failed;
                if (!(*writer)->add(c))
                    return false;
            }
        if (!(*writer)->commit({}))
            return false;
    }
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* addRun = nullptr;
    sqlite3_stmt* addResults = nullptr;
    sqlite3_prepare_v2(db,
                       "INSERT INTO test_run(check_run_row, source, state, fetched_at,"
                       " stored_results) VALUES (?1, 0, 0, 0, 400)",
                       -1, &addRun, nullptr);
    sqlite3_prepare_v2(db,
                       "INSERT INTO test_result(test_run_id, test_id, outcome) SELECT ?1, id,"
                       " CASE WHEN id % 7 = 0 OR (id * 2654435761 + ?1 * 40503) % 100 = 0"
                       " THEN 1 ELSE 0 END FROM test_case",
                       -1, &addResults, nullptr);
    bool ok = addRun && addResults && execOk(db, "PRAGMA synchronous = OFF; BEGIN");
    for (std::size_t i = 1; ok && i < rows.size(); ++i) {
        sqlite3_reset(addRun);
        sqlite3_bind_int64(addRun, 1, rows[i]);
        ok = sqlite3_step(addRun) == SQLITE_DONE;
        sqlite3_reset(addResults);
        sqlite3_bind_int64(addResults, 1, sqlite3_last_insert_rowid(db));
        ok = ok && sqlite3_step(addResults) == SQLITE_DONE;
    }
    ok = ok && execOk(db, "COMMIT; ANALYZE");
    sqlite3_finalize(addRun);
    sqlite3_finalize(addResults);
    sqlite3_close(db);
    return ok;
}

// The reference: the same results, read bare (no test_case, no grouping).
double rawReadMs(const std::string& path, std::int64_t& rows)
{
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_prepare_v2(db,
                       "SELECT r.test_run_id, r.test_id, r.outcome FROM test_run tr"
                       " JOIN test_result r ON r.test_run_id = tr.id",
                       -1, &s, nullptr);
    const double ms = medianMs(kRounds, [&] {
        sqlite3_reset(s);
        rows = 0;
        std::int64_t sum = 0;
        while (sqlite3_step(s) == SQLITE_ROW) {
            sum += sqlite3_column_int64(s, 2);
            ++rows;
        }
        (void)sum;
    });
    sqlite3_finalize(s);
    sqlite3_close(db);
    return ms;
}

void benchSuggest(Report& report, const std::string& configText)
{
    const auto path =
        std::filesystem::temp_directory_path() / "relayhud-bench-config-suggest.sqlite";
    std::filesystem::remove(path);
    if (!buildSuggestCache(path.string())) {
        std::printf("  config suggest: building the cache failed\n");
        return;
    }
    std::string text = configText; // odd entries xfail_strict: promotions to find
    for (std::size_t at = text.find("mode: xfail\n"); at != std::string::npos;
         at = text.find("mode: xfail\n", at))
        text.replace(at, 11, "mode: xfail_strict");
    auto parsed = config::parseOutcomeConfig(text);
    auto cache = Database::open(path.string());
    std::size_t found = 0;
    std::size_t runs = 0;
    const double suggest = medianMs(kRounds, [&] {
        auto recent = cache ? EvidenceStore(**cache).recentResults({kShas, ""})
                            : Result<RecentResults>(Error{});
        if (!recent || !parsed)
            return;
        config::SuggestOptions options;
        options.runs = kShas;
        found = config::suggestModeChanges(parsed->config, *recent, options).size();
        runs = 0;
        for (const RecentJob& job : recent->jobs)
            runs += job.runs.size();
    });
    std::int64_t rows = 0;
    const double raw = rawReadMs(path.string(), rows);
    std::printf("  config suggest: %zu runs, %lld results, %zu suggestions\n", runs,
                static_cast<long long>(rows), found);
    const bool ok = runs == static_cast<std::size_t>(kJobs * kShas) && found > 0;
    report.add({"config suggest (1,000 runs, 400k results)", ok ? suggest : 1e9, "ms", 500,
                "SQLite read of the same results", raw});
    if (!std::getenv("RELAYHUD_BENCH_KEEP"))
        std::filesystem::remove(path);
}

} // namespace

void benchConfig(Report& report)
{
    const std::string text = generatedConfig();
    // The generated config must be one torch-spyre's framework accepts, and
    // clean: any finding means the generator drifted from what the parser checks.
    if (auto checked = config::parseOutcomeConfig(text); !checked)
        std::printf("  config: %s\n", checked.message().c_str());
    else if (!checked->findings.empty())
        std::printf("  config: %zu findings in the generated config, first %s\n",
                    checked->findings.size(),
                    config::formatFinding(checked->findings.front()).c_str());
    const double yamlLoad = medianMs(kRounds, [&] { (void)YAML::Load(text).size(); });
    bool ok = true;
    const double load = medianMs(kRounds, [&] {
        Result<config::ParsedConfig> parsed = config::parseOutcomeConfig(text);
        ok = ok && parsed && !parsed->hasErrors();
    });
    config::EditRequest request;
    request.test = "TestBench::test_case_2_25";
    request.kind = config::EditKind::Demote;
    request.reason = "bench";
    const double edit = medianMs(kRounds, [&] { ok = ok && config::planModeEdit(text, request); });
    if (!ok)
        std::printf("  config: a load or an edit failed\n");
    report.add({"config load+validate (400 names)", ok ? load : 1e9, "ms", 20,
                "yaml-cpp Load alone", yamlLoad});
    report.add(
        {"config edit with re-parse", ok ? edit : 1e9, "ms", 20, "yaml-cpp Load alone", yamlLoad});
    benchSuggest(report, text);
}

} // namespace relayhud::bench
