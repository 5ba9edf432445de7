#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/store/matrix_store.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "test_files.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

using namespace relayhud;

namespace {

using relayhud::test::TempDir;

CheckRun makeRun(const std::string& sha, const std::string& job, int attempt, RunStatus status,
                 Conclusion conclusion, EpochSeconds started = 1'700'000'000)
{
    CheckRun run;
    run.downstreamRepo = "torch-spyre/torch-spyre";
    run.upstreamSha = Sha{sha};
    run.prNumber = PrNumber{170001};
    run.workflow = "CI";
    run.jobName = job;
    run.checkRunId = CheckRunId{std::to_string(5000 + attempt)};
    run.runId = "900";
    run.runAttempt = attempt;
    run.reported.status = status;
    run.reported.conclusion = conclusion;
    run.reported.startedAt = started;
    if (status == RunStatus::Completed)
        run.reported.completedAt = started + 600;
    run.reported.runUrl = "https://github.com/torch-spyre/torch-spyre/actions/runs/900";
    run.trusted.queueTimeSeconds = 12.5;
    return run;
}

UpstreamCommit makeCommit(const std::string& sha, EpochSeconds time)
{
    return UpstreamCommit{Sha{sha}, 170001, "main", EventType::PullRequest, time, "", ""};
}

relayhud::testing::TestCache openOk(const std::string& path)
{
    auto cache = relayhud::testing::openTestCache(path);
    EXPECT_TRUE(cache) << (cache ? "" : cache.message());
    return cache ? std::move(cache.value()) : relayhud::testing::TestCache();
}

} // namespace

TEST(Database, FreshFileIsMigratedToCurrentSchema)
{
    TempDir dir;
    auto cache = openOk(dir.file("c.sqlite"));
    ASSERT_TRUE(cache);
    EXPECT_EQ(cache->schemaVersion(), Database::kSchemaVersion);
    auto stats = RunStore(*cache).stats();
    ASSERT_TRUE(stats);
    EXPECT_EQ(stats->checkRuns, 0);
}

// The GUI opens a new cache on its own thread while its workers open it on
// theirs: every one must see a migrated cache, none "table already exists".
TEST(Database, ConnectionsOpeningANewFileAtOnceAllSucceed)
{
    for (int round = 0; round < 5; ++round) {
        TempDir dir;
        const std::string path = dir.file("c.sqlite");
        constexpr int kThreads = 6;
        std::vector<std::string> errors(kThreads);
        std::vector<std::thread> threads;
        for (int t = 0; t < kThreads; ++t)
            threads.emplace_back([&, t] {
                auto cache = relayhud::testing::openTestCache(path);
                if (!cache)
                    errors[static_cast<std::size_t>(t)] = cache.message();
                else if ((*cache)->schemaVersion() != Database::kSchemaVersion)
                    errors[static_cast<std::size_t>(t)] = "schema not current";
            });
        for (std::thread& thread : threads)
            thread.join();
        for (const std::string& error : errors)
            EXPECT_EQ(error, "") << "round " << round;
    }
}

TEST(Database, ReopeningKeepsDataAndVersion)
{
    TempDir dir;
    {
        auto cache = openOk(dir.file("c.sqlite"));
        ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{
            {}, {}, {makeRun("a1", "build", 1, RunStatus::Completed, Conclusion::Success)}, {}}));
    }
    auto again = openOk(dir.file("c.sqlite"));
    EXPECT_EQ(again->schemaVersion(), Database::kSchemaVersion);
    EXPECT_EQ(RunStore(*again).stats()->checkRuns, 1);
}

TEST(Database, RefusesCacheFromNewerVersion)
{
    TempDir dir;
    const auto path = dir.file("newer.sqlite");
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    ASSERT_EQ(sqlite3_exec(db, "PRAGMA user_version = 99", nullptr, nullptr, nullptr), SQLITE_OK);
    sqlite3_close(db);
    auto cache = relayhud::testing::openTestCache(path);
    ASSERT_FALSE(cache);
    EXPECT_NE(cache.message().find("newer RelayHUD"), std::string::npos) << cache.message();
}

TEST(Database, ReportsAFileThatIsNotADatabase)
{
    TempDir dir;
    const auto path = dir.file("garbage.sqlite");
    std::ofstream(path) << std::string(8192, 'x');
    auto cache = relayhud::testing::openTestCache(path);
    ASSERT_FALSE(cache);
    EXPECT_NE(cache.message().find(path), std::string::npos) << cache.message();
}

TEST(Database, CompletedRowIsNeverOverwrittenByInProgress)
{
    auto cache = openOk(":memory:");
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{
        {}, {}, {makeRun("a1", "build", 1, RunStatus::Completed, Conclusion::Failure)}, {}}));
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{
        {}, {}, {makeRun("a1", "build", 1, RunStatus::InProgress, Conclusion::None)}, {}}));
    auto runs = RunStore(*cache).checkRunsForSha(Sha{"a1"});
    ASSERT_TRUE(runs);
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ(runs->front().reported.status, RunStatus::Completed);
    EXPECT_EQ(runs->front().reported.conclusion, Conclusion::Failure);
}

TEST(Database, InProgressIsCompletedLaterAndKeepsRelayTimes)
{
    auto cache = openOk(":memory:");
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{
        {}, {}, {makeRun("a1", "build", 1, RunStatus::InProgress, Conclusion::None)}, {}}));
    auto done = makeRun("a1", "build", 1, RunStatus::Completed, Conclusion::Success);
    done.trusted.queueTimeSeconds.reset(); // the completed callback carries no queue time
    done.trusted.executionTimeSeconds = 600;
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {}, {done}, {}}));
    auto runs = RunStore(*cache).checkRunsForSha(Sha{"a1"});
    ASSERT_EQ(runs->size(), 1u);
    EXPECT_EQ(runs->front().reported.conclusion, Conclusion::Success);
    EXPECT_EQ(runs->front().trusted.queueTimeSeconds, 12.5);
    EXPECT_EQ(runs->front().trusted.executionTimeSeconds, 600);
}

TEST(Database, RoundTripsEveryField)
{
    auto cache = openOk(":memory:");
    auto run = makeRun("a1", "test (default, 1, 2, linux.spyre)", 2, RunStatus::Completed,
                       Conclusion::Failure);
    run.reported.tests = TestCounts{50, 42, 3, 5};
    run.reported.artifactUrl =
        "https://github.com/torch-spyre/torch-spyre/actions/runs/900/artifacts";
    run.trusted.level = Level::L3; // a run's own level is the one verified at dispatch
    run.trusted.levelAtDispatch = true;
    run.trusted.executionTimeSeconds = 601.25;
    run.eventType = EventType::Nightly;
    run.reported.conclusion = Conclusion::None;
    run.reported.conclusionText = "action_required";
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {}, {run}, {}}));
    auto back = RunStore(*cache).checkRunsForSha(Sha{"a1"});
    ASSERT_EQ(back->size(), 1u);
    EXPECT_EQ(back->front(), run);
}

TEST(Database, KeepsEveryAttemptAndMatrixShowsNewest)
{
    auto cache = openOk(":memory:");
    SyncBatch batch;
    batch.commits = {makeCommit("a1", 1'700'000'000)};
    batch.runs = {makeRun("a1", "build", 1, RunStatus::Completed, Conclusion::Failure),
                  makeRun("a1", "build", 2, RunStatus::Completed, Conclusion::Success)};
    ASSERT_TRUE(RunStore(*cache).apply(batch));
    EXPECT_EQ(RunStore(*cache).stats()->checkRuns, 2);

    auto newest = MatrixStore(*cache).loadMatrix(MatrixQuery{});
    ASSERT_TRUE(newest);
    ASSERT_EQ(newest->rows.size(), 1u);
    ASSERT_EQ(newest->columns.size(), 1u);
    EXPECT_EQ(newest->cell(0, 0).conclusion, Conclusion::Success);
    EXPECT_EQ(newest->cell(0, 0).attempts, 2);
    EXPECT_TRUE(newest->cell(0, 0).has(MatrixCell::Retried));

    MatrixQuery first;
    first.latestAttemptOnly = false;
    EXPECT_EQ(MatrixStore(*cache).loadMatrix(first)->cell(0, 0).conclusion, Conclusion::Failure);

    auto attempts = RunStore(*cache).attemptsOf(newest->cell(0, 0).runRowId);
    ASSERT_TRUE(attempts);
    ASSERT_EQ(attempts->size(), 2u);
    EXPECT_EQ(attempts->at(0).runAttempt, 2);
    EXPECT_EQ(attempts->at(1).runAttempt, 1);
}

// torch-spyre's variant B callback carries its validate-mode child run's
// conclusion: success while tests failed (real-backends.md 3.2). Once the
// run's JUnit is stored, the cell says so; a green whose JUnit passes, a red
// run, and a green without results are left as they were.
TEST(Database, MatrixMarksAReportedSuccessWhoseTestsFailed)
{
    auto cache = openOk(":memory:");
    using relayhud::testing::addRun;
    using relayhud::testing::completedRun;
    using relayhud::testing::makeCase;
    const EpochSeconds t = 1'700'000'000;
    const auto claimed = addRun(*cache, completedRun("s1", "test", 1, Conclusion::Success, t), t);
    const auto honest = addRun(*cache, completedRun("s1", "lint", 1, Conclusion::Success, t), t);
    const auto red = addRun(*cache, completedRun("s1", "build", 1, Conclusion::Failure, t), t);
    addRun(*cache, completedRun("s1", "docs", 1, Conclusion::Success, t), t);
    const auto store = [&](CheckRunRow row, TestOutcome outcome) {
        auto writer =
            TestResultStore(*cache).beginTestRun({row, TestRunSource::Artifacts, "artifacts", "u"});
        ASSERT_TRUE(writer);
        ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_x", outcome)));
        ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_y")));
        TestRunTotals totals;
        totals.outcomes[static_cast<std::size_t>(outcome)] += 1;
        totals.outcomes[static_cast<std::size_t>(TestOutcome::Passed)] += 1;
        ASSERT_TRUE((*writer)->commit(totals));
    };
    store(claimed, TestOutcome::Failed);
    store(honest, TestOutcome::Passed);
    store(red, TestOutcome::Failed);
    auto m = MatrixStore(*cache).loadMatrix(MatrixQuery{});
    ASSERT_TRUE(m) << m.message();
    std::map<std::string, const MatrixCell*> byJob;
    for (std::size_t c = 0; c < m->columns.size(); ++c)
        byJob[m->columns[c].job] = &m->cell(0, c);
    ASSERT_EQ(byJob.size(), 4u);
    EXPECT_TRUE(byJob["test"]->has(MatrixCell::ReportedGreenTestsFailed));
    EXPECT_FALSE(byJob["lint"]->has(MatrixCell::ReportedGreenTestsFailed));
    EXPECT_FALSE(byJob["build"]->has(MatrixCell::ReportedGreenTestsFailed)) << "red says so itself";
    EXPECT_FALSE(byJob["docs"]->has(MatrixCell::ReportedGreenTestsFailed)) << "nothing stored";
}

TEST(Database, MatrixMarksZombiesStale)
{
    auto cache = openOk(":memory:");
    const EpochSeconds now = 1'700'100'000;
    SyncBatch batch;
    batch.runs = {
        makeRun("z1", "build", 1, RunStatus::InProgress, Conclusion::None, now - 7 * 3600),
        makeRun("z1", "lint", 1, RunStatus::InProgress, Conclusion::None, now - 3600)};
    ASSERT_TRUE(RunStore(*cache).apply(batch));
    MatrixQuery q;
    q.now = now;
    auto m = MatrixStore(*cache).loadMatrix(q);
    ASSERT_TRUE(m);
    ASSERT_EQ(m->columns.size(), 2u);
    EXPECT_EQ(m->columns[0].job, "build");
    EXPECT_TRUE(m->cell(0, 0).has(MatrixCell::Stale));
    EXPECT_FALSE(m->cell(0, 1).has(MatrixCell::Stale));
}

TEST(Database, MatrixOrdersRowsNewestFirstAndColumnsNaturally)
{
    auto cache = openOk(":memory:");
    SyncBatch batch;
    batch.commits = {makeCommit("old", 100), makeCommit("new", 300), makeCommit("mid", 200)};
    for (const char* sha : {"old", "new", "mid"})
        for (const char* job : {"test (default, 10, 12)", "test (default, 2, 12)", "build"})
            batch.runs.push_back(makeRun(sha, job, 1, RunStatus::Completed, Conclusion::Success));
    ASSERT_TRUE(RunStore(*cache).apply(batch));
    auto m = MatrixStore(*cache).loadMatrix(MatrixQuery{});
    ASSERT_TRUE(m);
    ASSERT_EQ(m->rows.size(), 3u);
    EXPECT_EQ(m->rows[0].sha.value, "new");
    EXPECT_EQ(m->rows[2].sha.value, "old");
    ASSERT_EQ(m->columns.size(), 3u);
    EXPECT_EQ(m->columns[0].job, "build");
    EXPECT_EQ(m->columns[1].job, "test (default, 2, 12)");
    EXPECT_EQ(m->columns[2].job, "test (default, 10, 12)");

    MatrixQuery two;
    two.maxCommits = 2;
    EXPECT_EQ(MatrixStore(*cache).loadMatrix(two)->rows.size(), 2u);
}

TEST(Database, FailedBatchLeavesCacheUnchanged)
{
    auto cache = openOk(":memory:");
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{
        {}, {}, {makeRun("a1", "build", 1, RunStatus::Completed, Conclusion::Success)}, {}}));
    SyncBatch bad;
    bad.runs = {makeRun("b1", "build", 1, RunStatus::Completed, Conclusion::Success)};
    bad.commits = {UpstreamCommit{}}; // no SHA: refused
    bad.validators = {{"http://hud/x", HttpValidator{"\"etag\"", 50}}};
    auto r = RunStore(*cache).apply(bad);
    ASSERT_FALSE(r);
    EXPECT_FALSE(r.message().empty());
    EXPECT_EQ(RunStore(*cache).stats()->checkRuns, 1);
    EXPECT_EQ(RunStore(*cache).stats()->commits, 1);
    EXPECT_FALSE(*RunStore(*cache).validator("http://hud/x"));
}

TEST(Database, ValidatorsAndMetaPersist)
{
    auto cache = openOk(":memory:");
    SyncBatch batch;
    batch.validators = {{"http://hud/page0", HttpValidator{"\"abc\"", 50}}};
    ASSERT_TRUE(RunStore(*cache).apply(batch));
    auto v = RunStore(*cache).validator("http://hud/page0");
    ASSERT_TRUE(v && *v);
    EXPECT_EQ((*v)->etag, "\"abc\"");
    EXPECT_EQ((*v)->items, 50);
    ASSERT_TRUE(cache->setMeta("last_sync", "2026-12-02T10:00:00Z"));
    EXPECT_EQ(**cache->meta("last_sync"), "2026-12-02T10:00:00Z");
    EXPECT_FALSE(*cache->meta("missing"));
}

TEST(Database, BackendsKeepLevelAndOncalls)
{
    auto cache = openOk(":memory:");
    ASSERT_TRUE(RunStore(*cache).apply(
        SyncBatch{{Backend{"org/a", Level::L4, {"alice", "bob"}}}, {}, {}, {}}));
    // A run that names the backend without a level must not erase it.
    ASSERT_TRUE(RunStore(*cache).apply(
        SyncBatch{{}, {}, {makeRun("s", "j", 1, RunStatus::Completed, Conclusion::Success)}, {}}));
    auto backends = RunStore(*cache).backends();
    ASSERT_TRUE(backends);
    ASSERT_EQ(backends->size(), 2u);
    EXPECT_EQ(backends->at(0), (Backend{"org/a", Level::L4, {"alice", "bob"}}));
}

TEST(Database, CommitsMergeTitlesAndEarliestTime)
{
    auto cache = openOk(":memory:");
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {makeCommit("c1", 500)}, {}, {}}));
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {makeCommit("c1", 400)}, {}, {}}));
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {makeCommit("c2", 600)}, {}, {}}));
    EXPECT_EQ(*RunStore(*cache).prNumbersWithoutTitle(10), std::vector<PrNumber>{PrNumber{170001}});
    ASSERT_TRUE(RunStore(*cache).applyPrInfo({PrInfo{170001, "[inductor] fix addmm", "alice"}}));
    auto commits = RunStore(*cache).commits();
    ASSERT_TRUE(commits);
    ASSERT_EQ(commits->size(), 2u);
    EXPECT_EQ(commits->at(1).time, 400);
    EXPECT_EQ(commits->at(1).title, "[inductor] fix addmm");
    EXPECT_TRUE(RunStore(*cache).prNumbersWithoutTitle(10)->empty());
    auto prev = RunStore(*cache).previousCommit(Sha{"c2"});
    ASSERT_TRUE(prev && *prev);
    EXPECT_EQ((*prev)->sha.value, "c1") << "the same PR's previous head";
    EXPECT_FALSE(*RunStore(*cache).previousCommit(Sha{"c1"}));
    // Another PR's head in between is no part of this PR's history.
    UpstreamCommit other = makeCommit("c3", 700);
    other.prNumber = PrNumber{170002};
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {other, makeCommit("c4", 800)}, {}, {}}));
    EXPECT_EQ((*RunStore(*cache).previousCommit(Sha{"c4"}))->sha.value, "c2");
    EXPECT_FALSE(*RunStore(*cache).previousCommit(Sha{"c3"}));
    // Nightlies follow nightlies.
    UpstreamCommit n1{Sha{"n1"}, 0, "nightly", EventType::Nightly, 650, "", "pytorchbot"};
    UpstreamCommit n2{Sha{"n2"}, 0, "nightly", EventType::Nightly, 900, "", "pytorchbot"};
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {n1, n2}, {}, {}}));
    EXPECT_EQ((*RunStore(*cache).previousCommit(Sha{"n2"}))->sha.value, "n1");
}

TEST(Database, TwoConnectionsWritingConcurrentlyDoNotCorruptIt)
{
    TempDir dir;
    const auto path = dir.file("shared.sqlite");
    openOk(path); // create the schema once
    auto writer = [&](const std::string& prefix) {
        auto cache = relayhud::testing::openTestCache(path);
        ASSERT_TRUE(cache) << cache.message();
        for (int i = 0; i < 40; ++i) {
            SyncBatch b;
            for (int j = 0; j < 25; ++j)
                b.runs.push_back(makeRun(prefix + std::to_string(i), "job" + std::to_string(j), 1,
                                         RunStatus::Completed, Conclusion::Success));
            auto r = RunStore(**cache).apply(b);
            ASSERT_TRUE(r) << r.message();
        }
    };
    std::thread a(writer, "a"), b(writer, "b");
    a.join();
    b.join();
    auto cache = openOk(path);
    EXPECT_EQ(RunStore(*cache).stats()->checkRuns, 2 * 40 * 25);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, nullptr);
    ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
    EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "ok");
    sqlite3_finalize(st);
    sqlite3_close(db);
}

// Schema 5 rebuilds check_run (runs keyed by check_run_id too, R8): a cache
// written by schema 4 keeps every run, its row id and the test runs that hang
// off it. The schema-4 file is made from a current one by undoing step 5.
TEST(Database, UpgradeToSchema5KeepsRunsRowIdsAndTestRuns)
{
    TempDir dir;
    const auto path = dir.file("v4.sqlite");
    CheckRunRow rowId;
    {
        auto cache = openOk(path);
        ASSERT_TRUE(cache);
        ASSERT_TRUE(RunStore(*cache).apply(
            SyncBatch{{},
                      {makeCommit("aaa", 1'700'000'000)},
                      {makeRun("aaa", "test", 1, RunStatus::Completed, Conclusion::Failure)},
                      {}}));
        auto runs = RunStore(*cache).checkRunsForSha(Sha{"aaa"});
        ASSERT_TRUE(runs && runs->size() == 1u);
        auto matrix = MatrixStore(*cache).loadMatrix(MatrixQuery{});
        ASSERT_TRUE(matrix && !matrix->cells.empty());
        rowId = matrix->cells[0].runRowId;
        TestRunOrigin origin;
        origin.checkRunRow = rowId;
        ASSERT_TRUE(
            TestResultStore(*cache).recordTestRunState(origin, TestRunState::NoReports, "none"));
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    const char* undo = R"sql(
        PRAGMA foreign_keys = OFF;
        BEGIN;
        DROP TABLE tested_commit;
        CREATE TABLE old_run AS SELECT * FROM check_run;
        DROP TABLE check_run;
        CREATE TABLE check_run (
            id INTEGER PRIMARY KEY, commit_id INTEGER NOT NULL, job_id INTEGER NOT NULL,
            run_id TEXT NOT NULL, run_attempt INTEGER NOT NULL,
            check_run_id TEXT NOT NULL DEFAULT '', pr_number INTEGER NOT NULL DEFAULT 0,
            event_type INTEGER NOT NULL DEFAULT 0,
            upstream_repo TEXT NOT NULL DEFAULT 'pytorch/pytorch', status INTEGER NOT NULL,
            conclusion INTEGER NOT NULL, started_at INTEGER, completed_at INTEGER,
            tests_total INTEGER, tests_passed INTEGER, tests_failed INTEGER,
            tests_skipped INTEGER, run_url TEXT NOT NULL DEFAULT '',
            artifact_url TEXT NOT NULL DEFAULT '', level INTEGER NOT NULL DEFAULT 0,
            queue_time REAL, execution_time REAL,
            UNIQUE (commit_id, job_id, run_id, run_attempt));
        INSERT INTO check_run SELECT id, commit_id, job_id, run_id, run_attempt, check_run_id,
            pr_number, event_type, upstream_repo, status, conclusion, started_at, completed_at,
            tests_total, tests_passed, tests_failed, tests_skipped, run_url, artifact_url, level,
            queue_time, execution_time FROM old_run;
        DROP TABLE old_run;
        CREATE INDEX check_run_by_job ON check_run(job_id, commit_id);
        CREATE INDEX check_run_by_check_run_id ON check_run(check_run_id);
        ALTER TABLE backend DROP COLUMN listed;
        DROP TABLE hud_answer;
        DROP TABLE log_checkout;
        DROP TABLE log_checkout_scan;
        DROP TABLE team_state; DROP TABLE team_outbox; DROP TABLE team_field;
        DROP TABLE team_conflict;
        ALTER TABLE test_run DROP COLUMN asks;
        ALTER TABLE job_failure_line DROP COLUMN named;
        PRAGMA user_version = 4;
        COMMIT;)sql";
    char* error = nullptr;
    ASSERT_EQ(sqlite3_exec(db, undo, nullptr, nullptr, &error), SQLITE_OK) << error;
    // A failure line picked before schema 10, with its captures only.
    const std::string oldLine =
        "INSERT INTO job_failure_line (check_run_row, rules_hash, state, rule, class, line, text,"
        " captures, picked_at) VALUES ("
        + std::to_string(rowId.value)
        + ", 7, 0, 'pytest failed test', 5, 12, 'FAILED a.py::T::t', '[\"a.py::T::t\"]', 5)";
    ASSERT_EQ(sqlite3_exec(db, oldLine.c_str(), nullptr, nullptr, &error), SQLITE_OK) << error;
    sqlite3_close(db);

    auto cache = openOk(path);
    ASSERT_TRUE(cache);
    EXPECT_EQ(cache->schemaVersion(), Database::kSchemaVersion); // 5, 6, 7, 8, 9, then 10
    auto line = EvidenceStore(*cache).jobFailureLine(rowId);
    ASSERT_TRUE(line && *line);
    EXPECT_EQ((*line)->captures, (std::vector<std::string>{"a.py::T::t"}));
    EXPECT_TRUE((*line)->named.empty()) << "read as naming its own test only";
    auto run = RunStore(*cache).checkRun(rowId);
    ASSERT_TRUE(run) << run.message();
    EXPECT_EQ(run->jobName, "test");
    EXPECT_EQ(RunStore(*cache).stats()->testRuns, 1);
    // A second run at attempt 1 with its own check_run_id is now a row of its own.
    CheckRun leg = makeRun("aaa", "test", 1, RunStatus::Completed, Conclusion::Success);
    leg.checkRunId = CheckRunId{"7777"};
    ASSERT_TRUE(RunStore(*cache).apply(SyncBatch{{}, {}, {leg}, {}}));
    EXPECT_EQ(RunStore(*cache).stats()->checkRuns, 2);
    EXPECT_EQ(RunStore(*cache).stats()->testRuns, 1);
}
