#pragma once
// The cases a TestRunWriter has been given but not yet written: up to 64 at a
// time, looked up in test_case with one SELECT, the new ones inserted with
// one INSERT, and the results with another (see multi_row_insert.h). Private
// to the store.
#include "relayhud/model/test_result.h"
#include "store/multi_row_insert.h"

#include <cstdint>
#include <string>
#include <unordered_set>
#include <vector>

namespace relayhud::store {

struct PendingResult {
    // test_case
    std::uint64_t key = 0; // FNV-1a of the identity
    std::string identity, file, className, name, baseName, marks;
    bool derivedIdentity = true; // identity == testIdentity(file, className, name)
    // test_result
    TestOutcome outcome = TestOutcome::Passed;
    std::int64_t durationUs = 0;
    std::string retried;
    std::int64_t messageId = 0;   // 0: none
    std::int64_t tracebackId = 0; // 0: none
    std::int64_t testId = 0;      // set by the flush
};

// Fills everything but the message ids and testId from a reader's case.
void fillPending(PendingResult& p, const TestCaseResult& c);

// What a flush learns about the run as a whole.
struct RunTally {
    std::unordered_set<std::int64_t> testIds; // every test stored so far
    std::int64_t duplicates = 0;
    std::string firstDuplicate;
};

class ResultBatch {
public:
    static constexpr std::size_t kCapacity = 64;

    // `nextCaseId`: the id the next new test_case row takes; the writer holds
    // the write lock, so nobody else can take it first.
    ResultBatch(sqlite3* db, std::int64_t testRunId, std::int64_t nextCaseId);
    Result<void> prepared() const;

    // The slot for the next case; its strings keep their capacity from the
    // last use, so a steady stream of cases allocates little.
    PendingResult& next() { return m_rows[m_size++]; }
    bool full() const { return m_size == kCapacity; }
    Result<void> flush(RunTally& tally);

private:
    Result<void> lookUpCases();
    Result<void> updateCase(const PendingResult& row);
    Result<void> insertNewCases();
    Result<void> insertResults();
    void tallyRows(RunTally& tally) const;

    std::int64_t m_testRunId;
    std::int64_t m_nextCaseId;
    std::vector<PendingResult> m_rows;
    std::size_t m_size = 0;
    std::vector<std::size_t> m_newRows; // indexes of rows whose case is new
    Statement m_selectCases, m_updateCase;
    MultiRowInsert m_insertCases, m_insertResults;
};

} // namespace relayhud::store
