#pragma once
// The line that explains a failed job, as stored in table job_failure_line
// (schema v3): picked from the job's GitHub log by triage::Classifier during
// artifact sync, and read by triage/suggest.h as evidence. One row per check
// run; a rule set with another hash picks again.
#include "relayhud/model/failure_class.h"
#include "relayhud/model/types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

// Stored numerically: never reorder.
enum class JobLineState : std::uint8_t {
    Matched,     // a rule matched: rule, cls, line, text, captures
    NoMatch,     // the log was read; no rule matched
    NoLog,       // final: the log is gone (expired) or was empty; `message` says why
    FetchFailed, // network or server error, or refused (401/403): sync asks again
                 // after its retry interval; `message` says why
};
const char* jobLineStateName(JobLineState state); // "matched", "no match", ...

struct JobFailureLine {
    CheckRunRow checkRunRow;
    std::uint64_t rulesHash = 0; // triage::ruleSetHash of the set that picked it
    JobLineState state = JobLineState::NoMatch;
    std::string rule;
    triage::FailureClass cls = triage::FailureClass::Unset; // the rule's implied class
    std::uint64_t line = 0;                                 // in the raw log, from 1
    std::string text;
    std::vector<std::string> captures;
    // The first capture of every line the rule matched (triage::FailureLine::
    // named): each test a pytest summary names. Empty for a line picked
    // before schema 10, which named only its own.
    std::vector<std::string> named;
    std::string logHash; // ContentCache blob of the log; "" when none
    std::string message;
    EpochSeconds pickedAt = 0;
};

// A failed run whose job line sync should pick (again).
struct JobLineCandidate {
    CheckRunRow checkRunRow;
    std::string downstreamRepo; // "owner/repo"
    CheckRunId checkRunId;      // the GitHub job id
    Conclusion conclusion = Conclusion::None;
    // Its last fetch was a log that broke off (the message starts with
    // kLogBrokeOffMessage): what breaks off again is read as it is, and
    // asked again after the retry delay until a whole one arrives.
    bool brokeOffBefore = false;
};

// A GitHub job log ends with the runner's "Complete job" step, whose last
// line is "Cleaning up orphan processes" (test-infra
// aws/lambda/log-classifier/fixtures/error_log1.txt @61a77570, a whole raw
// log, ends so). A log that does not was cut on the way (or the runner died):
// it is fetched again once before it is read as it is.
inline constexpr std::string_view kRunnerLastLine = "Cleaning up orphan processes";
inline constexpr std::string_view kLogBrokeOffMessage = "the job log broke off";

struct JobLineQueueQuery {
    std::uint64_t rulesHash = 0;        // rows picked by another set are picked again
    EpochSeconds since = 0;             // commits at or after this time; 0: any
    EpochSeconds retryFailedBefore = 0; // FetchFailed rows picked before this are asked again
    std::int64_t limit = 200;
};

// Which runs triage looks at (Database::triageRunRows).
struct TriageRunQuery {
    Sha sha;                // "": every SHA
    EpochSeconds since = 0; // commits at or after this time; 0: any
    std::int64_t limit = 0; // 0: no limit
};

} // namespace relayhud
