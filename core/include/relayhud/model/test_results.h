#pragma once
// Test results in the cache (schema v2): what the downstream artifacts say
// about every test of a run, kept so the same test can be followed across
// runs, jobs, backends and upstream SHAs, offline.
//
// A *test run* is one set of results: the JUnit reports of one check run's
// artifacts, or a report (file, archive or folder) imported by hand. A check
// run has at most one test run, so artifacts are fetched once per run; a
// fetch that found nothing usable still records why (expired, no reports,
// unauthorised, failed) so sync neither retries storms nor forgets.
//
// Tables: test_case (one row per identity: file::Class::name, base name,
// marks), test_message (messages and tracebacks, deduplicated by content; the
// full text of a cut one is a ContentCache blob), test_run, and test_result
// (test_run x test_case, WITHOUT ROWID, indexed by test for history).
#include "relayhud/model/ids.h"
#include "relayhud/model/test_result.h"
#include "relayhud/model/types.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

// Stored numerically: never reorder.
enum class TestRunSource : std::uint8_t { Artifacts, Import };

// Stored numerically: never reorder.
enum class TestRunState : std::uint8_t {
    Stored,       // results stored; see warnings for a report that broke off
    NoReports,    // the artifacts hold no JUnit report
    Expired,      // the store no longer has them (GitHub keeps 90 days; 404/410)
    Unauthorized, // 401/403: message names the setting to fix
    Failed,       // network or server error; sync retries later
};
const char* testRunStateName(TestRunState state); // "stored", "no reports", ...

// What the artifacts said in all: the JUnit totals, declared and counted
// (JunitReport::declared / counted summed over reports), and per outcome.
struct TestRunTotals {
    std::int64_t reports = 0;
    JunitTotals declared;
    JunitTotals counted;
    std::array<std::int64_t, kTestOutcomeCount> outcomes{};

    std::int64_t cases() const; // sum of outcomes
    std::int64_t count(TestOutcome o) const { return outcomes[static_cast<std::size_t>(o)]; }
};

struct TestRunInfo {
    TestRunId id;
    std::optional<CheckRunRow> checkRunRow; // check_run.id; none for an import
    TestRunSource source = TestRunSource::Artifacts;
    TestRunState state = TestRunState::Stored;
    std::string label;    // "report.xml", "artifacts of run 14800012345"
    std::string location; // the artifact URL or the imported path
    std::string message;  // why, for a state other than Stored; "" otherwise
    EpochSeconds fetchedAt = 0;
    TestRunTotals totals;
    std::vector<std::string> warnings; // parse breaks, skipped archive entries
};

// Downloads that broke off before their end are fetched again once (the
// fetch is then recorded Failed, its message starting kBrokeOffMessage);
// what breaks off a second time is kept as read, with a warning starting
// kPartialWarning, and the verdict calls the run's artifacts partial.
inline constexpr std::string_view kBrokeOffMessage = "the download broke off";
inline constexpr std::string_view kPartialWarning = "partial: ";
// The partial warning of a stored run, or nullptr.
const std::string* partialWarning(const TestRunInfo& run);

// Where a new test run's results come from.
struct TestRunOrigin {
    std::optional<CheckRunRow> checkRunRow;
    TestRunSource source = TestRunSource::Artifacts;
    std::string label;
    std::string location;
};

// One stored result, as the tests table shows it. Tracebacks are not loaded
// with the table (100,000 rows); read them with Database::testText().
struct StoredTestResult {
    TestId testId;
    std::string identity;
    std::string file;
    std::string className;
    std::string name;
    std::string baseName;
    std::string marks; // the raw tags, comma-separated: "op__add,dtype__float16"
    TestOutcome outcome = TestOutcome::Passed;
    double durationSeconds = 0.0;
    std::string retried;       // "" or result.retried's "signal,stall,pod" list
    std::string message;       // inline (possibly cut) message
    TestMessageId messageId;   // none: no message
    TestMessageId tracebackId; // none: no traceback
};

struct TestResultFilter {
    std::vector<TestOutcome> outcomes; // empty: all
    std::int64_t limit = 0;            // 0: no limit
};

// A message or traceback: the inline text and, when it was cut, the
// ContentCache blob hash of the whole.
struct StoredText {
    std::string text;
    std::int64_t fullBytes = 0;
    std::string fullTextHash; // "" when the text is whole
};

// One point of a test's history: its result in one run of the same job on
// one upstream SHA (the newest attempt on that SHA unless it lacks results).
struct TestHistoryPoint {
    Sha sha;
    EpochSeconds commitTime = 0;
    CheckRunRow checkRunRow;
    int runAttempt = 1;
    // None: the run has results but not this test (not collected, renamed).
    std::optional<TestOutcome> outcome;
};

// History points oldest first; the last one is the run asked about when it
// has results.
struct TestHistory {
    TestId testId;
    std::vector<TestHistoryPoint> points;
};

// Derived from a history, for the strip and its marks.
struct TestHistorySummary {
    int runs = 0;          // points with an outcome
    int failures = 0;      // failed, error or xpass-strict
    double flipRate = 0.0; // share of consecutive pairs (with outcomes) whose pass/fail differs
    // The SHA where the current streak of failures began (the latest point's
    // streak); empty when the latest point is not a failure.
    Sha firstFailingSha;
    bool newFailure = false;   // latest fails and the previous point passed
    bool failedBefore = false; // latest fails and so did the previous point
};

bool isFailingOutcome(TestOutcome outcome); // failed, error, xpass-strict
TestHistorySummary summarizeHistory(const TestHistory& history);

} // namespace relayhud
