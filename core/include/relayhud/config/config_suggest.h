#pragma once
// Mode changes the cache's evidence argues for (issue 6): an `xfail_strict`
// test that passed in every one of a job's last N runs is a promotion; a
// `mandatory_success` test that failed in every one of them is a demotion.
// Each suggestion carries what planModeEdit needs, so applying one, a
// selection or all of them is a loop of planModeEdit over the same text.
#include "relayhud/config/config_edit.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/junit/test_identity.h"
#include "relayhud/store/recent_results.h"
#include "relayhud/util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

struct SuggestOptions {
    int runs = 10; // N: a job needs this many runs with results to argue at all
    BaseNameOptions baseNames;
};

// One base name in one job. A config lists base names, so a move changes
// every instantiated variant (op, dtype) of it: all of them must agree.
struct Suggestion {
    EditKind kind = EditKind::Promote; // Promote or Demote
    std::string test;                  // "file::Class::method", as planModeEdit reads it
    std::string baseName;
    Mode from = Mode::XfailStrict;
    Mode to = Mode::MandatorySuccess;
    std::size_t fileIndex = 0;             // the config's files entry
    std::optional<std::size_t> entryIndex; // the deciding entry; none when unlisted
    std::string repo;                      // the job the evidence comes from
    std::string workflow;
    std::string job;
    std::vector<RecentRun> runs; // the evidence, oldest first
    int variants = 1;            // instantiated tests of the base name in the job
    // "passed 12/12 runs of org/repo test (default, 1, 2) since abc1234".
    std::string evidence;

    // The edit that applies it; `reason` is the user's words.
    EditRequest request(const std::string& reason) const;
};

// Suggestions ordered by base name, then repository, workflow and job.
std::vector<Suggestion> suggestModeChanges(const OutcomeConfig& config, const RecentResults& recent,
                                           const SuggestOptions& options = {});

struct AppliedSuggestions {
    std::string text;                  // the config with every applied edit
    std::vector<std::string> applied;  // ModeEdit::summary of each
    std::vector<std::string> warnings; // ModeEdit::warnings of each
    // "<test>: <why>" for each one planModeEdit refused, e.g. the same test
    // already moved for another job's evidence.
    std::vector<std::string> skipped;
};

// planModeEdit for each suggestion in turn, each on the text the previous
// ones left; a refused one is skipped with its reason, never half-applied.
AppliedSuggestions applySuggestions(std::string_view text,
                                    const std::vector<Suggestion>& suggestions,
                                    const std::string& reason, const BaseNameOptions& options = {});

// The validation finding that needs the known tests: a name pattern that
// matches none of the tests the cache knows in its file. A file the cache
// knows no test of is not checked (no evidence is not evidence of absence),
// nor are `skip` entries (a skipped test is never collected, so never known).
std::vector<Finding> unmatchedPatterns(const OutcomeConfig& config,
                                       const std::vector<KnownTest>& known);

} // namespace relayhud::config
