#include "relayhud/team/team_sync.h"

#include "relayhud/store/cache.h"
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
    total.skipped += page.skipped;
    for (TeamConflict& c : page.conflicts)
        total.conflicts.push_back(std::move(c));
    for (TriageTarget& t : page.changedTargets)
        total.changedTargets.push_back(std::move(t));
    for (std::string& author : page.authors)
        if (std::find(total.authors.begin(), total.authors.end(), author) == total.authors.end())
            total.authors.push_back(std::move(author));
}

Result<TeamSyncReport> run(Cache& cache, TeamServer& server, const TeamSyncOptions& options)
{
    TeamSyncReport report;
    report.user = server.user();
    report.where = server.where();
    auto teamId = server.teamId();
    if (!teamId)
        return teamId.error();
    if (auto joined = cache.joinTeam(*teamId, report.where); !joined)
        return joined.error();
    for (;;) {
        auto outbox = cache.teamOutbox(options.pushBatch);
        if (!outbox)
            return outbox.error();
        if (outbox->empty())
            break;
        if (auto r = server.push(*outbox); !r)
            return r.error();
        std::vector<std::string> ids;
        ids.reserve(outbox->size());
        for (const TeamChange& c : *outbox)
            ids.push_back(c.changeId);
        if (auto r = cache.markTeamSent(ids); !r)
            return r.error();
        report.pushed += outbox->size();
    }
    auto status = cache.teamStatus();
    if (!status)
        return status.error();
    report.lastSeq = status->lastSeq;
    for (;;) {
        auto page = server.pull(report.lastSeq, options.pullPage);
        if (!page)
            return page.error();
        if (page->rows == 0)
            break;
        auto applied = cache.applyTeamChanges(page->changes, page->lastSeq, nowMilliseconds());
        if (!applied)
            return applied.error();
        applied->skipped += page->skipped;
        applied->pulled += page->skipped;
        add(report.pulled, std::move(*applied));
        report.lastSeq = page->lastSeq;
    }
    return report;
}

} // namespace

Result<TeamSyncReport> syncTeam(Cache& cache, TeamServer& server, const TeamSyncOptions& options)
{
    auto report = run(cache, server, options);
    // What `team status` says next; a failure to note it never hides the
    // sync's own result.
    (void)cache.setTeamSyncResult(nowMilliseconds(), report ? server.where() : std::string(),
                                  report ? std::string() : report.message());
    return report;
}

std::string describeLastSync(std::int64_t lastSyncMs)
{
    if (lastSyncMs <= 0)
        return "never";
    return formatIso(lastSyncMs / 1000);
}

} // namespace relayhud::team
