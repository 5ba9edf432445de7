#pragma once
// Automatic failure classes, each with the evidence that led to it (issue 5,
// "Classes, with evidence"). A suggestion is only a suggestion: a human tag
// (model/triage_tags.h) overrides it wherever both exist.
//
// Targets: in a run's stored test results, every failed, error, xfailed and
// xpass-strict test; and the job itself when it failed (conclusion failure,
// cancelled or timed out) with no failing test in its results, or no results.
//
// Rules of evidence, in precedence order (the first that holds decides):
//  1. outcome xpass-strict -> UnexpectedPass (a promote candidate for the
//     config editor); outcome xfailed -> Expected.
//  2. a failing test whose own message matches an infra rule (device busy or
//     unavailable, host out of memory, network, disk full) -> Infra: a setup
//     error is no one's regression, and not flaky when a rerun passed.
//  3. a failing test (failed/error) that passed on another attempt of the same
//     SHA and job -> Flaky (a retry that passed is a flakiness signal); an
//     attempt that went green without fetched results passed it too when its
//     own counts say 0 failed.
//  3b. a test failing in a job that reported green with counts saying 0
//     failed -> BackendBug: the job's report hides failures.
//  4. attribution over the job's timeline (triage/attribution.h): this PR's
//     regression (fails on its heads, not on the other PRs' runs of the job
//     in the window; the push that brought it when its previous head passed;
//     surer when its other heads or attempts fail it too), pre-existing (a
//     breakage most PRs' runs carry since an onset, first seen on a culprit
//     PR), backend bug (every run started failing it at once, no PR first),
//     flaky (other PRs fail it now and then, any attempt, no common start;
//     another SHA's attempts disagree on it; a noisy job's one-off failure; a
//     nightly's failure the next nightly passes), a nightly's new failure (a
//     regression in the main range since the previous nightly), or unclear
//     (Untriaged: only this PR fails it, on one run, with too few other runs
//     to compare). With no other run of the job to compare, the next rule.
//  5. the job (no failing tests) whose failure line's rule implies Infra ->
//     Infra; a timed-out job with such a line too. A cancelled job is infra
//     only when its line says so (a runner lost) or an outage across
//     backends covers it; else it stays cancelled, and says so (issue 37).
//     Infra jobs of two or more backends on the same SHA, or started within
//     outageWindowSeconds of each other, are one outage: each carries an
//     Outage evidence listing the others and the same `group`.
//  6. the class the job's failure line's rule implies (BackendBug,
//     TestOrConfig, ...; Infra only for the job itself), else Untriaged.
// Every suggestion carries the evidence of the rule that decided it and of
// the rules before it that were looked at, a confidence, and one sentence of
// why, so the UI can answer "why?". Compare links only ever join two heads of
// one PR, or the main commits of two nightlies: a compare between two
// different PRs' heads means nothing.
#include "relayhud/model/failure_class.h"
#include "relayhud/model/test_result.h"
#include "relayhud/model/types.h"
#include "relayhud/triage/attribution.h"
#include "relayhud/triage/evidence_coverage.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::triage {

// A run that evidence points at.
struct EvidenceRun {
    CheckRunRow checkRunRow;
    std::string downstreamRepo;
    std::string workflow;
    std::string jobName;
    Sha sha;
    int runAttempt = 1;
    Conclusion conclusion = Conclusion::None;
    EpochSeconds startedAt = 0; // 0: unknown
    PrNumber prNumber;          // none: a nightly or a push
    EventType eventType = EventType::PullRequest;
    EpochSeconds dispatchedAt = 0; // the upstream commit's time; 0: unknown
};

enum class EvidenceKind : std::uint8_t {
    Outcome,     // the test's own outcome here (xfailed, xpass-strict): `outcome`
    Rerun,       // another attempt of the same SHA and job: `run`, `outcome` there
    Concurrent,  // other PRs' runs of the job in the window: counts, `others` failed, `passed`
    Baseline,    // this PR's previous head (a nightly: the previous nightly): `run`,
                 // `outcome` there, compareUrl between the two
    NoBaseline,  // this PR (or the nightlies) has no earlier run of the job with results
    Breakage,    // a breakage the run is part of: `run` its onset, `firstSeen`, culpritPr
    TestLine,    // the test's own message matches a rule: rule, text, ruleClass
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
    // Baseline: https://github.com/{upstream}/compare/{a}...{b}, a and b two
    // heads of this PR, or two nightlies' main commits; "" when not knowable.
    std::string compareUrl;

    // Concurrent: how many other PRs' (and nightlies') runs of the job within
    // `windowSeconds` failed the test and how many did not; `others` lists a
    // few that failed and `passed` a few that did not, nearest first.
    int failedCount = 0;
    int passedCount = 0;
    EpochSeconds windowSeconds = 0;
    // Other PRs' runs further away (within days) that fail it outside any
    // breakage: the evidence of a flaky test the window alone misses.
    int failedFurther = 0;
    std::vector<EvidenceRun> passed;

    // Breakage: `run` is where it spread from; firstSeen the run that failed
    // the test first; culpritPr the PR that did, on its own, if one did;
    // brokenRuns runs fail it from the onset on, on brokenSources PRs and
    // nightlies; pullUrl the culprit's files.
    std::optional<EvidenceRun> firstSeen;
    PrNumber culpritPr;
    int brokenRuns = 0;
    int brokenSources = 0;
    std::string pullUrl;

    // FailureLine, TestLine
    std::string rule;
    std::uint64_t line = 0; // in the raw log, from 1
    std::string text;
    std::vector<std::string> captures;
    FailureClass ruleClass = FailureClass::Unset;
    std::string logHash; // ContentCache blob of the log; "" when not kept

    // Outage: the other backends' runs, one per backend, oldest first.
    std::vector<EvidenceRun> others;

    // NoLine: why (no rule matched, "log expired", ...). Rerun: how a green
    // attempt without fetched results passed ("0 of its 903 tests failed by its
    // own counts"), "" when its results say so.
    std::string message;
};

struct SuggestionTarget {
    CheckRunRow checkRunRow;
    TestId testId;                      // none: the job itself
    std::string identity;               // file::Class::name; "" for the job
    std::optional<TestOutcome> outcome; // the test's outcome; none for the job

    bool isJob() const { return !testId; }
};

struct Suggestion {
    SuggestionTarget target;
    FailureClass cls = FailureClass::Untriaged;
    double confidence = 0.0;        // 0..1; 0 for Untriaged
    std::vector<Evidence> evidence; // the deciding evidence first
    // One human sentence: "passed on a8f3c21 (attempt 1), fails here:
    // regression in a8f3c21...b71e09d".
    std::string why;
    // Suggestions of one outage share this ("outage from
    // 2026-12-03T09:40:00Z: Ascend/pytorch, intel/torch-xpu-ops"), named by
    // its first failure; "" otherwise.
    std::string group;
    // The runs of the job its class rests on (rules 4 and 6): how many have
    // their results in. Short of complete, the class is provisional and its
    // confidence is not shown; a class its own run decides (rules 1-3, 5)
    // needs no other run: 0 of 0.
    EvidenceCoverage coverage;

    bool provisional() const { return !coverage.complete(); }
};

struct SuggestOptions {
    AttributionOptions attribution;          // concurrent window, breakage thresholds
    EpochSeconds outageWindowSeconds = 3600; // infra failures this close are one outage
    bool includeExpected = true;             // xfailed tests (Expected); false leaves them out
};

// https://github.com/{upstreamRepo}/compare/{base}...{head}; the one place
// that builds it (the run details panel uses it too). "" when a part is empty.
std::string compareUrl(std::string_view upstreamRepo, const Sha& base, const Sha& head);
// https://github.com/{upstreamRepo}/pull/{pr}/files: what a PR changed; "" for no PR.
std::string pullFilesUrl(std::string_view upstreamRepo, PrNumber pr);

// Suggestions for one run, tests in identity order, then the job's own. An
// error for an unknown row or a cache that cannot be read.
Result<std::vector<Suggestion>> suggestForRun(const Database& cache, CheckRunRow checkRunRow,
                                              const SuggestOptions& options = {});

// The same for many runs (the CLI and the bench after a sync), in the order
// given; shares lookups between runs of one job.
Result<std::vector<Suggestion>> suggestForRuns(const Database& cache,
                                               const std::vector<CheckRunRow>& checkRunRows,
                                               const SuggestOptions& options = {});

class EvidenceSource;
// The same over any source of the facts (triage/evidence_source.h): what the
// two above run on the cache, and what tests run on hand-made runs.
Result<std::vector<Suggestion>> suggestForRuns(const EvidenceSource& facts,
                                               const std::vector<CheckRunRow>& checkRunRows,
                                               const SuggestOptions& options = {});

} // namespace relayhud::triage
