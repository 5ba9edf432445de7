#pragma once
// Picks and keeps the failure line of a failed job's log (table
// job_failure_line; see store/job_failure_line.h), the evidence behind infra
// and rule-implied suggestions (triage/suggest.h).
#include "relayhud/store/job_failure_line.h"
#include "relayhud/triage/classifier.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <string>

namespace relayhud::triage {

// A stable hash of a rule set's names, patterns and classes, in order: a
// stored line picked by a set with another hash is picked again.
std::uint64_t ruleSetHash(const RuleSet& rules);

// Classifies the log at `logPath` (a ContentCache blob whose hash is
// `logHash`) into a Matched or NoMatch line for `checkRunRow`, stamped with
// the classifier's ruleSetHash and now. An error when the file cannot be read.
Result<JobFailureLine> pickJobLine(const Classifier& classifier, CheckRunRow checkRunRow,
                                   const std::string& logPath, const std::string& logHash);

} // namespace relayhud::triage
