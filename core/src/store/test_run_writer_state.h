#pragma once
// The inside of a TestRunWriter: its open transaction, prepared statements
// and per-run memos. Private to the store; TestResultStore::beginTestRun builds it.
#include "relayhud/store/test_run_writer.h"
#include "store/message_store.h"
#include "store/result_batch.h"
#include "store/statement.h"
#include "store/transaction.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relayhud::store {

struct TestRunWriterState {
    sqlite3* db = nullptr;
    TestRunOrigin origin;
    ContentCache* fullTexts = nullptr;
    std::int64_t testRunId = 0;
    std::optional<Transaction> transaction; // ours to commit; rolled back otherwise

    std::unique_ptr<MessageStore> messages;
    std::unique_ptr<ResultBatch> batch; // the cases not yet written
    RunTally tally;                     // what was written
    // ContentCache hashes of the next case's cut message and traceback.
    std::array<std::string, 2> pendingFullHash;

    std::int64_t casesAdded = 0;
    std::vector<std::string> warnings;
};

// Opens the write transaction and the test run's row (not yet linked to its
// check run, so an earlier test run stays visible until commit).
Result<std::unique_ptr<TestRunWriterState>> startTestRun(sqlite3* db, const TestRunOrigin& origin,
                                                         ContentCache* fullTexts);

// test_run's totals columns, in the order totalsValues() gives them.
inline constexpr const char* kTotalsColumns =
    "reports, declared_tests, declared_failures, declared_errors, declared_skipped,"
    " counted_tests, counted_failures, counted_errors, counted_skipped,"
    " passed, failed, errors, skipped, xfailed, xpass_strict";
inline constexpr int kTotalsColumnCount = 15;
std::array<std::int64_t, kTotalsColumnCount> totalsValues(const TestRunTotals& totals);
TestRunTotals totalsFromValues(const std::array<std::int64_t, kTotalsColumnCount>& values);

} // namespace relayhud::store
