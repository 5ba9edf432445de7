#pragma once
// One test job's pytest session: which cases ran, in report order, how each
// ended and how long it took. The JUnit writer and the log writer both render
// a JobRun, so the report and the log cannot disagree.
#include "sim_test_catalog.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::sim {

enum class CaseResult : std::uint8_t {
    Passed,
    XPassed, // a non-strict XPASS: pytest's JUnit records it as passed
    Skipped,
    XFailed,
    Failed,     // assertion or backend error in the call
    Error,      // failed in setup
    XPassStrict // an xfail(strict=True) test that passed: a failure
};

struct JobCase {
    CaseRef ref;
    CaseResult result = CaseResult::Passed;
    FailureKind kind = FailureKind::Assertion; // for Failed, Error and XPassStrict
    std::uint32_t micros = 0;                  // duration
};

struct JobTotals {
    std::int64_t tests = 0;
    std::int64_t passed = 0; // XPassed not included
    std::int64_t xpassed = 0;
    std::int64_t skipped = 0; // XFailed not included
    std::int64_t xfailed = 0;
    std::int64_t failed = 0; // XPassStrict not included
    std::int64_t errors = 0;
    std::int64_t xpassStrict = 0;
    std::uint64_t micros = 0;

    // The figures of pytest's <testsuite>.
    std::int64_t junitFailures() const { return failed + xpassStrict; }
    std::int64_t junitSkipped() const { return skipped + xfailed; }
    void add(const JobCase& c);
};

struct JobRun {
    const TestUniverse* universe = nullptr;
    std::vector<JobCase> cases; // report order
    JobTotals totals;
};

// The shard's first `total` cases of `job`; the ones whose node ids are in
// `failing` fail the way the universe says they fail.
JobRun runJob(const TestUniverse& universe, const JobSpec& job, std::int64_t total,
              const std::vector<std::string>& failing);

// Adds a case upstream does not have yet (a PR's new test) in report order,
// failing if its node id is in `failing`.
void addCase(JobRun& run, const CaseRef& ref, const std::vector<std::string>& failing);

// Removes the cases of a test file, as if pytest had not collected it.
void dropFile(JobRun& run, std::string_view file);

JobTotals totalsOf(const std::vector<JobCase>& cases, std::size_t begin, std::size_t end);

bool isFailing(CaseResult result);

} // namespace relayhud::sim
