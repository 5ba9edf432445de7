#include "relayhud/team/team_sync.h"

#include "relayhud/store/team_store.h"
#include "relayhud/team/team_row.h"
#include "relayhud/team/team_server.h"
#include "relayhud/util/time.h"

#include <algorithm>
#include <utility>

namespace relayhud::team {
namespace {

void add(TeamApplyReport& total, TeamApplyReport&& page)
{
    total.pulled += page.pulled;
    total.applied += page.applied;
    total.own += page.own;
    total.skips += page.skips;
    for (TeamConflict& c : page.conflicts)
        total.conflicts.push_back(std::move(c));
    for (TriageTarget& t : page.changedTargets)
        total.changedTargets.push_back(std::move(t));
    for (std::string& author : page.authors)
        if (std::find(total.authors.begin(), total.authors.end(), author) == total.authors.end())
            total.authors.push_back(std::move(author));
}

// The changes the server would take. One it would refuse (schema 3's
// limits, which every pull applies too) is never sent and leaves the outbox
// (marked sent: resending it could only fail again, and would hold up
// every change behind it); the first one's reason is kept for the user.
struct Outgoing {
    std::vector<TeamChange> sendable;
    std::vector<std::string> refused; // change ids
};

Outgoing splitSendable(std::vector<TeamChange> outbox, TeamSyncReport& report)
{
    Outgoing out;
    out.sendable.reserve(outbox.size());
    const std::int64_t nowMs = nowMilliseconds();
    for (TeamChange& c : outbox) {
        std::string why = teamChangeProblem(c, nowMs);
        if (why.empty()) {
            out.sendable.push_back(std::move(c));
            continue;
        }
        ++report.unsendable;
        if (report.unsendableWhy.empty())
            report.unsendableWhy = std::move(why);
        out.refused.push_back(c.changeId);
    }
    return out;
}

Result<TeamSyncReport> run(Database& cache, TeamServer& server, const TeamSyncOptions& options)
{
    TeamSyncReport report;
    report.user = server.user();
    report.where = server.where();
    auto teamId = server.teamId();
    if (!teamId)
        return teamId.error();
    if (auto joined = TeamStore(cache).joinTeam(*teamId, report.where); !joined)
        return joined.error();
    for (;;) {
        auto outbox = TeamStore(cache).teamOutbox(options.pushBatch);
        if (!outbox)
            return outbox.error();
        if (outbox->empty())
            break;
        Outgoing outgoing = splitSendable(std::move(*outbox), report);
        if (auto r = server.push(outgoing.sendable); !r)
            return r.error();
        std::vector<std::string>& ids = outgoing.refused;
        for (const TeamChange& c : outgoing.sendable)
            ids.push_back(c.changeId);
        if (auto r = TeamStore(cache).markTeamSent(ids); !r)
            return r.error();
        report.pushed += outgoing.sendable.size();
    }
    auto status = TeamStore(cache).teamStatus();
    if (!status)
        return status.error();
    report.lastSeq = status->lastSeq;
    for (;;) {
        auto page = server.pull(report.lastSeq, options.pullPage);
        if (!page)
            return page.error();
        if (page->rows == 0)
            break;
        auto applied = TeamStore(cache).applyTeamChanges(page->changes, page->lastSeq,
                                                         nowMilliseconds(), page->skips);
        if (!applied)
            return applied.error();
        add(report.pulled, std::move(*applied));
        report.lastSeq = page->lastSeq;
    }
    auto forged = server.forgedRows();
    if (!forged)
        return forged.error();
    report.forgedRows = *forged;
    report.pulled.skips.add(TeamSkip::ForgedSeq, static_cast<std::size_t>(*forged));
    return report;
}

} // namespace

Result<TeamSyncReport> syncTeam(Database& cache, TeamServer& server, const TeamSyncOptions& options)
{
    auto report = run(cache, server, options);
    // What `team status` says next; a failure to note it never hides the
    // sync's own result.
    (void)TeamStore(cache).setTeamSyncResult(
        nowMilliseconds(), report ? server.where() : std::string(),
        report ? std::string() : report.message(), report ? report->forgedRows : -1);
    return report;
}

std::string describeLastSync(std::int64_t lastSyncMs)
{
    if (lastSyncMs <= 0)
        return "never";
    return formatIso(lastSyncMs / 1000);
}

} // namespace relayhud::team
