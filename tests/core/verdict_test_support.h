#pragma once
// Hand-made runs, results and a config for the verdict and report tests.
#include "relayhud/config/outcome_config.h"
#include "relayhud/model/test_results.h"
#include "relayhud/verdict/verdict.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace relayhud::verdict::test {

inline constexpr EpochSeconds kNow = 1'780'000'000;

// One files entry with every mode, a pattern, edits and supported lists.
inline constexpr const char* kConfigText = R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_ops.py
      unlisted_test_mode: xfail
      tests:
        - names:
            - TestOps::test_add
            - TestOps::test_mul
            - TestOps::test_scan_.*
          mode: mandatory_success
        - names:
            - TestOps::test_div
          mode: xfail
        - names:
            - TestOps::test_sub
          mode: xfail_strict
        - names:
            - TestOps::test_pow
          mode: skip
  global:
    supported_dtypes:
      - name: float16
      - name: float32
    supported_ops:
      - name: add
      - name: mul
      - name: div
      - name: sub
      - name: scan
)";

inline config::OutcomeConfig parsedConfig(const std::string& text = kConfigText)
{
    auto parsed = config::parseOutcomeConfig(text);
    EXPECT_TRUE(parsed) << (parsed ? "" : parsed.message());
    EXPECT_FALSE(parsed->hasErrors());
    return parsed->config;
}

// An instantiated case of base TestOps::<method> over op and dtype.
inline StoredTestResult result(const std::string& method, const std::string& op,
                               const std::string& dtype, TestOutcome outcome = TestOutcome::Passed,
                               const std::string& file = "test/test_ops.py")
{
    static std::int64_t nextId = 1;
    StoredTestResult r;
    r.testId = TestId{nextId++};
    r.file = file;
    r.className = "TestOpsPRIVATEUSE1";
    r.name = method + (op.empty() ? "" : "_" + op) + "_spyre" + (dtype.empty() ? "" : "_" + dtype);
    r.identity = r.file + "::" + r.className + "::" + r.name;
    r.baseName = "TestOps::" + method;
    if (!op.empty())
        r.marks = "op__" + op;
    if (!dtype.empty())
        r.marks += (r.marks.empty() ? "" : ",") + std::string("dtype__") + dtype;
    r.outcome = outcome;
    return r;
}

inline TestRunTotals totalsOf(const std::vector<StoredTestResult>& results)
{
    TestRunTotals t;
    t.reports = 1;
    for (const StoredTestResult& r : results)
        ++t.outcomes[static_cast<std::size_t>(r.outcome)];
    return t;
}

// What the HUD row would say for these results if the run told the truth.
inline TestCounts honestCounts(const std::vector<StoredTestResult>& results)
{
    const TestRunTotals t = totalsOf(results);
    TestCounts c;
    c.total = t.cases();
    c.passed = t.count(TestOutcome::Passed);
    c.failed = t.count(TestOutcome::Failed) + t.count(TestOutcome::Error)
               + t.count(TestOutcome::XPassStrict);
    c.skipped = t.count(TestOutcome::Skipped) + t.count(TestOutcome::XFailed);
    return c;
}

inline CheckRun greenRun()
{
    CheckRun run;
    run.downstreamRepo = "torch-spyre/torch-spyre";
    run.upstreamSha = Sha{"1111111111111111111111111111111111111111"};
    run.workflow = "CI";
    run.jobName = "test (default, 1, 1)";
    run.checkRunId = CheckRunId{"9001"};
    run.runId = "42";
    run.reported.status = RunStatus::Completed;
    run.reported.conclusion = Conclusion::Success;
    run.reported.startedAt = kNow - 3600;
    run.reported.completedAt = kNow - 600;
    run.reported.runUrl = "https://github.com/torch-spyre/torch-spyre/actions/runs/42";
    run.reported.artifactUrl = run.reported.runUrl + "/artifacts";
    return run;
}

// A complete, honest green: every mandatory name ran and passed.
inline std::vector<StoredTestResult> goodResults()
{
    return {result("test_add", "add", "float16"),
            result("test_add", "add", "float32"),
            result("test_mul", "mul", "float16"),
            result("test_scan_cumsum", "scan", "float16"),
            result("test_div", "div", "float16", TestOutcome::XFailed),
            result("test_sub", "sub", "float16", TestOutcome::XFailed)};
}

// An input with stored results, honest counts and the parsed config.
inline VerdictInput inputFor(const std::vector<StoredTestResult>& results)
{
    VerdictInput in;
    in.run = greenRun();
    in.run.reported.tests = honestCounts(results);
    TestRunInfo info;
    info.id = TestRunId{7};
    info.state = TestRunState::Stored;
    info.label = "artifacts of run 42";
    info.totals = totalsOf(results);
    in.testRun = info;
    in.config.source = "ops.yaml";
    in.config.set(parsedConfig());
    in.now = kNow;
    return in;
}

inline const ConsistencyCheck& checkOf(const RunVerdict& v, CheckKind kind)
{
    for (const ConsistencyCheck& c : v.checks)
        if (c.kind == kind)
            return c;
    ADD_FAILURE() << "no check " << checkKindName(kind);
    return v.checks.front();
}

inline std::string joined(const std::vector<std::string>& lines)
{
    std::string out;
    for (const std::string& l : lines)
        out += l + "\n";
    return out;
}

} // namespace relayhud::verdict::test
