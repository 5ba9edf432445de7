#pragma once
// What a green covered: the verdict on one check run from its evidence (the
// JUnit artifacts and the outcome config it ran under), never from the
// downstream repository's own claim alone (DOMAIN.md, "What a green is
// allowed to mean").
//
// The verdict rules, first match wins:
//  1. status not completed: Stale when still in_progress past
//     kStaleAfterSeconds (a zombie the relay's sweeper missed), else Pending.
//  2. conclusion failure or timed_out: Red, with the artifacts' counts when
//     there are any (else the self-reported ones). cancelled, skipped,
//     neutral or none: Inconclusive.
//  3. conclusion success (a self-reported green):
//     a. no stored test results (none fetched, expired, no reports,
//        unauthorised, failed): GreenUnverifiable.
//     b. the artifacts contradict the claim (a test failed, errored or
//        strictly xpassed; the self-reported counts differ from the
//        artifacts'; the tested SHA is not the dispatched one): GreenDisputed.
//     c. no config, or one that does not parse or has errors:
//        GreenUnverifiable.
//     d. the config contradicts the claim (a mandatory_success test did not
//        pass, an xfail_strict test passed): GreenDisputed.
//     e. tests ran that the config cannot account for (no files entry, a
//        variant it drops, a test it skips or leaves to unlisted_test_mode
//        skip, an xfail test the job's pytest selection deselects):
//        GreenUnverifiable: it may not be the config the run used.
//     f. mandatory_success names or patterns with no case that ran (absent
//        or only skipped), or the executed set shrank past the threshold
//        against the previous run without a known config change:
//        GreenIncomplete. Listings the job's pytest selection deselects
//        (`-m "not xfail"`: every xfail and xfail_strict one) are "deselected
//        by the job", never missing; with the selection unknown, the reasons
//        say so.
//     g. otherwise VerifiedGreen.
// So VerifiedGreen always has stored artifacts and a parsed, error-free
// config, and every check passed or could not be checked for want of input
// (tested SHA or previous run unknown); such a check is listed as such.
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/pytest_selection.h"
#include "relayhud/config/resolver.h"
#include "relayhud/model/test_results.h"
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::verdict {

class ResolutionMemo;

enum class Verdict : std::uint8_t {
    VerifiedGreen,
    GreenIncomplete,
    GreenUnverifiable,
    GreenDisputed,
    Red,
    Inconclusive, // cancelled, skipped, neutral
    Pending,      // queued or in_progress
    Stale,        // in_progress long past kStaleAfterSeconds
};
// "verified green", "green, incomplete", "green, unverifiable", ...
const char* verdictName(Verdict verdict);
// A self-reported green that is not verified.
bool isUnverifiedGreen(Verdict verdict);

// The config's modes, plus the tests no entry lists (decided by the file's
// unlisted_test_mode).
enum class Bucket : std::uint8_t { MandatorySuccess, Xfail, XfailStrict, Skip, Unlisted };
inline constexpr std::size_t kBucketCount = 5;
const char* bucketName(Bucket bucket); // "mandatory_success", ..., "unlisted"

struct BucketCounts {
    std::int64_t declared = 0; // names and patterns the config lists in this mode (unlisted: 0)
    std::int64_t ran = 0;      // report cases decided into this bucket
    std::int64_t missing = 0;  // declared names and patterns no case ran for
    // Declared names and patterns no case ran for because the job's pytest
    // selection deselects them (`-m "not xfail"`): not missing.
    std::int64_t deselected = 0;
    std::int64_t unexpected = 0; // cases whose outcome the mode does not expect
                                 // (config_coverage.cpp says what each expects)
};

// A declared name or pattern without a case that ran.
struct MissingTest {
    std::string name;     // as the config writes it: base name or pattern
    std::string file;     // the files entry's path
    std::size_t line = 0; // of the name in the config
    bool skipped = false; // the report has cases for it, all skipped
};

// A case the config cannot account for, and why.
struct UnknownTest {
    std::string identity;
    std::string why;
};

// A listing (one name of an entry) and the cases it decided: how a regex
// entry explains the tests it matched.
struct ListingUse {
    std::string name;     // as the config writes it
    std::string file;     // the files entry's path
    std::size_t line = 0; // of the name
    bool regex = false;
    std::string mode;                  // the entry's mode
    std::int64_t cases = 0;            // cases it decided
    std::int64_t passed = 0;           // of those, passed (an xfail's XPASS included)
    std::vector<std::string> examples; // up to three identities
};

// The declared set against what ran. Lists hold report identities.
struct ConfigCoverage {
    std::array<BucketCounts, kBucketCount> buckets{};
    std::vector<MissingTest> mandatoryNotRun;
    // The job's pytest selection the coverage was judged under (none: not
    // read, judged as if every test were selected).
    std::optional<config::PytestSelection> selection;
    // xfail and xfail_strict listings not run that the selection deselects.
    // (A mandatory_success listing stays "not run": which variants force_xfail
    // turns into xfail depends on the test's ops and dtypes, which the config
    // alone does not say.)
    std::vector<MissingTest> deselected;
    // xfail and xfail_strict listings that did not run while the selection
    // is unknown: missing or deselected, nobody can tell.
    std::int64_t xfailNotRunSelectionUnknown = 0;
    std::vector<std::string> mandatoryNotPassed; // failed, error, xfailed or xpass-strict
    std::vector<std::string> strictXpassed;      // xfail_strict tests that passed
    std::vector<std::string> unlistedRan;        // decided by unlisted_test_mode
    std::vector<UnknownTest> unknown;
    // The listings that decided the cases: regexes first, then by cases.
    std::vector<ListingUse> decidedBy;

    const BucketCounts& bucket(Bucket b) const { return buckets[static_cast<std::size_t>(b)]; }
};

struct OutcomeTally {
    std::int64_t ran = 0; // every case but pytest.skip ones
    std::int64_t passed = 0;
    std::int64_t failed = 0; // failed, error, xpass-strict
};

struct NamedTally {
    std::string name;
    OutcomeTally tally;
    bool supported = false; // in the config's supported_ops / supported_dtypes
};

struct OpDtypeCell {
    std::string op;
    std::string dtype; // "" for cases with an op mark and no dtype mark
    OutcomeTally tally;
};

// Op x dtype coverage from the marks (op__add, dtype__float16). Sorted by name.
struct OpDtypeCoverage {
    std::vector<NamedTally> ops;
    std::vector<NamedTally> dtypes;
    std::vector<OpDtypeCell> cells;
    std::int64_t unmarkedCases = 0;       // cases with neither mark
    bool hasSupportedLists = false;       // a config gave supported_ops or supported_dtypes
    std::vector<std::string> opsNeverRan; // supported, no case ran
    std::vector<std::string> dtypesNeverRan;
    std::vector<std::string> opsNotSupported; // ran, not in supported_ops (when it has one)
    std::vector<std::string> dtypesNotSupported;
};

enum class CheckKind : std::uint8_t { Artifacts, Config, TestedSha, Counts, ExecutedSet, NotStale };
enum class CheckState : std::uint8_t { Pass, Fail, NotCheckable };
const char* checkKindName(CheckKind kind);    // "artifacts", "config", "tested SHA", ...
const char* checkStateName(CheckState state); // "pass", "FAIL", "not checkable"

struct ConsistencyCheck {
    CheckKind kind = CheckKind::Artifacts;
    CheckState state = CheckState::NotCheckable;
    std::string sentence; // what was compared, with the figures
};

// The outcome config a run ran under, or why there is none.
struct RunConfig {
    std::string source; // the path, for sentences; "" when none is configured
    // Shared, with its Resolver built once: a RunConfig is copied into every
    // run's VerdictInput, and coverage resolves each result against it. Both
    // pointers own the same block; null when there is no config.
    std::shared_ptr<const config::OutcomeConfig> config;
    std::shared_ptr<const config::Resolver> resolver;
    // What coverage resolved already, by test: the runs of one backend repeat
    // their tests (verdict/resolution_memo.h).
    std::shared_ptr<ResolutionMemo> memo;
    std::string error; // set when the file could not be read or does not parse cleanly
    // The framework the runs used, when known (config/framework_age.h); the
    // resolver decides as that framework did (ops.exclude, labels).
    config::ResolveContext context;

    // Holds `parsed` (and a Resolver on it) from now on.
    void set(config::OutcomeConfig parsed);
};

// Reads and parses `path`; a config with error findings counts as one that
// does not parse (its first error is the message).
RunConfig loadRunConfig(const std::string& path);

struct VerdictInput {
    CheckRun run;
    std::optional<TestRunInfo> testRun; // none: artifacts never fetched
    RunConfig config;
    std::optional<Sha> testedSha; // what the run says it tested, when known
    // The job's own pytest selection, from its log or workflow
    // (config/pytest_selection.h); none: not read.
    std::optional<config::PytestSelection> selection;
    // Executed cases of the previous run of the same job (previous SHA).
    std::optional<std::int64_t> previousExecuted;
    std::optional<bool> configChanged; // since that run; none: unknown
    double shrinkThreshold = 0.10;     // the share the executed set may shrink by
    EpochSeconds now = 0;
};

struct RunVerdict {
    CheckRun run;
    CheckRunRow checkRunRow; // set by verdictForRun
    Verdict verdict = Verdict::GreenUnverifiable;
    std::vector<std::string> reasons;
    // An unverified green's verdict reason (the first of `reasons`) in a few
    // words, the same for every job it applies to ("no outcome config",
    // "mandatory tests did not run"), so a report can count jobs by it. ""
    // for a verified green and every other verdict.
    std::string shortReason;
    std::vector<ConsistencyCheck> checks;
    std::optional<TestRunInfo> testRun;
    std::int64_t executed = 0; // cases in the artifacts that were not pytest.skip'ped
    // Set when there are stored results and a parsed config.
    std::optional<ConfigCoverage> configCoverage;
    OpDtypeCoverage coverage;
};

// `results` are the stored results of input.testRun (empty unless Stored).
RunVerdict computeVerdict(const VerdictInput& input, const std::vector<StoredTestResult>& results);

// The declared set against what ran. Exposed for the views and the tests.
ConfigCoverage configCoverage(const config::OutcomeConfig& config,
                              const std::vector<StoredTestResult>& results,
                              const config::ResolveContext& context = {},
                              const std::optional<config::PytestSelection>& selection = {});
// The same on a loaded config (with its Resolver and memo); `config.config`
// must be set.
ConfigCoverage configCoverage(const RunConfig& config, const std::vector<StoredTestResult>& results,
                              const std::optional<config::PytestSelection>& selection = {});
// `config` may be null (no supported lists to compare with).
OpDtypeCoverage opDtypeCoverage(const config::OutcomeConfig* config,
                                const std::vector<StoredTestResult>& results);

// Where verdictForRun finds what the cache does not hold.
struct VerdictSources {
    std::map<std::string, std::string> configByRepo; // "org/repo" -> config file path
    // Configs already read (loadRunConfig), by repo: used instead of reading
    // configByRepo's file again, so judging many runs parses each file once.
    std::map<std::string, RunConfig> loadedConfigs;
    // The jobs' pytest selection, by repo ("org/repo"), read from a job log
    // or the workflow file (config/pytest_selection.h).
    std::map<std::string, config::PytestSelection> selectionByRepo;
    // The framework the runs used, when known: the configs resolve as it did.
    std::optional<config::FrameworkDate> frameworkAsOf;
    double shrinkThreshold = 0.10;
    EpochSeconds now = 0; // 0: the current time
};

// Everything for one check run (Database row id) in one call: the run, its test
// results, the config of its backend, and the previous run of the same job
// (an older SHA's run with results) for the executed-set check.
Result<RunVerdict> verdictForRun(const Database& cache, CheckRunRow checkRunRow,
                                 const VerdictSources& sources);

} // namespace relayhud::verdict
