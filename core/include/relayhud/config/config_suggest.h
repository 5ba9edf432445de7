#pragma once
// Mode changes the cache's evidence argues for (spec section 10): a method
// whose every reported variant the config runs as `xfail` (or
// `xfail_strict`) and that passed in each of a job's last N runs is a
// promotion; JUnit shows a non-strict XPASS as a plain pass, so the config's
// decision is applied to each case to see it. A `mandatory_success` method
// that failed in every one of them is a demotion, to xfail.
// Each suggestion carries what planModeEdit needs, so applying one, a
// selection or all of them is a loop of planModeEdit over the same text.
#include "relayhud/config/config_edit.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/pytest_selection.h"
#include "relayhud/config/resolver.h"
#include "relayhud/store/recent_results.h"
#include "relayhud/util/result.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

struct SuggestOptions {
    int runs = 10; // N: a job needs this many runs with results to argue at all
    Mode demoteTo = Mode::Xfail;
    ResolveContext context;
    // Only this repository's jobs ("" every job): a backend's config is
    // judged by its own backend's runs, not by another's tests of the same name.
    std::string repo;
};

// One method in one job. A config lists methods, so a move changes every
// variant (class, op, dtype) its deciding entry governs: all that ran must agree.
struct Suggestion {
    EditKind kind = EditKind::Promote; // Promote or Demote
    std::string test;                  // "file::Class::method", as planModeEdit reads it
    std::string baseName;              // the method, as the framework keys it
    Mode from = Mode::Xfail;
    Mode to = Mode::MandatorySuccess;
    std::size_t fileIndex = 0;             // the config's files entry
    std::optional<std::size_t> entryIndex; // the deciding entry; none when unlisted
    std::string repo;                      // the job the evidence comes from
    std::string workflow;
    std::string job;
    std::vector<RecentRun> runs; // the evidence, oldest first
    int variants = 1;            // reported variants of the method in the job
    // "passed 12/12 runs of org/repo test (default, 1, 2) since abc1234".
    std::string evidence;
    // Dtypes the deciding entry lets run that no run reported: the move
    // changes them too, without evidence.
    std::vector<std::string> unevidenced;

    // The edit that applies it; `reason` is the user's words.
    EditRequest request(const std::string& reason) const;
};

// Suggestions ordered by base name, then repository, workflow and job.
std::vector<Suggestion> suggestModeChanges(const OutcomeConfig& config, const RecentResults& recent,
                                           const SuggestOptions& options = {});

// A job's own pytest selection (pytest_selection.h), read from its log or
// workflow. An empty workflow or job matches every one of the repository's.
struct JobSelection {
    std::string repo;
    std::string workflow;
    std::string job;
    PytestSelection selection;
};

// Which jobs can produce promotion evidence at all. torch-spyre's CI runs
// `-m "not xfail"` (real-backends.md 3.3-3.4): every xfail and xfail_strict
// variant is deselected, so no xfail test ever passes there and no
// promotion can ever be suggested from those jobs.
struct XfailEvidence {
    std::vector<std::string> deselecting; // "org/repo workflow / job: <selection's why>"
    std::vector<std::string> running;     // jobs that run xfail tests
    std::vector<std::string> unknown;     // jobs whose selection was not read or is unclear
    // Plain sentences: whether any job runs the xfail tests, and which job would.
    std::vector<std::string> sentences;
};

// Over the jobs `recent` holds (and the selections' own jobs when `recent`
// has none of them).
XfailEvidence xfailEvidence(const RecentResults& recent,
                            const std::vector<JobSelection>& selections);

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
                                    const std::string& reason, const ResolveContext& context = {});

} // namespace relayhud::config
