// The merge-gating section of the Markdown report: two lines a reviewer
// reads (the merge bot's decision, Dr. CI's listing), then folded: the
// notes, the check runs and rows behind them, and the rule with its sources.
#include "report_gating.h"

#include "relayhud/verdict/report.h"

namespace relayhud::verdict {
namespace {

constexpr std::size_t kGatingCellBytes = 512;

std::string gatingText(std::string_view text)
{
    return escapeMarkdown(clipUtf8(text, kGatingCellBytes));
}
std::string gatingCode(std::string_view text)
{
    return markdownCode(clipUtf8(text, kGatingCellBytes));
}

std::string levelCell(const JudgedLevel& l)
{
    if (l.level == Level::Unknown)
        return l.source == LevelSource::AllowlistNow ? "below L2 now" : "unknown";
    return std::string(toString(l.level)) + " (" + levelSourceName(l.source) + ")";
}

std::string stateCell(const CheckRun& run)
{
    if (run.reported.status != RunStatus::Completed)
        return gatingText(std::string(toString(run.reported.status)));
    return gatingText(run.reported.conclusionText.empty()
                          ? std::string(toString(run.reported.conclusion))
                          : run.reported.conclusionText);
}

layout::Table botTable(const MergeGating& g)
{
    layout::Table t;
    t.summary = "The head's CRCR check runs as the merge bot reads them ("
                + std::to_string(g.bot.checks.size()) + ")";
    t.alwaysFolded = true;
    t.head = "| Check run | Attempt | Level | State | Merge bot |\n|---|---|---|---|---|\n";
    for (const BotCheck& c : g.bot.checks)
        t.rows.push_back("| " + gatingCode(c.name) + " | " + std::to_string(c.run.runAttempt)
                         + " | " + levelCell(c.level) + " | " + stateCell(c.run) + " | "
                         + (c.blocks ? "⛔ blocks" : "does not block") + " |\n");
    return t;
}

layout::Table drciTable(const MergeGating& g)
{
    layout::Table t;
    t.summary = "The CRCR rows Dr. CI lists (" + std::to_string(g.drci.rows.size()) + ")";
    t.alwaysFolded = true;
    t.head = "| Job | SHA | Attempt | Level | Listed as |\n|---|---|---|---|---|\n";
    for (const DrciRow& r : g.drci.rows) {
        std::string sha = gatingText(r.run.upstreamSha.shortSha());
        if (r.earlierHead)
            sha += " (earlier head)";
        std::string attempt = std::to_string(r.run.runAttempt);
        if (r.superseded)
            attempt += " (rerun since)";
        t.rows.push_back("| " + gatingCode(r.name) + " | " + sha + " | " + attempt + " | "
                         + levelCell(r.level) + " | " + gatingText(drciSectionName(r.section))
                         + " |\n");
    }
    return t;
}

} // namespace

// What a reviewer reads (the bot's decision, Dr. CI's listing, and which
// head the bot reads) stays open; the notes, the rows and the rule behind
// them are one fold.
void writeGatingSection(layout::Document& doc, const MergeGating& g, const Sha& sha)
{
    std::string text = "### Merge gating (#" + std::to_string(g.prNumber.value) + ")\n";
    text += "- **Merge bot**: " + std::string(g.bot.blocks ? "⛔ " : "") + gatingText(g.bot.summary)
            + "\n";
    text += "- **Dr. CI** " + gatingText(g.drci.summary) + "\n";
    if (sha != g.head)
        text += "- This report's SHA " + gatingText(sha.shortSha())
                + " is an earlier head: the bot reads " + gatingText(g.head.shortSha()) + "\n";
    doc.text(text + "\n<details><summary>How the merge bot and Dr. CI read it</summary>\n\n");
    std::string notes;
    for (const std::string& note : g.notes)
        notes += "- " + gatingText(note) + "\n";
    if (!notes.empty())
        doc.text(notes + "\n");
    if (!g.bot.checks.empty())
        doc.table(botTable(g));
    if (!g.drci.rows.empty())
        doc.table(drciTable(g));
    doc.text("<sub>" + escapeMarkdown(mergeGatingRuleText()) // ours: not clipped
             + "</sub>\n\n</details>\n\n");
}

} // namespace relayhud::verdict
