#pragma once
// Merge gating for reviewers (issue 34, part 8): for one upstream PR, what
// the merge bot would decide about its CRCR check runs, and what Dr. CI would
// list. Gather, then decide: judgeMergeGating() takes plain facts (the PR's
// HUD rows, the allowlist levels, the bot's context) and returns a judgement
// with reasons; gatherMergeGating() reads those facts from the cache.
//
// The rules, from pytorch/test-infra @61a77570f45416dc425c17d4a648376541a84732
// (../shared/specs/real-backends.md section 5):
//
// Merge bot (torchci/lib/bot/pytorchBotHandler.ts L340-354, L686-759): only
// for pytorch/pytorch and without `-f`. It lists the check runs of the PR's
// head SHA (checks.listForRef, filter=latest: the newest check run of each
// name), keeps the names starting `crcr/`, takes the downstream owner/repo
// from the name (torchci/lib/bot/crcrOncallBot.ts L22-32) and blocks when the
// repo is L4 (torchci/lib/crcrAllowlist.ts L60-64, isBlocking) and the check
// run's conclusion is `failure` or its status is not `completed`. cancelled
// and timed_out do not block; L3 never blocks. When the check runs or the
// allowlist cannot be read it fails open (no block).
// Check runs exist only for L3+ PR callbacks that carry the PR head (L4
// always, L3 with its ciflow/crcr/<device> label), one per callback, named
// crcr/<repo>/<workflow>/<job> (aws/lambda/cross_repo_ci_relay/callback/
// callback_handler.py L194-252, L365-414; utils/gh_helper.py L14-16): a
// HUD row stands for the check run of its name, the newest row winning.
//
// Dr. CI (torchci/pages/api/drci/drci.ts L296-320, L804-830, L1060-1065;
// torchci/lib/fetchRecentWorkflows.ts L16-60): every completed row of the PR
// (every head, every attempt: no head-SHA filter) with conclusion failure,
// cancelled or timed_out, named crcr/<repo>/<workflow>/<job>. By the row's
// downstream_repo_level: L3 rows are listed under "CRCR (non-blocking)"; L4
// rows join the failed jobs (cancelled ones shown as cancelled); other
// levels are ignored. Its flaky / broken-trunk classification is not applied
// to them.
#include "relayhud/model/types.h"
#include "relayhud/util/result.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace relayhud {
class Database;
}

namespace relayhud::verdict {

// Which level a row is judged at: the level the relay verified when it
// dispatched the run (crcr_hud_results; hud-read-api.md R7), else the
// backend's allowlist level now.
enum class LevelSource : std::uint8_t { AtDispatch, AllowlistNow, Unknown };
const char* levelSourceName(LevelSource source); // "verified at dispatch", "allowlist now", ...

struct JudgedLevel {
    Level level = Level::Unknown;
    LevelSource source = LevelSource::Unknown;
};

// The check run a row stands for: crcr/<downstream repo>/<workflow>/<job>
// (gh_helper.check_run_name; Dr. CI names a row without a job by its workflow).
std::string crcrCheckRunName(const CheckRun& run);

struct MergeGatingFacts {
    PrNumber prNumber;
    std::string upstreamRepo = "pytorch/pytorch";
    Sha head; // the PR's head: the bot reads the check runs of this SHA only
    // Every attempt of every run of the PR, on all its heads.
    std::vector<CheckRun> runs;
    // The allowlist now, by downstream repo (absent: not listed).
    std::map<std::string, Level> allowlistLevels;
    // The bot's context: `@pytorchbot merge -f`, and whether it could read
    // the check runs and the allowlist (it fails open when not).
    bool force = false;
    bool checkRunsListed = true;
    bool allowlistLoaded = true;
};

// One check run of the head SHA as the merge bot would see it. Only rows at
// L3 or L4 stand for one: below L3 the relay creates none
// (callback_handler.py L370: repo_level >= L3).
struct BotCheck {
    std::string name; // crcr/<repo>/<workflow>/<job>
    std::string repo;
    CheckRun run; // the newest row of that name on the head
    JudgedLevel level;
    bool blocks = false;
    std::string reason; // "L4, failure: blocks", "L3: never blocks", ...
};

struct MergeBotJudgement {
    bool blocks = false;
    std::vector<std::string> blockingRepos; // sorted, each once, as the bot's comment lists them
    std::vector<BotCheck> checks;           // L3 and L4 rows: blocking first, then by name
    int withoutCheckRun = 0; // head rows below L3 (or of no known level): no check run
    std::string summary;     // one sentence
};

enum class DrciSection : std::uint8_t {
    NewFailure, // L4 failure or timed_out: among the failed jobs
    Cancelled,  // L4 cancelled: the cancelled jobs
    NonBlocking // L3: "CRCR (non-blocking)", counted among the unrelated failures
};
const char* drciSectionName(DrciSection section);

struct DrciRow {
    std::string name; // crcr/<repo>/<workflow>/<job>
    CheckRun run;
    JudgedLevel level;
    DrciSection section = DrciSection::NonBlocking;
    bool earlierHead = false; // on an earlier head of the PR, not its head
    bool superseded = false;  // a newer attempt of the same job on the same SHA exists
};

struct DrciListing {
    std::vector<DrciRow> rows; // by section, then name, then SHA and attempt
    int ignored = 0;           // failing rows at L2 or below, or of an unknown level
    std::string summary;       // "lists 1 CRCR failure (L4), ...": follows "Dr. CI"
    int count(DrciSection section) const;
};

struct MergeGating {
    PrNumber prNumber;
    Sha head;
    MergeBotJudgement bot;
    DrciListing drci;
    std::vector<std::string> notes; // level disagreements, what RelayHUD cannot see
};

// The judgement: no I/O.
MergeGating judgeMergeGating(const MergeGatingFacts& facts);

// The rule in one paragraph with its sources, for tooltips and footnotes.
const char* mergeGatingRuleText();

// The facts of PR `prNumber` from the cache: every attempt of its runs, its
// newest head (by the commit's first activity), the allowlist levels.
Result<MergeGatingFacts> gatherMergeGating(const Database& cache, PrNumber prNumber);

} // namespace relayhud::verdict
