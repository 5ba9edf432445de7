// Test results in the SQLite cache: schema v2 migration, TestRunWriter, the
// test-run reads, the artifact queue and the stats. Real SQLite files.
#include "relayhud/store/content_cache.h"
#include "relayhud/store/database.h"
#include "relayhud/store/run_store.h"
#include "relayhud/store/test_result_store.h"
#include "relayhud/store/write_batch.h"
#include "relayhud/util/time.h"
#include "test_results_fixtures.h"

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <thread>

using namespace relayhud;
using namespace relayhud::testing;

namespace {

std::int64_t queryInt(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr), SQLITE_OK) << sql;
    std::int64_t value = -1;
    if (sqlite3_step(s) == SQLITE_ROW)
        value = sqlite3_column_int64(s, 0);
    sqlite3_finalize(s);
    sqlite3_close(db);
    return value;
}

void execSql(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    char* error = nullptr;
    EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
        << (error ? error : "");
    sqlite3_free(error);
    sqlite3_close(db);
}

TestRunTotals totalsOf(const std::vector<TestCaseResult>& cases)
{
    TestRunTotals totals;
    totals.reports = 1;
    for (const auto& c : cases)
        ++totals.outcomes[static_cast<std::size_t>(c.outcome)];
    totals.declared.tests = totals.counted.tests = cases.size();
    return totals;
}

Result<TestRunId> storeRun(Database& cache, const TestRunOrigin& origin,
                           const std::vector<TestCaseResult>& cases, ContentCache* blobs = nullptr)
{
    auto writer = TestResultStore(cache).beginTestRun(origin, blobs);
    if (!writer)
        return writer.error();
    for (const auto& c : cases)
        if (auto r = (*writer)->add(c); !r)
            return r.error();
    return (*writer)->commit(totalsOf(cases));
}

TestRunOrigin importOrigin(const std::string& label)
{
    return TestRunOrigin{std::nullopt, TestRunSource::Import, label, "/tmp/" + label};
}

std::vector<TestCaseResult> sampleCases()
{
    auto failed = makeCase("TestCommonPRIVATEUSE1", "test_compare_cpu_add_spyre_float16",
                           TestOutcome::Failed, "AssertionError: Tensor-likes are not close!");
    failed.baseName = "TestCommon::test_compare_cpu";
    failed.marks.items = {
        {MarkKind::Op, "add"}, {MarkKind::Dtype, "float16"}, {MarkKind::Other, "slow"}};
    failed.traceback.text = "Traceback (most recent call last):\n  File \"test_ops.py\", line 9";
    failed.traceback.fullBytes = failed.traceback.text.size();
    failed.retried = "pod";
    auto skipped = makeCase("TestCommonPRIVATEUSE1", "test_out_add_spyre_float16",
                            TestOutcome::Skipped, "Only runs on cuda");
    auto xfailed = makeCase("TestCommonPRIVATEUSE1", "test_out_mul_spyre_float16",
                            TestOutcome::XFailed, "Only runs on cuda");
    return {makeCase("TestViewOps", "test_contiguous"), failed, skipped, xfailed};
}

} // namespace

TEST(TestResultsSchema, AVersion1CacheMigratesInPlaceKeepingItsRows)
{
    ScratchDir dir("store");
    const auto path = dir.file("v1.sqlite");
    {
        auto cache = openCacheOk(path);
        addRun(*cache, completedRun("a1", "build", 1, Conclusion::Failure, 1000), 1000);
    }
    // What a RelayHUD with schema 1 left behind: its tables, user_version 1.
    execSql(path, "DROP TABLE test_result; DROP TABLE test_run; DROP TABLE test_message;"
                  " DROP TABLE test_case; DROP INDEX check_run_by_check_run_id;"
                  " DROP TABLE triage_tag; DROP TABLE job_failure_line;"
                  " ALTER TABLE backend DROP COLUMN listed; DROP TABLE hud_answer;"
                  " ALTER TABLE check_run DROP COLUMN conclusion_text;"
                  " DROP TABLE log_checkout; DROP TABLE log_checkout_scan;"
                  " DROP TABLE team_state; DROP TABLE team_outbox; DROP TABLE team_field;"
                  " DROP TABLE team_conflict; DROP TABLE tested_commit;"
                  " PRAGMA user_version = 1;");
    ASSERT_EQ(queryInt(path, "PRAGMA user_version"), 1);
    auto cache = openCacheOk(path);
    ASSERT_TRUE(cache);
    EXPECT_EQ(cache->schemaVersion(), Database::kSchemaVersion);
    EXPECT_EQ(RunStore(*cache).stats()->checkRuns, 1);
    auto row = RunStore(*cache).checkRunRowFor(CheckRunId{"cr-a1-build-1"});
    ASSERT_TRUE(row && *row);
    auto stored =
        storeRun(*cache, {**row, TestRunSource::Artifacts, "artifacts", "u"}, sampleCases());
    ASSERT_TRUE(stored) << stored.message();
    EXPECT_EQ(RunStore(*cache).stats()->testResults, 4);
}

TEST(TestResultsSchema, HotQueriesUseTheirIndexes)
{
    ScratchDir dir("store");
    const auto path = dir.file("plan.sqlite");
    openCacheOk(path);
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
    auto plan = [&](const char* sql) {
        sqlite3_stmt* s = nullptr;
        EXPECT_EQ(sqlite3_prepare_v2(db, sql, -1, &s, nullptr), SQLITE_OK) << sql;
        std::string text;
        while (sqlite3_step(s) == SQLITE_ROW)
            text += reinterpret_cast<const char*>(sqlite3_column_text(s, 3)) + std::string("\n");
        sqlite3_finalize(s);
        return text;
    };
    EXPECT_NE(plan("EXPLAIN QUERY PLAN SELECT test_run_id, outcome FROM test_result"
                   " WHERE test_id = 5 AND test_run_id BETWEEN 1 AND 900")
                  .find("USING COVERING INDEX test_result_by_test"),
              std::string::npos);
    EXPECT_NE(plan("EXPLAIN QUERY PLAN SELECT * FROM test_result WHERE test_run_id = 3")
                  .find("USING PRIMARY KEY"),
              std::string::npos);
    sqlite3_close(db);
}

TEST(TestRunWriter, StoresCasesWithMarksMessagesAndTotals)
{
    auto cache = openCacheOk(":memory:");
    auto id = storeRun(*cache, importOrigin("report.xml"), sampleCases());
    ASSERT_TRUE(id) << id.message();
    auto info = TestResultStore(*cache).testRun(*id);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->label, "report.xml");
    EXPECT_EQ(info->location, "/tmp/report.xml");
    EXPECT_EQ(info->source, TestRunSource::Import);
    EXPECT_EQ(info->state, TestRunState::Stored);
    EXPECT_FALSE(info->checkRunRow);
    EXPECT_EQ(info->totals.cases(), 4);
    EXPECT_EQ(info->totals.count(TestOutcome::Failed), 1);
    EXPECT_EQ(info->totals.declared.tests, 4u);
    EXPECT_GT(info->fetchedAt, 1'700'000'000);

    auto results = TestResultStore(*cache).testResults(*id);
    ASSERT_TRUE(results);
    ASSERT_EQ(results->size(), 4u);
    const StoredTestResult& failed = (*results)[1];
    EXPECT_EQ(failed.identity,
              "test/test_ops.py::TestCommonPRIVATEUSE1::test_compare_cpu_add_spyre_float16");
    EXPECT_EQ(failed.file, "test/test_ops.py");
    EXPECT_EQ(failed.className, "TestCommonPRIVATEUSE1");
    EXPECT_EQ(failed.name, "test_compare_cpu_add_spyre_float16");
    EXPECT_EQ(failed.baseName, "TestCommon::test_compare_cpu");
    EXPECT_EQ(failed.marks, "op__add,dtype__float16,slow");
    EXPECT_EQ(failed.outcome, TestOutcome::Failed);
    EXPECT_DOUBLE_EQ(failed.durationSeconds, 0.25);
    EXPECT_EQ(failed.retried, "pod");
    EXPECT_EQ(failed.message, "AssertionError: Tensor-likes are not close!");
    ASSERT_TRUE(failed.tracebackId);
    auto traceback = TestResultStore(*cache).testText(failed.tracebackId);
    ASSERT_TRUE(traceback);
    EXPECT_EQ(traceback->text.substr(0, 35), "Traceback (most recent call last):\n");
    EXPECT_EQ(traceback->fullTextHash, "");
    EXPECT_FALSE((*results)[0].messageId);
    EXPECT_EQ((*results)[0].retried, "");
}

TEST(TestRunWriter, KeepsAnIdentityThatIsNotTheDerivedOneAndUpdatesMarksFromTaggedReports)
{
    auto cache = openCacheOk(":memory:");
    auto odd = makeCase("TestA", "test_x");
    odd.identity = "test/test_ops.py::TestA::test_x[param::with::colons]";
    auto plain = makeCase("TestA", "test_x");
    auto first = storeRun(*cache, importOrigin("a.xml"), {odd, plain});
    ASSERT_TRUE(first);
    auto results = TestResultStore(*cache).testResults(*first);
    ASSERT_EQ(results->size(), 2u);
    EXPECT_EQ((*results)[0].identity, odd.identity);
    EXPECT_EQ((*results)[1].identity, "test/test_ops.py::TestA::test_x");
    EXPECT_NE((*results)[0].testId, (*results)[1].testId);

    plain.marks.items = {{MarkKind::Op, "add"}};
    plain.baseName = "TestA::test_y";
    auto second = storeRun(*cache, importOrigin("b.xml"), {plain});
    ASSERT_TRUE(second);
    auto again = TestResultStore(*cache).testResults(*second);
    ASSERT_EQ(again->size(), 1u);
    EXPECT_EQ((*again)[0].testId, (*results)[1].testId);
    EXPECT_EQ((*again)[0].marks, "op__add");
    EXPECT_EQ((*again)[0].baseName, "TestA::test_y");

    // Another backend runs the same test without tags: the marks stay.
    plain.marks.items.clear();
    plain.baseName = "TestA::test_x";
    auto untagged = storeRun(*cache, importOrigin("c.xml"), {plain});
    ASSERT_TRUE(untagged);
    auto kept = TestResultStore(*cache).testResults(*untagged);
    ASSERT_EQ(kept->size(), 1u);
    EXPECT_EQ((*kept)[0].marks, "op__add");
    EXPECT_EQ((*kept)[0].baseName, "TestA::test_y");
}

TEST(TestRunWriter, DeduplicatesMessagesWithinAndAcrossRuns)
{
    ScratchDir dir("store");
    const auto path = dir.file("dedup.sqlite");
    auto cache = openCacheOk(path);
    auto first = storeRun(*cache, importOrigin("a.xml"), sampleCases());
    auto second = storeRun(*cache, importOrigin("b.xml"), sampleCases());
    ASSERT_TRUE(first && second);
    auto a = TestResultStore(*cache).testResults(*first);
    auto b = TestResultStore(*cache).testResults(*second);
    // Skipped and xfailed share "Only runs on cuda"; run b reuses run a's rows.
    EXPECT_EQ((*a)[2].messageId, (*a)[3].messageId);
    EXPECT_EQ((*a)[1].messageId, (*b)[1].messageId);
    EXPECT_EQ((*a)[1].tracebackId, (*b)[1].tracebackId);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_message"), 3);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_case"), 4);
    EXPECT_EQ((*a)[0].testId, (*b)[0].testId);
}

// Test runs written back to back, as a sync writes them, must not leave the
// WAL growing: each commit's checkpoint copies it all back and the next run
// starts it again from the beginning. A statement left active at COMMIT
// stopped that, and a 30-day cache's WAL reached 71 GB.
TEST(TestRunWriter, TheWalStartsOverAsRunsAreWritten)
{
    ScratchDir dir("store");
    const auto path = dir.file("wal.sqlite");
    auto cache = openCacheOk(path);
    std::vector<TestCaseResult> cases;
    for (int i = 0; i < 3000; ++i)
        cases.push_back(makeCase("TestCommonPRIVATEUSE1",
                                 "test_case_" + std::to_string(i * 7919 % 3000) + "_spyre",
                                 i % 50 == 0 ? TestOutcome::Failed : TestOutcome::Passed,
                                 i % 50 == 0 ? "AssertionError: run " + std::to_string(i) : ""));
    std::uintmax_t afterThird = 0;
    std::uintmax_t largest = 0;
    for (int run = 1; run <= 30; ++run) {
        ASSERT_TRUE(storeRun(*cache, importOrigin("run" + std::to_string(run) + ".xml"), cases));
        const std::uintmax_t wal = std::filesystem::file_size(path + "-wal");
        largest = std::max(largest, wal);
        if (run == 3)
            afterThird = wal;
    }
    // Without the restart the WAL grows by a run's frames each run (about 10x
    // its size after three); with it, it stays near one checkpoint's worth.
    EXPECT_LT(largest, 2 * afterThird + (4u << 20)) << "after 3 runs " << afterThird;
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 30);
}

// A backfill writes its runs in a batch: each run is a savepoint in it, kept
// or undone on its own, and nothing is visible to another connection, nor
// durable, until the batch commits.
TEST(WriteBatch, RunsInABatchAreKeptTogetherAndOneRolledBackRunIsUndoneAlone)
{
    ScratchDir dir("store");
    const auto path = dir.file("batch.sqlite");
    auto cache = openCacheOk(path);
    const auto cases = sampleCases();
    auto batch = cache->beginWriteBatch();
    ASSERT_TRUE(batch) << batch.message();
    ASSERT_TRUE(storeRun(*cache, importOrigin("one.xml"), cases));
    {
        auto abandoned = TestResultStore(*cache).beginTestRun(importOrigin("abandoned.xml"));
        ASSERT_TRUE(abandoned) << abandoned.message();
        ASSERT_TRUE((*abandoned)->add(cases.front()));
    } // destroyed without commit: its savepoint is rolled back, the batch goes on
    ASSERT_TRUE(storeRun(*cache, importOrigin("two.xml"), cases));
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 0) << "seen before the commit";
    ASSERT_TRUE((*batch)->commit());
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 2);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run WHERE label = 'abandoned.xml'"), 0);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_result"),
              2 * static_cast<std::int64_t>(cases.size()));
    EXPECT_FALSE((*batch)->commit()) << "a batch commits once";
    // The writes after it are their own transactions again.
    ASSERT_TRUE(storeRun(*cache, importOrigin("three.xml"), cases));
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 3);
}

TEST(WriteBatch, ABatchNotCommittedLeavesTheCacheAsItWas)
{
    ScratchDir dir("store");
    const auto path = dir.file("batch.sqlite");
    auto cache = openCacheOk(path);
    const auto cases = sampleCases();
    ASSERT_TRUE(storeRun(*cache, importOrigin("before.xml"), cases));
    {
        auto batch = cache->beginWriteBatch();
        ASSERT_TRUE(batch) << batch.message();
        ASSERT_TRUE(storeRun(*cache, importOrigin("one.xml"), cases));
        ASSERT_TRUE(storeRun(*cache, importOrigin("two.xml"), cases));
    }
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 1);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_result"),
              static_cast<std::int64_t>(cases.size()));
    // The connection is usable again, each write its own transaction.
    ASSERT_TRUE(storeRun(*cache, importOrigin("after.xml"), cases));
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 2);
}

// While a batch holds the write lock, another connection's writer waits for
// it (the busy timeout) rather than failing, and then writes.
TEST(WriteBatch, AnotherConnectionsWriterWaitsForTheBatch)
{
    ScratchDir dir("store");
    const auto path = dir.file("batch.sqlite");
    auto cache = openCacheOk(path);
    auto other = openCacheOk(path);
    const auto cases = sampleCases();
    auto batch = cache->beginWriteBatch();
    ASSERT_TRUE(batch) << batch.message();
    ASSERT_TRUE(storeRun(*cache, importOrigin("batched.xml"), cases));
    std::thread committer([&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        EXPECT_TRUE((*batch)->commit());
    });
    auto id = storeRun(*other, importOrigin("waiting.xml"), cases);
    committer.join();
    ASSERT_TRUE(id) << id.message();
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 2);
}

TEST(TestRunWriter, SameTextButDifferentFullTextsAreDifferentMessages)
{
    ScratchDir dir("store");
    auto blobs = ContentCache::open(dir.file("blobs"));
    ASSERT_TRUE(blobs);
    auto cache = openCacheOk(":memory:");
    auto writer = TestResultStore(*cache).beginTestRun(importOrigin("cut.xml"), &*blobs);
    ASSERT_TRUE(writer);
    std::vector<std::string> wholes = {std::string(100, 'x') + "tail one",
                                       std::string(100, 'x') + "tail two"};
    for (std::size_t i = 0; i < wholes.size(); ++i) {
        auto c = makeCase("TestCut", "test_" + std::to_string(i), TestOutcome::Failed,
                          std::string(100, 'x'));
        c.message.fullBytes = wholes[i].size();
        c.message.cut = true;
        ASSERT_TRUE((*writer)->keepFullText(CaseText::Message, wholes[i]));
        ASSERT_TRUE((*writer)->add(c));
    }
    auto id = (*writer)->commit({});
    ASSERT_TRUE(id);
    auto results = TestResultStore(*cache).testResults(*id);
    ASSERT_EQ(results->size(), 2u);
    EXPECT_NE((*results)[0].messageId, (*results)[1].messageId);
    for (std::size_t i = 0; i < 2; ++i) {
        auto text = TestResultStore(*cache).testText((*results)[i].messageId);
        ASSERT_TRUE(text);
        EXPECT_EQ(text->text, std::string(100, 'x'));
        EXPECT_EQ(text->fullBytes, static_cast<std::int64_t>(wholes[i].size()));
        auto blob = blobs->path(text->fullTextHash);
        ASSERT_TRUE(blob);
        std::ifstream in(*blob, std::ios::binary);
        std::stringstream whole;
        whole << in.rdbuf();
        EXPECT_EQ(whole.str(), wholes[i]);
    }
}

TEST(TestRunWriter, ASecondResultForOneTestWinsAndIsWarnedAbout)
{
    auto cache = openCacheOk(":memory:");
    auto writer = TestResultStore(*cache).beginTestRun(importOrigin("shards.xml"));
    ASSERT_TRUE(writer);
    ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_x", TestOutcome::Failed, "boom")));
    ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_y")));
    ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_x", TestOutcome::Passed)));
    EXPECT_EQ((*writer)->casesAdded(), 3);
    auto id = (*writer)->commit({});
    ASSERT_TRUE(id);
    auto results = TestResultStore(*cache).testResults(*id);
    ASSERT_EQ(results->size(), 2u);
    EXPECT_EQ((*results)[0].outcome, TestOutcome::Passed);
    EXPECT_FALSE((*results)[0].messageId);
    auto info = TestResultStore(*cache).testRun(*id);
    ASSERT_EQ(info->warnings.size(), 1u);
    EXPECT_NE(info->warnings[0].find("1 test cases were in more than one report"),
              std::string::npos);
    EXPECT_NE(info->warnings[0].find("TestA::test_x"), std::string::npos);
    EXPECT_EQ(RunStore(*cache).stats()->testResults, 2);
}

// torch-spyre's per-suite `<config stem>.xml` artifacts and its merged
// `upstream-beta-reports-<sha>` hold the same cases (real-backends.md 3.2, 7):
// the run's totals count each case once, whatever the reports summed to.
TEST(TestRunWriter, ACaseInTwoReportsCountsOnceInTheTotals)
{
    auto cache = openCacheOk(":memory:");
    auto writer = TestResultStore(*cache).beginTestRun(importOrigin("two reports"));
    ASSERT_TRUE(writer);
    for (int report = 0; report < 2; ++report) {
        ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_x", TestOutcome::Failed, "boom")));
        ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_y")));
    }
    TestRunTotals summed; // what the two reports declared together
    summed.reports = 2;
    summed.outcomes[static_cast<std::size_t>(TestOutcome::Failed)] = 2;
    summed.outcomes[static_cast<std::size_t>(TestOutcome::Passed)] = 2;
    auto id = (*writer)->commit(summed);
    ASSERT_TRUE(id) << id.message();
    auto info = TestResultStore(*cache).testRun(*id);
    ASSERT_TRUE(info);
    EXPECT_EQ(info->totals.reports, 2);
    EXPECT_EQ(info->totals.cases(), 2);
    EXPECT_EQ(info->totals.count(TestOutcome::Failed), 1);
    EXPECT_EQ(info->totals.count(TestOutcome::Passed), 1);
}

TEST(TestRunWriter, NothingIsVisibleWithoutCommitAndDestructionRollsBack)
{
    ScratchDir dir("store");
    const auto path = dir.file("rollback.sqlite");
    auto cache = openCacheOk(path);
    {
        auto writer = TestResultStore(*cache).beginTestRun(importOrigin("half.xml"));
        ASSERT_TRUE(writer);
        ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_x")));
        (*writer)->addWarning("broke off");
        // Another connection sees nothing of the open transaction.
        EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_result"), 0);
    }
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_result"), 0);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 0);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_case"), 0);
    // The cache is usable again right away.
    EXPECT_TRUE(storeRun(*cache, importOrigin("whole.xml"), sampleCases()));
}

TEST(TestRunWriter, HostileDurationsAndTextsAreStoredSafely)
{
    auto cache = openCacheOk(":memory:");
    std::vector<TestCaseResult> cases;
    const double durations[] = {std::numeric_limits<double>::quiet_NaN(), -3.0, 1e300,
                                std::numeric_limits<double>::infinity(), 1e-7};
    for (std::size_t i = 0; i < std::size(durations); ++i) {
        auto c = makeCase("TestHostile", "test_" + std::to_string(i), TestOutcome::Failed,
                          std::string("nul\0inside", 10) + "; quote ' \" ; DROP TABLE test_case;");
        c.durationSeconds = durations[i];
        cases.push_back(c);
    }
    auto id = storeRun(*cache, importOrigin("hostile.xml"), cases);
    ASSERT_TRUE(id) << id.message();
    auto results = TestResultStore(*cache).testResults(*id);
    ASSERT_EQ(results->size(), 5u);
    EXPECT_EQ((*results)[0].durationSeconds, 0.0);
    EXPECT_EQ((*results)[1].durationSeconds, 0.0);
    EXPECT_DOUBLE_EQ((*results)[2].durationSeconds, 1e9);
    EXPECT_EQ((*results)[3].durationSeconds, 0.0);
    EXPECT_EQ((*results)[4].durationSeconds, 0.0);
    EXPECT_EQ((*results)[0].message, cases[0].message.text);
    EXPECT_EQ(RunStore(*cache).stats()->testResults, 5);
}

TEST(TestRunWriter, ReplacesTheCheckRunsEarlierTestRunOnlyAtCommit)
{
    ScratchDir dir("store");
    const auto path = dir.file("replace.sqlite");
    auto cache = openCacheOk(path);
    const auto row = addRun(*cache, completedRun("a1", "build", 1, Conclusion::Failure, 100), 100);
    const TestRunOrigin origin{row, TestRunSource::Artifacts, "artifacts of run 9", "https://x"};
    auto expired =
        TestResultStore(*cache).recordTestRunState(origin, TestRunState::Failed, "HTTP 502");
    ASSERT_TRUE(expired);
    auto first = storeRun(*cache, origin, sampleCases());
    ASSERT_TRUE(first) << first.message();
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 1);

    auto writer = TestResultStore(*cache).beginTestRun(origin);
    ASSERT_TRUE(writer);
    ASSERT_TRUE((*writer)->add(makeCase("TestA", "test_new")));
    // Until commit the earlier results are what everyone sees.
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_result"), 4);
    auto second = (*writer)->commit({});
    ASSERT_TRUE(second);
    EXPECT_NE(*second, *first);
    auto now = TestResultStore(*cache).testRunForCheckRun(row);
    ASSERT_TRUE(now && *now);
    EXPECT_EQ((*now)->id, *second);
    EXPECT_EQ((*now)->checkRunRow, row);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_result"), 1);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 1);
    EXPECT_FALSE(TestResultStore(*cache).testRun(*first));
}

// The matrix asks for all its greens' test runs in one query: the same rows
// testRunForCheckRun gives one at a time, a stored one and a failed fetch
// alike, and nothing for a run never fetched.
TEST(TestRunWriter, TestRunsOfManyCheckRunsAnswerAsOneAtATime)
{
    ScratchDir dir("store");
    auto cache = openCacheOk(dir.file("many.sqlite"));
    const auto stored =
        addRun(*cache, completedRun("a1", "build", 1, Conclusion::Success, 100), 100);
    const auto failed =
        addRun(*cache, completedRun("a2", "build", 1, Conclusion::Success, 200), 200);
    const auto never =
        addRun(*cache, completedRun("a3", "build", 1, Conclusion::Success, 300), 300);
    ASSERT_TRUE(storeRun(*cache, {stored, TestRunSource::Artifacts, "artifacts", "https://x"},
                         sampleCases()));
    ASSERT_TRUE(TestResultStore(*cache).recordTestRunState(
        {failed, TestRunSource::Artifacts, "artifacts", "https://y"}, TestRunState::Failed,
        "HTTP 502"));
    auto many = TestResultStore(*cache).testRunsForCheckRuns({never, failed, stored, stored});
    ASSERT_TRUE(many) << many.message();
    EXPECT_EQ(many->size(), 2u);
    EXPECT_EQ(many->count(never), 0u);
    for (const CheckRunRow row : {stored, failed}) {
        auto one = TestResultStore(*cache).testRunForCheckRun(row);
        ASSERT_TRUE(one && *one);
        const TestRunInfo& batch = many->at(row);
        EXPECT_EQ(batch.id, (*one)->id);
        EXPECT_EQ(batch.state, (*one)->state);
        EXPECT_EQ(batch.message, (*one)->message);
        EXPECT_EQ(batch.totals.cases(), (*one)->totals.cases());
        EXPECT_EQ(batch.fetchedAt, (*one)->fetchedAt);
    }
    EXPECT_EQ(many->at(failed).state, TestRunState::Failed);
    auto none = TestResultStore(*cache).testRunsForCheckRuns({});
    ASSERT_TRUE(none);
    EXPECT_TRUE(none->empty());
}

TEST(TestRunWriter, RefusesACheckRunThatIsNotCached)
{
    auto cache = openCacheOk(":memory:");
    auto writer = TestResultStore(*cache).beginTestRun(
        {CheckRunRow{424242}, TestRunSource::Artifacts, "x", "y"});
    ASSERT_FALSE(writer);
    EXPECT_NE(writer.message().find("check run 424242 is no longer in the cache"),
              std::string::npos);
    auto state = TestResultStore(*cache).recordTestRunState(
        {CheckRunRow{424242}, TestRunSource::Artifacts, "x", "y"}, TestRunState::Expired, "gone");
    EXPECT_FALSE(state);
    EXPECT_EQ(RunStore(*cache).stats()->testRuns, 0);
}

TEST(TestRunStates, RecordedStatesReplaceEachOtherAndKeepTheirMessage)
{
    auto cache = openCacheOk(":memory:");
    const auto row = addRun(*cache, completedRun("a1", "build", 1, Conclusion::Failure, 100), 100);
    const TestRunOrigin origin{row, TestRunSource::Artifacts, "artifacts", "https://x"};
    ASSERT_TRUE(TestResultStore(*cache).recordTestRunState(
        origin, TestRunState::Unauthorized, "401 Bad credentials: set GITHUB_TOKEN"));
    auto id = TestResultStore(*cache).recordTestRunState(origin, TestRunState::Expired,
                                                         "410 Artifact has expired");
    ASSERT_TRUE(id);
    auto info = TestResultStore(*cache).testRunForCheckRun(row);
    ASSERT_TRUE(info && *info);
    EXPECT_EQ((*info)->id, *id);
    EXPECT_EQ((*info)->state, TestRunState::Expired);
    EXPECT_EQ((*info)->message, "410 Artifact has expired");
    EXPECT_STREQ(testRunStateName((*info)->state), "expired");
    EXPECT_EQ(RunStore(*cache).stats()->testRuns, 1);
    EXPECT_FALSE(TestResultStore(*cache).recordTestRunState(origin, TestRunState::Stored, ""));
    auto none = TestResultStore(*cache).testRunForCheckRun(CheckRunRow{row.value + 1});
    ASSERT_TRUE(none);
    EXPECT_FALSE(*none);
}

TEST(TestRunReads, ImportsNewestFirstFiltersAndLimits)
{
    auto cache = openCacheOk(":memory:");
    auto a = storeRun(*cache, importOrigin("a.xml"), sampleCases());
    auto b = storeRun(*cache, importOrigin("b.xml"), sampleCases());
    ASSERT_TRUE(a && b);
    auto imports = TestResultStore(*cache).testRuns(TestRunSource::Import);
    ASSERT_TRUE(imports);
    ASSERT_EQ(imports->size(), 2u);
    EXPECT_EQ((*imports)[0].label, "b.xml");
    EXPECT_TRUE(TestResultStore(*cache).testRuns(TestRunSource::Artifacts)->empty());

    auto failing =
        TestResultStore(*cache).testResults(*a, {{TestOutcome::Failed, TestOutcome::XFailed}, 0});
    ASSERT_EQ(failing->size(), 2u);
    auto limited = TestResultStore(*cache).testResults(*a, {{}, 3});
    EXPECT_EQ(limited->size(), 3u);
    EXPECT_TRUE(TestResultStore(*cache).testResults(*a, {{TestOutcome::Error}, 0})->empty());
    EXPECT_FALSE(TestResultStore(*cache).testText(TestMessageId{999999}));
    auto missing = TestResultStore(*cache).testRun(TestRunId{999999});
    ASSERT_FALSE(missing);
    EXPECT_NE(missing.message().find("999999"), std::string::npos);
}

TEST(TestRunStats, CountTestRunsAndStoredResults)
{
    ScratchDir dir("store");
    const auto path = dir.file("stats.sqlite");
    auto cache = openCacheOk(path);
    ASSERT_TRUE(storeRun(*cache, importOrigin("a.xml"), sampleCases()));
    ASSERT_TRUE(storeRun(*cache, importOrigin("b.xml"), sampleCases()));
    auto stats = RunStore(*cache).stats();
    ASSERT_TRUE(stats);
    EXPECT_EQ(stats->testRuns, 2);
    EXPECT_EQ(stats->testResults, 8);
    EXPECT_EQ(stats->testResults, queryInt(path, "SELECT count(*) FROM test_result"));
}

TEST(TestRunCascade, RemovingACheckRunRemovesItsResults)
{
    ScratchDir dir("store");
    const auto path = dir.file("cascade.sqlite");
    auto cache = openCacheOk(path);
    const auto row = addRun(*cache, completedRun("a1", "build", 1, Conclusion::Failure, 100), 100);
    ASSERT_TRUE(storeRun(*cache, {row, TestRunSource::Artifacts, "a", "u"}, sampleCases()));
    execSql(path, "PRAGMA foreign_keys = ON; DELETE FROM check_run;");
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_run"), 0);
    EXPECT_EQ(queryInt(path, "SELECT count(*) FROM test_result"), 0);
}

TEST(ArtifactQueue, FinishedRunsWithoutResultsFailedFirstThenNewest)
{
    auto cache = openCacheOk(":memory:");
    const auto oldGreen =
        addRun(*cache, completedRun("a1", "build", 1, Conclusion::Success, 100), 100);
    const auto oldRed =
        addRun(*cache, completedRun("a1", "test", 1, Conclusion::Failure, 100), 100);
    const auto newGreen =
        addRun(*cache, completedRun("a2", "build", 1, Conclusion::Success, 200), 200);
    const auto newRed =
        addRun(*cache, completedRun("a2", "test", 1, Conclusion::Failure, 200), 200);
    auto running = completedRun("a3", "test", 1, Conclusion::None, 300);
    running.reported.status = RunStatus::InProgress;
    addRun(*cache, running, 300);
    // Without an artifact_url a run is read from its GitHub run URL
    // (real-backends.md 7); one whose URL is no GitHub run (a Buildkite job)
    // has no store to read here.
    auto noUrl = completedRun("a3", "build", 1, Conclusion::Failure, 300);
    noUrl.reported.artifactUrl.clear();
    noUrl.reported.runUrl = "https://buildkite.com/vllm/ci/builds/91827#0192";
    addRun(*cache, noUrl, 300);

    auto all = TestResultStore(*cache).artifactQueue({});
    ASSERT_TRUE(all) << all.message();
    std::vector<CheckRunRow> rows;
    for (const auto& c : *all)
        rows.push_back(c.checkRunRow);
    EXPECT_EQ(rows, (std::vector<CheckRunRow>{newRed, oldRed, newGreen, oldGreen}));
    EXPECT_EQ((*all)[0].downstreamRepo, "torch-spyre/torch-spyre");
    EXPECT_EQ((*all)[0].checkRunId.value, "cr-a2-test-1");
    EXPECT_EQ((*all)[0].commitTime, 200);
    EXPECT_EQ((*all)[0].conclusion, Conclusion::Failure);
    EXPECT_NE((*all)[0].artifactUrl.find("/artifacts"), std::string::npos);

    auto failedOnly = TestResultStore(*cache).artifactQueue({true, 0, 0, 200});
    EXPECT_EQ(failedOnly->size(), 2u);
    auto recent = TestResultStore(*cache).artifactQueue({false, 150, 0, 200});
    EXPECT_EQ(recent->size(), 2u);
    EXPECT_EQ(TestResultStore(*cache).artifactQueue({false, 0, 0, 1})->size(), 1u);

    // A stored or final result leaves the queue; a Failed fetch comes back
    // only once it is older than retryFailedBefore.
    ASSERT_TRUE(TestResultStore(*cache).recordTestRunState(
        {newRed, TestRunSource::Artifacts, "a", "u"}, TestRunState::Expired, "expired"));
    ASSERT_TRUE(TestResultStore(*cache).recordTestRunState(
        {oldRed, TestRunSource::Artifacts, "a", "u"}, TestRunState::Failed, "HTTP 503"));
    EXPECT_EQ(TestResultStore(*cache).artifactQueue({true, 0, 0, 200})->size(), 0u);
    auto retry = TestResultStore(*cache).artifactQueue({true, 0, nowSeconds() + 60, 200});
    ASSERT_EQ(retry->size(), 1u);
    EXPECT_EQ((*retry)[0].checkRunRow, oldRed);

    // A refused fetch comes back the same way (the token may be set now).
    ASSERT_TRUE(TestResultStore(*cache).recordTestRunState(
        {oldRed, TestRunSource::Artifacts, "a", "u"}, TestRunState::Unauthorized,
        "GitHub token missing"));
    EXPECT_EQ(TestResultStore(*cache).artifactQueue({true, 0, 0, 200})->size(), 0u);
    auto asked = TestResultStore(*cache).artifactQueue({true, 0, nowSeconds() + 60, 200});
    ASSERT_EQ(asked->size(), 1u);
    EXPECT_EQ((*asked)[0].checkRunRow, oldRed);
}

TEST(CheckRunLookup, FindsTheRowOfAGithubCheckRunId)
{
    auto cache = openCacheOk(":memory:");
    const auto row = addRun(*cache, completedRun("a1", "build", 1, Conclusion::Success, 100), 100);
    EXPECT_EQ(*RunStore(*cache).checkRunRowFor(CheckRunId{"cr-a1-build-1"}), row);
    EXPECT_FALSE(*RunStore(*cache).checkRunRowFor(CheckRunId{"nope"}));
    EXPECT_FALSE(*RunStore(*cache).checkRunRowFor(CheckRunId{""}));
}
