#pragma once
// Writes one test run into the cache as a single transaction: cases are
// added as a report streams by (JunitReadOptions::onCase), and nothing is
// visible until commit(); a writer destroyed without commit rolls back, so a
// parse or download that fails half-way leaves the cache as it was.
//
// Built for speed (100,000 cases parse and store in well under a second):
// prepared statements, test ids and message ids memoised per writer, marks
// and messages deduplicated. Use it on the thread that owns its Database, and
// keep no other write going on that Database until commit() or destruction.
#include "relayhud/junit/junit_reader.h"
#include "relayhud/model/test_results.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace relayhud {

class ContentCache;
class TestResultStore;

namespace store {
struct TestRunWriterState;
}

class TestRunWriter {
public:
    ~TestRunWriter(); // rolls back unless committed
    TestRunWriter(const TestRunWriter&) = delete;
    TestRunWriter& operator=(const TestRunWriter&) = delete;

    // Adds one case. The same identity twice in one run: the later wins and a
    // warning is kept (merged shards that both ran a test).
    Result<void> add(const TestCaseResult& testCase);
    // The whole text of the next added case's cut message or traceback (see
    // JunitReadOptions::onCutText); kept as a ContentCache blob when the
    // writer has one, else only the inline prefix survives.
    Result<void> keepFullText(CaseText which, std::string_view fullText);
    void addWarning(std::string warning);

    // Records the run's totals and state Stored, replaces an earlier test run
    // of the same check run, and commits. Returns the test run id.
    Result<TestRunId> commit(const TestRunTotals& totals);

    std::int64_t casesAdded() const;

private:
    friend class TestResultStore;
    explicit TestRunWriter(std::unique_ptr<store::TestRunWriterState> state);
    std::unique_ptr<store::TestRunWriterState> m_state;
};

} // namespace relayhud
