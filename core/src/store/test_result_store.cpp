// TestResultStore: the test-result side (model/test_results.h) other than the writer
// and the history query: starting a test run, final states, and reads.
#include "relayhud/store/test_result_store.h"

#include "store/schema.h"
#include "store/statement.h"
#include "store/store_access.h"
#include "store/test_run_writer_state.h"
#include "store/transaction.h"

#include "relayhud/junit/test_identity.h"
#include "relayhud/util/json_guard.h"
#include "relayhud/util/time.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace relayhud {

using store::Statement;

namespace store {

std::array<std::int64_t, kTotalsColumnCount> totalsValues(const TestRunTotals& t)
{
    auto n = [](std::size_t v) { return static_cast<std::int64_t>(v); };
    return {t.reports,
            n(t.declared.tests),
            n(t.declared.failures),
            n(t.declared.errors),
            n(t.declared.skipped),
            n(t.counted.tests),
            n(t.counted.failures),
            n(t.counted.errors),
            n(t.counted.skipped),
            t.outcomes[0],
            t.outcomes[1],
            t.outcomes[2],
            t.outcomes[3],
            t.outcomes[4],
            t.outcomes[5]};
}

TestRunTotals totalsFromValues(const std::array<std::int64_t, kTotalsColumnCount>& v)
{
    auto n = [](std::int64_t x) { return static_cast<std::size_t>(x < 0 ? 0 : x); };
    TestRunTotals t;
    t.reports = v[0];
    t.declared = JunitTotals{n(v[1]), n(v[2]), n(v[3]), n(v[4])};
    t.counted = JunitTotals{n(v[5]), n(v[6]), n(v[7]), n(v[8])};
    for (std::size_t i = 0; i < kTestOutcomeCount; ++i)
        t.outcomes[i] = v[9 + i];
    return t;
}

} // namespace store

namespace {

static_assert(kTestOutcomeCount == 6, "test_run has one count column per outcome");

const std::string kTestRunSelect =
    std::string("SELECT id, check_run_row, source, state, label, location, message, fetched_at,"
                " warnings, ")
    + store::kTotalsColumns + " FROM test_run ";

std::vector<std::string> parseWarnings(const std::string& text)
{
    const auto json = parseJsonOrDiscarded(text);
    std::vector<std::string> out;
    if (json.is_array())
        for (const auto& item : json)
            if (item.is_string())
                out.push_back(item.get<std::string>());
    return out;
}

TestRunInfo readTestRun(const Statement& s)
{
    TestRunInfo info;
    info.id = TestRunId{s.int64(0)};
    info.checkRunRow = s.optId<CheckRunRow>(1);
    info.source = static_cast<TestRunSource>(s.integer(2));
    info.state = static_cast<TestRunState>(s.integer(3));
    info.label = s.text(4);
    info.location = s.text(5);
    info.message = s.text(6);
    info.fetchedAt = s.int64(7);
    info.warnings = parseWarnings(s.text(8));
    std::array<std::int64_t, store::kTotalsColumnCount> values{};
    for (int i = 0; i < store::kTotalsColumnCount; ++i)
        values[static_cast<std::size_t>(i)] = s.int64(9 + i);
    info.totals = store::totalsFromValues(values);
    return info;
}

Result<std::optional<TestRunInfo>> firstTestRun(Statement& s)
{
    auto row = s.step();
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<TestRunInfo>{};
    return std::optional<TestRunInfo>{readTestRun(s)};
}

std::string outcomeList(const std::vector<TestOutcome>& outcomes)
{
    std::string list;
    for (const TestOutcome o : outcomes)
        list += (list.empty() ? "" : ",") + std::to_string(static_cast<int>(o));
    return list;
}

StoredTestResult readResult(const Statement& s)
{
    StoredTestResult r;
    r.testId = s.id<TestId>(0);
    r.file = s.text(2);
    r.className = s.text(3);
    r.name = s.text(4);
    // NULL: the identity the JUnit reader derives (see schema.cpp).
    r.identity = s.isNull(1) ? testIdentity(r.file, r.className, r.name) : s.text(1);
    r.baseName = s.text(5);
    r.marks = s.text(6);
    r.outcome = static_cast<TestOutcome>(s.integer(7));
    r.durationSeconds = static_cast<double>(s.int64(8)) / 1e6;
    r.retried = s.text(9);
    r.messageId = s.id<TestMessageId>(10);
    r.tracebackId = s.id<TestMessageId>(11);
    r.message = s.text(12);
    return r;
}

Result<void> replaceWithState(sqlite3* db, const TestRunOrigin& origin, TestRunState state,
                              const std::string& message)
{
    std::int64_t asks = 1;
    if (origin.checkRunRow) {
        Statement before(db, "SELECT asks FROM test_run WHERE check_run_row = ?");
        auto row = before.bind(1, *origin.checkRunRow).step();
        if (!row)
            return row.error();
        if (*row)
            asks += before.int64(0);
        Statement drop(db, "DELETE FROM test_run WHERE check_run_row = ?");
        if (auto r = drop.bind(1, *origin.checkRunRow).run(); !r)
            return r;
    }
    Statement insert(db, "INSERT INTO test_run(check_run_row, source, state, label, location,"
                         " message, fetched_at, asks) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    return insert.bind(1, origin.checkRunRow)
        .bind(2, static_cast<std::int64_t>(origin.source))
        .bind(3, static_cast<std::int64_t>(state))
        .bind(4, origin.label)
        .bind(5, origin.location)
        .bind(6, message)
        .bind(7, nowSeconds())
        .bind(8, asks)
        .run();
}

} // namespace

TestResultStore::TestResultStore(const Database& db) : m_db(store::connectionOf(db)) {}

Result<std::unique_ptr<TestRunWriter>> TestResultStore::beginTestRun(const TestRunOrigin& origin,
                                                                     ContentCache* fullTexts)
{
    auto state = store::startTestRun(m_db, origin, fullTexts);
    if (!state)
        return state.error();
    return std::unique_ptr<TestRunWriter>(new TestRunWriter(std::move(*state)));
}

Result<TestRunId> TestResultStore::recordTestRunState(const TestRunOrigin& origin,
                                                      TestRunState state,
                                                      const std::string& message)
{
    if (state == TestRunState::Stored)
        return makeError("internal error: a stored test run is written with beginTestRun()");
    auto transaction = store::Transaction::begin(m_db);
    if (!transaction)
        return transaction.error();
    auto result = replaceWithState(m_db, origin, state, message);
    if (result)
        result = transaction->commit();
    if (!result)
        return makeError("could not record the test run: " + result.message());
    return TestRunId{sqlite3_last_insert_rowid(m_db)};
}

Result<std::optional<TestRunInfo>>
TestResultStore::testRunForCheckRun(CheckRunRow checkRunRow) const
{
    Statement s(m_db, kTestRunSelect + "WHERE check_run_row = ?");
    s.bind(1, checkRunRow);
    return firstTestRun(s);
}

Result<std::unordered_map<CheckRunRow, TestRunInfo, IdHash>>
TestResultStore::testRunsForCheckRuns(const std::vector<CheckRunRow>& checkRunRows) const
{
    std::unordered_map<CheckRunRow, TestRunInfo, IdHash> out;
    if (checkRunRows.empty())
        return out;
    Statement s(m_db, kTestRunSelect + "WHERE check_run_row IN (SELECT value FROM json_each(?1))");
    s.bind(1, store::jsonIdList(checkRunRows));
    auto read = s.forEachRow([&](const Statement& row) {
        TestRunInfo info = readTestRun(row);
        const CheckRunRow key = *info.checkRunRow;
        out.insert_or_assign(key, std::move(info));
    });
    if (!read)
        return read.error();
    return out;
}

Result<TestRunInfo> TestResultStore::testRun(TestRunId testRunId) const
{
    Statement s(m_db, kTestRunSelect + "WHERE id = ?");
    s.bind(1, testRunId.value);
    auto found = firstTestRun(s);
    if (!found)
        return found.error();
    if (!*found)
        return makeError("test run " + std::to_string(testRunId.value) + " is not in the cache");
    return std::move(**found);
}

Result<std::vector<TestRunInfo>> TestResultStore::testRuns(TestRunSource source) const
{
    Statement s(m_db, kTestRunSelect + "WHERE source = ? ORDER BY fetched_at DESC, id DESC");
    s.bind(1, static_cast<std::int64_t>(source));
    return store::collectRows<TestRunInfo>(s, readTestRun);
}

Result<std::vector<StoredTestResult>>
TestResultStore::testResults(TestRunId testRunId, const TestResultFilter& filter) const
{
    // Only outcomes the triage index holds: read through it.
    const bool triage =
        !filter.outcomes.empty()
        && std::all_of(filter.outcomes.begin(), filter.outcomes.end(), [](TestOutcome o) {
               return o == TestOutcome::Failed || o == TestOutcome::Error
                      || o == TestOutcome::XFailed || o == TestOutcome::XPassStrict;
           });
    std::string sql =
        std::string("SELECT tc.id, tc.identity, tc.file, tc.class_name, tc.name, tc.base_name,"
                    " tc.marks, r.outcome, r.duration_us, r.retried, r.message_id,"
                    " r.traceback_id, m.text FROM ")
        + (triage ? store::kTriageResults : "test_result r")
        + " JOIN test_case tc ON tc.id = r.test_id"
          " LEFT JOIN test_message m ON m.id = r.message_id WHERE r.test_run_id = ?1";
    if (!filter.outcomes.empty())
        sql += " AND r.outcome IN (" + outcomeList(filter.outcomes) + ")";
    if (triage)
        sql += std::string(" AND ") + store::kTriageOutcomesTerm;
    sql += " ORDER BY r.test_id";
    if (filter.limit > 0)
        sql += " LIMIT " + std::to_string(filter.limit);
    Statement s(m_db, sql);
    s.bind(1, testRunId.value);
    return store::collectRows<StoredTestResult>(s, readResult);
}

Result<StoredText> TestResultStore::testText(TestMessageId textId) const
{
    Statement s(m_db, "SELECT text, full_bytes, full_hash FROM test_message WHERE id = ?");
    auto row = s.bind(1, textId).step();
    if (!row)
        return row.error();
    if (!*row)
        return makeError("test message " + std::to_string(textId.value) + " is not in the cache");
    return StoredText{s.text(0), s.int64(1), s.text(2)};
}

} // namespace relayhud

namespace relayhud {
namespace {

// RunStatus::Completed = 3, Conclusion::Success = 1, TestRunState::Unauthorized = 3
// and Failed = 4: both are asked again once older than ?1 (a token may have
// been set since; the fetcher's standing refusal keeps that to one request
// per store and pass while it has not).
//
// A run is a candidate with an artifact_url or, without one, a GitHub
// Actions run URL: torch-spyre and TorchedHat never send artifact-url, and
// their evidence is the run's artifacts and logs (real-backends.md 1.4, 1.5, 7).
//
// Reports may come after the completed callback (torch-spyre uploads
// upstream-beta-reports-<sha> after it; crcr-test its health report): a run
// with none (NoReports = 1) is asked again at 5 min, 30 min, 2 h and 12 h
// after it completed, at most kMaxArtifactAsks times in all, then its "no
// reports uploaded" stands. A result kept partial (a report that broke off
// twice) is asked again after ?1, as often.
constexpr const char* kArtifactQueue =
    "SELECT cr.id, b.repo, cr.run_id, cr.run_attempt, cr.check_run_id, cr.artifact_url,"
    " cr.run_url, cr.conclusion, c.time, coalesce(cr.started_at, 0)"
    " FROM check_run cr JOIN job j ON j.id = cr.job_id JOIN backend b ON b.id = j.backend_id"
    " JOIN upstream_commit c ON c.id = cr.commit_id"
    " LEFT JOIN test_run tr ON tr.check_run_row = cr.id"
    " WHERE cr.status = 3 AND (cr.artifact_url != '' OR cr.run_url LIKE '%/actions/runs/%')"
    " AND (tr.id IS NULL OR (tr.state IN (3, 4) AND tr.fetched_at < ?1)"
    "      OR (tr.state = 0 AND tr.warnings LIKE ?5 AND tr.fetched_at < ?1 AND tr.asks < ?7)"
    "      OR (tr.state = 1 AND tr.asks < ?7 AND EXISTS (SELECT 1 FROM (VALUES (300), (1800),"
    "          (7200), (43200)) o WHERE tr.fetched_at < cr.completed_at + o.column1"
    "          AND cr.completed_at + o.column1 <= ?6)))"
    " AND (?2 = 0 OR cr.conclusion != 1) AND c.time >= ?3"
    " ORDER BY cr.conclusion = 1, c.time DESC, cr.id DESC LIMIT ?4";

ArtifactCandidate readCandidate(const Statement& s)
{
    ArtifactCandidate c;
    c.checkRunRow = s.id<CheckRunRow>(0);
    c.downstreamRepo = s.text(1);
    c.runId = s.text(2);
    c.runAttempt = s.integer(3);
    c.checkRunId = CheckRunId{s.text(4)};
    c.artifactUrl = s.text(5);
    c.runUrl = s.text(6);
    c.conclusion = static_cast<Conclusion>(s.integer(7));
    c.commitTime = s.int64(8);
    c.startedAt = s.int64(9);
    return c;
}

} // namespace

namespace {

// The queue's statement with its parameters bound: a page of it, or, with
// "SELECT count(*) FROM (...)" around it and no limit, its size.
void bindArtifactQueue(Statement& s, const ArtifactQueueQuery& query, std::int64_t limit)
{
    s.bind(1, query.retryFailedBefore)
        .bind(2, query.failedOnly ? 1 : 0)
        .bind(3, query.since)
        .bind(4, limit > 0 ? limit : std::int64_t{-1})
        .bind(5, "%\"" + std::string(kPartialWarning) + "%") // an element of the JSON list
        .bind(6, nowSeconds())
        .bind(7, std::int64_t{kMaxArtifactAsks});
}

} // namespace

Result<std::vector<ArtifactCandidate>>
TestResultStore::artifactQueue(const ArtifactQueueQuery& query) const
{
    Statement s(m_db, kArtifactQueue);
    bindArtifactQueue(s, query, query.limit);
    return store::collectRows<ArtifactCandidate>(s, readCandidate);
}

Result<std::int64_t> TestResultStore::artifactQueueSize(const ArtifactQueueQuery& query) const
{
    Statement s(m_db, std::string("SELECT count(*) FROM (") + kArtifactQueue + ")");
    bindArtifactQueue(s, query, 0);
    auto row = s.step();
    if (!row)
        return row.error();
    return *row ? s.int64(0) : 0;
}

} // namespace relayhud
