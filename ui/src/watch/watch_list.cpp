#include "relayhud/ui/watch/watch_list.h"

#include "relayhud/model/types.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/common/job_label.h"

#include <QCoreApplication>

#include <map>
#include <tuple>

namespace relayhud::ui {

QString backendKey(const QString& backend) { return QStringLiteral("backend:") + backend; }

QString jobKey(const QString& backend, const QString& workflow, const QString& job)
{
    return QStringLiteral("job:") + backend + u'/' + workflow + u'/' + job;
}

QString prKey(qint64 pr) { return QStringLiteral("pr:") + QString::number(pr); }

namespace {

// The keys that could make a cell watched, most specific first.
std::array<QString, 3> keysOf(const MatrixColumn& column, const UpstreamCommit& commit)
{
    const QString backend = toQString(column.backend);
    return {jobKey(backend, toQString(column.workflow), toQString(column.job)),
            commit.prNumber.value > 0 ? prKey(commit.prNumber.value) : QString(),
            backendKey(backend)};
}

bool isFailed(const MatrixCell& cell)
{
    return !cell.empty() && cell.status == RunStatus::Completed
           && (cell.conclusion == Conclusion::Failure || cell.conclusion == Conclusion::TimedOut);
}

bool isZombie(const MatrixCell& cell) { return !cell.empty() && cell.has(MatrixCell::Stale); }

bool isDisputed(const MatrixCell& cell)
{
    return !cell.empty() && cell.has(MatrixCell::GreenDisputed);
}

using CellKey = std::tuple<std::string, std::string, std::string, std::string, std::string>;

CellKey keyOf(const UpstreamCommit& commit, const MatrixColumn& column)
{
    return {commit.sha.value, commit.branch, column.backend, column.workflow, column.job};
}

} // namespace

bool WatchList::watches(const MatrixColumn& column, const UpstreamCommit& commit) const
{
    for (const QString& key : keysOf(column, commit))
        if (!key.isEmpty() && followed.contains(key))
            return true;
    return false;
}

bool WatchList::notifies(const MatrixColumn& column, const UpstreamCommit& commit) const
{
    bool any = false;
    for (const QString& key : keysOf(column, commit)) {
        if (key.isEmpty() || !followed.contains(key))
            continue;
        if (muted.contains(key))
            return false; // the most specific followed key decides
        any = true;
        break;
    }
    return any;
}

bool WatchList::inQuietHours(QTime now) const
{
    if (quietFrom < 0 || quietTo < 0 || quietFrom == quietTo)
        return false;
    const int hour = now.hour();
    return quietFrom < quietTo ? hour >= quietFrom && hour < quietTo
                               : hour >= quietFrom || hour < quietTo;
}

std::vector<WatchEvent> whatIsNew(const MatrixSnapshot& before, const MatrixSnapshot& after,
                                  const WatchList& watch)
{
    std::vector<WatchEvent> events;
    if (watch.followed.isEmpty())
        return events;
    std::map<CellKey, const MatrixCell*> old;
    for (std::size_t r = 0; r < before.rows.size(); ++r)
        for (std::size_t c = 0; c < before.columns.size(); ++c)
            if (!before.cell(r, c).empty())
                old.emplace(keyOf(before.rows[r], before.columns[c]), &before.cell(r, c));
    for (std::size_t r = 0; r < after.rows.size(); ++r) {
        const UpstreamCommit& commit = after.rows[r];
        for (std::size_t c = 0; c < after.columns.size(); ++c) {
            const MatrixCell& cell = after.cell(r, c);
            const MatrixColumn& column = after.columns[c];
            if (cell.empty() || !watch.watches(column, commit))
                continue;
            const auto found = old.find(keyOf(commit, column));
            const MatrixCell* was = found == old.end() ? nullptr : found->second;
            const auto becomes = [&](bool (*is)(const MatrixCell&)) {
                return is(cell) && (was == nullptr || !is(*was));
            };
            std::optional<WatchEventKind> kind;
            if (becomes(isFailed))
                kind = WatchEventKind::NewFailure;
            else if (becomes(isZombie))
                kind = WatchEventKind::Zombie;
            else if (becomes(isDisputed))
                kind = WatchEventKind::DisputedGreen;
            if (!kind)
                continue;
            events.push_back(WatchEvent{*kind, cell.runRowId, toQString(commit.sha.value),
                                        commit.prNumber.value, toQString(column.backend),
                                        toQString(column.job), watch.notifies(column, commit)});
        }
    }
    return events;
}

namespace {

QString kindText(WatchEventKind kind)
{
    switch (kind) {
    case WatchEventKind::NewFailure: return QCoreApplication::translate("Watch", "failed");
    case WatchEventKind::Zombie:
        return QCoreApplication::translate("Watch", "stale (in progress > 6 h)");
    case WatchEventKind::DisputedGreen:
        return QCoreApplication::translate("Watch", "green, disputed by its artifacts");
    }
    return {};
}

QString itemText(const WatchEvent& e)
{
    const QString where =
        e.pr > 0 ? QStringLiteral("#%1 %2").arg(e.pr).arg(e.sha.left(7)) : e.sha.left(7);
    return QStringLiteral("%1 %2: %3 (%4)")
        .arg(e.backend.section(u'/', -1), parseJobLabel(e.job).compact, kindText(e.kind), where);
}

} // namespace

Notice noticeFor(const std::vector<WatchEvent>& events, const QString& relayDegraded)
{
    constexpr int kListed = 4;
    Notice notice;
    QStringList lines;
    int failures = 0;
    for (const WatchEvent& e : events) {
        if (!e.notify)
            continue;
        if (!notice.runRowId)
            notice.runRowId = e.runRowId;
        failures += e.kind == WatchEventKind::NewFailure ? 1 : 0;
        if (notice.items < kListed)
            lines << itemText(e);
        ++notice.items;
    }
    if (notice.items > kListed)
        lines << QCoreApplication::translate("Watch", "… and %1 more").arg(notice.items - kListed);
    if (!relayDegraded.isEmpty()) {
        lines.prepend(relayDegraded);
        ++notice.items;
    }
    if (notice.items == 0)
        return {};
    notice.title = failures > 0 ? QCoreApplication::translate("Watch",
                                                              "RelayHUD: %n new "
                                                              "failure(s) on followed "
                                                              "items",
                                                              nullptr, failures)
                                : QCoreApplication::translate("Watch",
                                                              "RelayHUD: %n change(s) on "
                                                              "followed items",
                                                              nullptr, notice.items);
    notice.body = lines.join(u'\n');
    return notice;
}

} // namespace relayhud::ui
