// The merge bot's and Dr. CI's rules over a PR's HUD rows (merge_gating.h has
// the rules and their sources).
#include "relayhud/verdict/merge_gating.h"

#include "relayhud/store/run_store.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace relayhud::verdict {
namespace {

std::string levelText(const JudgedLevel& l)
{
    if (l.level == Level::Unknown && l.source == LevelSource::AllowlistNow)
        return "not at L2+ in the allowlist now";
    return std::string(l.level == Level::Unknown ? "level unknown" : toString(l.level)) + " ("
           + levelSourceName(l.source) + ")";
}

JudgedLevel judgedLevel(const CheckRun& run, const std::map<std::string, Level>& allowlist)
{
    if (run.trusted.levelAtDispatch && run.trusted.level != Level::Unknown)
        return {run.trusted.level, LevelSource::AtDispatch};
    if (const auto it = allowlist.find(run.downstreamRepo); it != allowlist.end())
        return {it->second, LevelSource::AllowlistNow};
    if (run.trusted.level != Level::Unknown) // the cache's fallback: the backend's level
        return {run.trusted.level, LevelSource::AllowlistNow};
    return {};
}

RunRank rankOf(const CheckRun& run) { return {run.runAttempt, run.reported.startedAt, 0}; }

// The newest row of each check-run name on `sha`: a callback creates a new
// check run and GitHub's filter=latest shows the newest of a name.
std::map<std::string, const CheckRun*> newestByName(const std::vector<CheckRun>& runs,
                                                    const Sha& sha)
{
    std::map<std::string, const CheckRun*> out;
    for (const CheckRun& run : runs) {
        // Only a PR callback carries pull_request.head.sha, which the relay
        // needs to create a check run (callback_handler.py L371-374).
        if (run.upstreamSha != sha || run.eventType != EventType::PullRequest)
            continue;
        const CheckRun*& kept = out[crcrCheckRunName(run)];
        if (!kept || isNewerRun(rankOf(run), rankOf(*kept)))
            kept = &run;
    }
    return out;
}

BotCheck botCheck(const std::string& name, const CheckRun& run, const MergeGatingFacts& facts)
{
    BotCheck c{name, run.downstreamRepo, run, judgedLevel(run, facts.allowlistLevels), false, {}};
    const bool failure = run.reported.conclusion == Conclusion::Failure;
    const bool pending = run.reported.status != RunStatus::Completed;
    const std::string state =
        pending ? "not completed (" + std::string(toString(run.reported.status)) + ")"
                : std::string(run.reported.conclusionText.empty()
                                  ? toString(run.reported.conclusion)
                                  : std::string_view(run.reported.conclusionText));
    switch (c.level.level) {
    case Level::L4:
        c.blocks = failure || pending;
        c.reason = levelText(c.level) + ", " + state
                   + (c.blocks ? ": blocks" : ": does not block (only failure or pending blocks)");
        break;
    default: c.reason = levelText(c.level) + ", " + state + ": L3 never blocks"; break;
    }
    return c;
}

MergeBotJudgement judgeBot(const MergeGatingFacts& facts)
{
    MergeBotJudgement out;
    for (const auto& [name, run] : newestByName(facts.runs, facts.head)) {
        const Level level = judgedLevel(*run, facts.allowlistLevels).level;
        if (level == Level::L3 || level == Level::L4)
            out.checks.push_back(botCheck(name, *run, facts));
        else
            ++out.withoutCheckRun;
    }
    std::stable_sort(out.checks.begin(), out.checks.end(),
                     [](const BotCheck& a, const BotCheck& b) { return a.blocks > b.blocks; });
    std::set<std::string> blocking;
    for (const BotCheck& c : out.checks)
        if (c.blocks)
            blocking.insert(c.repo);
    const std::string head =
        "#" + std::to_string(facts.prNumber.value) + " (head " + facts.head.shortSha() + ")";
    if (facts.upstreamRepo != "pytorch/pytorch")
        out.summary = "the merge bot checks CRCR runs on pytorch/pytorch only: " + head + " is on "
                      + facts.upstreamRepo;
    else if (facts.force)
        out.summary = "merge -f bypasses the CRCR check: nothing blocks " + head;
    else if (!facts.checkRunsListed)
        out.summary = "the bot could not list the head's check runs and fails open: nothing "
                      "blocks "
                      + head;
    else if (!facts.allowlistLoaded && !out.checks.empty())
        out.summary = "the bot could not load the allowlist and fails open: nothing blocks " + head;
    else if (!blocking.empty()) {
        out.blocks = true;
        out.blockingRepos.assign(blocking.begin(), blocking.end());
        std::string repos;
        for (const std::string& r : out.blockingRepos)
            repos += (repos.empty() ? "" : ", ") + r;
        out.summary = "blocks the merge of " + head + ": L4 " + repos + " failed or still running";
    } else if (out.checks.empty())
        out.summary = "no L3 or L4 CRCR check run on " + head + ": nothing blocks";
    else
        out.summary = "nothing blocks " + head + ": no L4 check run failed or is pending";
    return out;
}

bool drciFailing(const CheckRun& run)
{
    const Conclusion c = run.reported.conclusion;
    return run.reported.status == RunStatus::Completed
           && (c == Conclusion::Failure || c == Conclusion::Cancelled || c == Conclusion::TimedOut);
}

DrciListing listDrci(const MergeGatingFacts& facts)
{
    DrciListing out;
    for (const CheckRun& run : facts.runs) {
        if (run.prNumber != facts.prNumber || run.upstreamRepo != facts.upstreamRepo
            || !drciFailing(run))
            continue;
        const JudgedLevel level = judgedLevel(run, facts.allowlistLevels);
        DrciRow row{crcrCheckRunName(run),         run,  level, DrciSection::NonBlocking,
                    run.upstreamSha != facts.head, false};
        if (level.level == Level::L3)
            row.section = DrciSection::NonBlocking;
        else if (level.level == Level::L4)
            row.section = run.reported.conclusion == Conclusion::Cancelled
                              ? DrciSection::Cancelled
                              : DrciSection::NewFailure;
        else {
            ++out.ignored;
            continue;
        }
        for (const CheckRun& other : facts.runs)
            if (&other != &run && other.upstreamSha == run.upstreamSha
                && crcrCheckRunName(other) == row.name && isNewerRun(rankOf(other), rankOf(run)))
                row.superseded = true;
        out.rows.push_back(std::move(row));
    }
    std::sort(out.rows.begin(), out.rows.end(), [](const DrciRow& a, const DrciRow& b) {
        return std::tie(a.section, a.name, a.earlierHead, a.run.upstreamSha.value, a.run.runAttempt)
               < std::tie(b.section, b.name, b.earlierHead, b.run.upstreamSha.value,
                          b.run.runAttempt);
    });
    const int failures = out.count(DrciSection::NewFailure);
    const int cancelled = out.count(DrciSection::Cancelled);
    const int nonBlocking = out.count(DrciSection::NonBlocking);
    const auto earlier = std::count_if(out.rows.begin(), out.rows.end(),
                                       [](const DrciRow& r) { return r.earlierHead; });
    if (out.rows.empty())
        out.summary = "lists no CRCR job";
    else
        out.summary = "lists " + std::to_string(failures) + " CRCR failure"
                      + (failures == 1 ? "" : "s") + " (L4), " + std::to_string(cancelled)
                      + " cancelled (L4), " + std::to_string(nonBlocking) + " non-blocking (L3)"
                      + (earlier ? ", " + std::to_string(earlier) + " of them from earlier heads"
                                 : std::string());
    if (out.ignored > 0)
        out.summary += "; " + std::to_string(out.ignored) + " failing row"
                       + (out.ignored == 1 ? "" : "s") + " below L3 ignored";
    return out;
}

// Where the level RelayHUD judges by differs from what the bot would read:
// the bot classifies by the allowlist at merge time.
std::vector<std::string> levelNotes(const MergeGatingFacts& facts)
{
    std::set<std::string> out;
    for (const CheckRun& run : facts.runs) {
        if (!run.trusted.levelAtDispatch)
            continue;
        const auto it = facts.allowlistLevels.find(run.downstreamRepo);
        const Level now = it == facts.allowlistLevels.end() ? Level::Unknown : it->second;
        if (now != run.trusted.level)
            out.insert(
                run.downstreamRepo + " was " + std::string(toString(run.trusted.level))
                + " at dispatch and is "
                + (now == Level::Unknown ? std::string("not listed") : std::string(toString(now)))
                + " in the allowlist now; the merge bot reads the allowlist at merge time");
    }
    return {out.begin(), out.end()};
}

} // namespace

const char* levelSourceName(LevelSource source)
{
    switch (source) {
    case LevelSource::AtDispatch: return "verified at dispatch";
    case LevelSource::AllowlistNow: return "allowlist now";
    case LevelSource::Unknown: return "not known";
    }
    return "?";
}

const char* drciSectionName(DrciSection section)
{
    switch (section) {
    case DrciSection::NewFailure: return "failure";
    case DrciSection::Cancelled: return "cancelled";
    case DrciSection::NonBlocking: return "CRCR (non-blocking)";
    }
    return "?";
}

std::string crcrCheckRunName(const CheckRun& run)
{
    return "crcr/" + run.downstreamRepo + "/" + run.workflow + "/"
           + (run.jobName.empty() ? run.workflow : run.jobName);
}

int DrciListing::count(DrciSection section) const
{
    return static_cast<int>(std::count_if(rows.begin(), rows.end(),
                                          [&](const DrciRow& r) { return r.section == section; }));
}

MergeGating judgeMergeGating(const MergeGatingFacts& facts)
{
    MergeGating out;
    out.prNumber = facts.prNumber;
    out.head = facts.head;
    out.bot = judgeBot(facts);
    out.drci = listDrci(facts);
    out.notes = levelNotes(facts);
    if (std::any_of(out.bot.checks.begin(), out.bot.checks.end(),
                    [](const BotCheck& c) { return c.level.level == Level::L3; }))
        out.notes.push_back("an L3 row has a check run only when the PR carries its "
                            "ciflow/crcr/<device> label (not in the HUD's data); it never blocks "
                            "either way");
    out.notes.push_back("the bot reads the PR's current head; RelayHUD knows the newest head the "
                        "HUD has rows for ("
                        + facts.head.shortSha() + ")");
    return out;
}

const char* mergeGatingRuleText()
{
    return "Merge bot (pytorch/test-infra torchci/lib/bot/pytorchBotHandler.ts L686-759 "
           "@61a77570): "
           "on pytorch/pytorch without -f, the newest check run of each "
           "crcr/<repo>/<workflow>/<job> "
           "name on the PR head blocks when the repo is L4 and its conclusion is failure or its "
           "status is not completed; cancelled and timed_out do not block, L3 never blocks, and "
           "the bot fails open when it cannot read the check runs or the allowlist. Dr. CI "
           "(torchci/pages/api/drci/drci.ts L296-320, L804-830, L1060-1065): every completed "
           "failure, cancelled or timed_out row of the PR, on all its heads; L3 listed as "
           "\"CRCR (non-blocking)\", L4 as failures (cancelled as cancelled), L2 ignored. A row's "
           "level is the one the relay verified at dispatch where the HUD says it "
           "(crcr_hud_results), else the allowlist's now.";
}

} // namespace relayhud::verdict

// --- Gather: the facts from the cache (the only I/O here) ---

namespace relayhud::verdict {

Result<MergeGatingFacts> gatherMergeGating(const Database& cache, PrNumber prNumber)
{
    MergeGatingFacts facts;
    facts.prNumber = prNumber;
    auto runs = RunStore(cache).checkRunsForPr(prNumber);
    if (!runs)
        return runs.error();
    if (runs->empty())
        return makeError("PR #" + std::to_string(prNumber.value) + " has no runs in the cache");
    facts.runs = std::move(*runs);
    facts.head = facts.runs.front().upstreamSha; // newest head first (RunStore::checkRunsForPr)
    facts.upstreamRepo = facts.runs.front().upstreamRepo;
    auto backends = RunStore(cache).backends();
    if (!backends)
        return backends.error();
    // A repo not at L2+ in the allowlist now (found through crcr_summary)
    // keeps the level its rows reported: the allowlist's is below L2 or none.
    for (const Backend& b : *backends)
        facts.allowlistLevels.emplace(b.repo, b.allowlisted ? b.level : Level::Unknown);
    return facts;
}

} // namespace relayhud::verdict
