// TestRunWriter: one test run written in one transaction (see
// store/test_run_writer.h), tuned for 100,000 cases per report.
#include "relayhud/store/test_run_writer.h"

#include "relayhud/store/content_cache.h"
#include "relayhud/util/time.h"
#include "store/test_run_writer_state.h"

#include <nlohmann/json.hpp>

namespace relayhud {
namespace store {
namespace {

// The whole text's blob hash when `text` was cut and keepFullText() kept it.
const std::string& fullHashOf(const TestRunWriterState& s, const CappedText& text, CaseText which)
{
    static const std::string none;
    return text.cut ? s.pendingFullHash[static_cast<std::size_t>(which)] : none;
}

// Copies what the batch needs of a case into its next slot; the case object
// is refilled by the reader as soon as this returns.
Result<void> queueCase(TestRunWriterState& s, const TestCaseResult& c)
{
    auto message = s.messages->id(c.message, fullHashOf(s, c.message, CaseText::Message));
    if (!message)
        return message.error();
    auto traceback = s.messages->id(c.traceback, fullHashOf(s, c.traceback, CaseText::Traceback));
    if (!traceback)
        return traceback.error();
    s.pendingFullHash = {};
    PendingResult& p = s.batch->next();
    fillPending(p, c);
    p.messageId = *message;
    p.tracebackId = *traceback;
    return s.batch->full() ? s.batch->flush(s.tally) : Result<void>{};
}

Result<std::int64_t> nextCaseId(sqlite3* db)
{
    Statement s(db, "SELECT coalesce(max(id), 0) + 1 FROM test_case");
    auto row = s.step();
    if (!row)
        return row.error();
    return s.int64(0);
}

Result<void> prepareStatements(TestRunWriterState& s)
{
    auto next = nextCaseId(s.db);
    if (!next)
        return next.error();
    s.messages = std::make_unique<MessageStore>(s.db);
    s.batch = std::make_unique<ResultBatch>(s.db, s.testRunId, *next);
    if (auto r = s.messages->prepared(); !r)
        return r;
    return s.batch->prepared();
}

Result<void> checkRunExists(sqlite3* db, CheckRunRow row)
{
    Statement s(db, "SELECT 1 FROM check_run WHERE id = ?");
    auto found = s.bind(1, row).step();
    if (!found)
        return found.error();
    if (!*found)
        return makeError("check run " + std::to_string(row.value) + " is no longer in the cache");
    return {};
}

Result<std::int64_t> insertTestRun(sqlite3* db, const TestRunOrigin& origin)
{
    Statement s(db, "INSERT INTO test_run(source, state, label, location, fetched_at)"
                    " VALUES (?, ?, ?, ?, ?)");
    auto r = s.bind(1, static_cast<std::int64_t>(origin.source))
                 .bind(2, static_cast<std::int64_t>(TestRunState::Stored))
                 .bind(3, origin.label)
                 .bind(4, origin.location)
                 .bind(5, nowSeconds())
                 .run();
    if (!r)
        return r.error();
    return sqlite3_last_insert_rowid(db);
}

Result<void> openRun(TestRunWriterState& s)
{
    if (s.origin.checkRunRow)
        if (auto r = checkRunExists(s.db, *s.origin.checkRunRow); !r)
            return r;
    auto id = insertTestRun(s.db, s.origin);
    if (!id)
        return id.error();
    s.testRunId = *id;
    return prepareStatements(s);
}

void rollback(TestRunWriterState& s) { s.transaction.reset(); }

std::string warningsJson(const TestRunWriterState& s)
{
    nlohmann::json list = s.warnings;
    if (s.tally.duplicates > 0)
        list.push_back(
            std::to_string(s.tally.duplicates)
            + " test cases were in more than one report (merged shards, or per-suite and "
              "merged reports); each counts once, with its last result, e.g. "
            + s.tally.firstDuplicate);
    return list.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

Result<void> linkToCheckRun(TestRunWriterState& s)
{
    if (!s.origin.checkRunRow)
        return {};
    // Counted across fetches (TestResultStore::artifactQueue bounds a partial run's asks).
    Statement asks(s.db, "UPDATE test_run SET asks = 1 + coalesce((SELECT asks FROM test_run"
                         " WHERE check_run_row = ?1 AND id != ?2), 0) WHERE id = ?2");
    if (auto r = asks.bind(1, *s.origin.checkRunRow).bind(2, s.testRunId).run(); !r)
        return r;
    Statement drop(s.db, "DELETE FROM test_run WHERE check_run_row = ?1 AND id != ?2");
    if (auto r = drop.bind(1, *s.origin.checkRunRow).bind(2, s.testRunId).run(); !r)
        return r;
    Statement link(s.db, "UPDATE test_run SET check_run_row = ?1 WHERE id = ?2");
    return link.bind(1, *s.origin.checkRunRow).bind(2, s.testRunId).run();
}

// A case in several reports of one run counts once: torch-spyre's per-suite
// `<config stem>.xml` artifacts and its merged `upstream-beta-reports-<sha>`
// hold the same cases (real-backends.md 3.2, 7), and so do merged shards.
// The outcomes are those of the results kept (the last of each case).
TestRunTotals distinctTotals(const TestRunWriterState& s, TestRunTotals totals)
{
    totals.outcomes.fill(0);
    Statement count(s.db, "SELECT outcome, count(*) FROM test_result WHERE test_run_id = ?"
                          " GROUP BY outcome");
    count.bind(1, s.testRunId);
    while (true) {
        auto row = count.step();
        if (!row || !*row)
            break;
        const auto outcome = static_cast<std::size_t>(count.int64(0));
        if (outcome < totals.outcomes.size())
            totals.outcomes[outcome] = count.int64(1);
    }
    return totals;
}

Result<void> writeTotals(TestRunWriterState& s, const TestRunTotals& totals)
{
    Statement update(s.db, std::string("UPDATE test_run SET (") + kTotalsColumns
                               + ", stored_results, warnings, fetched_at) = (?2, ?3, ?4, ?5, ?6,"
                                 " ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19)"
                                 " WHERE id = ?1");
    update.bind(1, s.testRunId);
    int column = 2;
    const TestRunTotals distinct = s.tally.duplicates > 0 ? distinctTotals(s, totals) : totals;
    for (const std::int64_t value : totalsValues(distinct))
        update.bind(column++, value);
    update.bind(column++, static_cast<std::int64_t>(s.tally.testIds.size()));
    update.bind(column++, warningsJson(s));
    update.bind(column, nowSeconds());
    return update.run();
}

} // namespace

Result<std::unique_ptr<TestRunWriterState>> startTestRun(sqlite3* db, const TestRunOrigin& origin,
                                                         ContentCache* fullTexts)
{
    auto state = std::make_unique<TestRunWriterState>();
    state->db = db;
    state->origin = origin;
    state->fullTexts = fullTexts;
    auto transaction = Transaction::begin(db);
    if (!transaction)
        return transaction.error();
    state->transaction.emplace(std::move(*transaction));
    if (auto r = openRun(*state); !r) {
        rollback(*state);
        return r.error();
    }
    return state;
}

} // namespace store

TestRunWriter::TestRunWriter(std::unique_ptr<store::TestRunWriterState> state)
    : m_state(std::move(state))
{
}

TestRunWriter::~TestRunWriter() { store::rollback(*m_state); }

Result<void> TestRunWriter::add(const TestCaseResult& testCase)
{
    auto& s = *m_state;
    if (!s.transaction)
        return makeError("internal error: the test run is already committed or rolled back");
    ++s.casesAdded;
    return store::queueCase(s, testCase);
}

Result<void> TestRunWriter::keepFullText(CaseText which, std::string_view fullText)
{
    if (!m_state->fullTexts)
        return {};
    auto hash = m_state->fullTexts->put(fullText);
    if (!hash)
        return makeError("could not keep the full text of a long test message: " + hash.message());
    m_state->pendingFullHash[static_cast<std::size_t>(which)] = *hash;
    return {};
}

void TestRunWriter::addWarning(std::string warning)
{
    m_state->warnings.push_back(std::move(warning));
}

Result<TestRunId> TestRunWriter::commit(const TestRunTotals& totals)
{
    auto& s = *m_state;
    if (!s.transaction)
        return makeError("internal error: the test run is already committed or rolled back");
    auto r = s.batch->flush(s.tally);
    if (r)
        r = store::writeTotals(s, totals);
    if (r)
        r = store::linkToCheckRun(s);
    // No statement of this writer may be active at COMMIT (a SELECT that
    // returned a row and was not reset): it would keep this connection on its
    // old snapshot, and the checkpoint after the commit could not copy the WAL
    // back (store/transaction.cpp).
    s.batch.reset();
    s.messages.reset();
    if (r)
        r = s.transaction->commit();
    s.transaction.reset();
    if (!r)
        return makeError("could not store the test results: " + r.message());
    return TestRunId{s.testRunId};
}

std::int64_t TestRunWriter::casesAdded() const { return m_state->casesAdded; }

} // namespace relayhud
