#pragma once
// Automatic failure classes, each with the evidence that led to it (issue 5,
// "Classes, with evidence"). A suggestion is only a suggestion: a human tag
// (store/triage_tags.h) overrides it wherever both exist.
//
// Targets: in a run's stored test results, every failed, error, xfailed and
// xpass-strict test; and the job itself when it failed (conclusion failure,
// cancelled or timed out) with no failing test in its results, or no results.
//
// Rules of evidence, in precedence order (the first that holds decides):
//  1. outcome xpass-strict -> UnexpectedPass (a promote candidate for the
//     config editor); outcome xfailed -> Expected.
//  2. a failing test (failed/error) that passed on another attempt of the same
//     SHA and job -> Flaky (a retry that passed is a flakiness signal); or whose
//     history (Cache::testHistory over the last historyShas SHAs) flips more
//     than flipThreshold over at least minHistoryRuns runs -> Flaky.
//  3. baseline = the same job (downstream repo, workflow, job name) on the
//     nearest earlier upstream SHA (by commit time) where it ran and has
//     stored results (its newest such attempt): the test passed there ->
//     Regression, with the compare link of the upstream range baseline...here;
//     failed there too -> PreExisting; absent there (a new test) or no
//     baseline -> the next rule.
//  4. the job (no failing tests) whose failure line's rule implies Infra ->
//     Infra; a cancelled or timed-out job with such a line too. Infra jobs of
//     two or more backends on the same SHA, or started within
//     outageWindowSeconds of each other, are one outage: each carries an
//     Outage evidence listing the others and the same `group`.
//  5. the class the job's failure line's rule implies (BackendBug,
//     TestOrConfig, ...; Infra only for the job itself), else Untriaged.
// Every suggestion carries the evidence of the rule that decided it and of
// the rules before it that were looked at (the baseline of a flaky test, the
// line of a regression's job), so the UI can answer "why?".
#include "relayhud/junit/test_result.h"
#include "relayhud/model/types.h"
#include "relayhud/triage/failure_class.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {
class Cache;
}

namespace relayhud::triage {

// A run that evidence points at.
struct EvidenceRun {
    std::int64_t checkRunRow = 0;
    std::string downstreamRepo;
    std::string workflow;
    std::string jobName;
    Sha sha;
    int runAttempt = 1;
    Conclusion conclusion = Conclusion::None;
    EpochSeconds startedAt = 0; // 0: unknown
};

enum class EvidenceKind : std::uint8_t {
    Outcome,     // the test's own outcome here (xfailed, xpass-strict): `outcome`
    Rerun,       // another attempt of the same SHA and job: `run`, `outcome` there
    History,     // the test's recent history: flipRate over historyRuns runs of historyWindow SHAs
    Baseline,    // the baseline run: `run`, `outcome` there (none: absent), compareUrl
    NoBaseline,  // no earlier SHA where the job ran with stored results
    FailureLine, // the job's failure line: rule, line, text, captures, ruleClass
    NoLine,      // the job's log matched no rule or could not be had: `message`
    Outage,      // other backends' infra failures at the same time: `others`
};
std::string_view evidenceKindName(EvidenceKind kind); // "baseline", "failure line", ...

struct Evidence {
    EvidenceKind kind = EvidenceKind::Outcome;

    // Rerun, Baseline: the run compared.
    std::optional<EvidenceRun> run;
    // Outcome: the test's outcome here; Rerun, Baseline: its outcome in
    // `run` (none: the run has results but not this test).
    std::optional<TestOutcome> outcome;
    // Baseline: https://github.com/{upstream}/compare/{baseline}...{here}.
    std::string compareUrl;

    // History
    double flipRate = 0.0;
    int historyRuns = 0;   // points with an outcome
    int historyWindow = 0; // SHAs looked at (SuggestOptions::historyShas)

    // FailureLine
    std::string rule;
    std::uint64_t line = 0; // in the raw log, from 1
    std::string text;
    std::vector<std::string> captures;
    FailureClass ruleClass = FailureClass::Unset;
    std::string logHash; // ContentCache blob of the log; "" when not kept

    // Outage: the other backends' runs, one per backend, oldest first.
    std::vector<EvidenceRun> others;

    // NoLine: why (no rule matched, "log expired", ...).
    std::string message;
};

struct SuggestionTarget {
    std::int64_t checkRunRow = 0;
    std::int64_t testId = 0;            // 0: the job itself
    std::string identity;               // file::Class::name; "" for the job
    std::optional<TestOutcome> outcome; // the test's outcome; none for the job

    bool isJob() const { return testId == 0; }
};

struct Suggestion {
    SuggestionTarget target;
    FailureClass cls = FailureClass::Untriaged;
    std::vector<Evidence> evidence; // the deciding evidence first
    // One human sentence: "passed on a8f3c21 (attempt 1), fails here:
    // regression in a8f3c21...b71e09d".
    std::string why;
    // Suggestions of one outage share this ("outage from
    // 2026-12-03T09:40:00Z: Ascend/pytorch, intel/torch-xpu-ops"), named by
    // its first failure; "" otherwise.
    std::string group;
};

struct SuggestOptions {
    int historyShas = 20;                    // history window for the flip rate
    double flipThreshold = 0.3;              // flaky above this flip rate ...
    int minHistoryRuns = 6;                  // ... over at least this many runs
    EpochSeconds outageWindowSeconds = 3600; // infra failures this close are one outage
    bool includeExpected = true;             // xfailed tests (Expected); false leaves them out
};

// https://github.com/{upstreamRepo}/compare/{base}...{head}; the one place
// that builds it (the run details panel uses it too). "" when a part is empty.
std::string compareUrl(std::string_view upstreamRepo, const Sha& base, const Sha& head);

// Suggestions for one run, tests in identity order, then the job's own. An
// error for an unknown row or a cache that cannot be read.
Result<std::vector<Suggestion>> suggestForRun(const Cache& cache, std::int64_t checkRunRow,
                                              const SuggestOptions& options = {});

// The same for many runs (the CLI and the bench after a sync), in the order
// given; shares lookups between runs of one job.
Result<std::vector<Suggestion>> suggestForRuns(const Cache& cache,
                                               const std::vector<std::int64_t>& checkRunRows,
                                               const SuggestOptions& options = {});

} // namespace relayhud::triage
