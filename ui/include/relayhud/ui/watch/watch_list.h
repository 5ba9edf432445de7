#pragma once
// What the user follows (backends, jobs, PRs), what is muted, and the quiet
// hours; and what is new on followed items between two matrix snapshots.
// Nothing here leaves the desktop: notifications go to the local session only.
#include "relayhud/model/matrix_snapshot.h"

#include <QSet>
#include <QString>
#include <QStringList>
#include <QTime>

#include <vector>

namespace relayhud::ui {

// Item keys, as stored in the settings and shown in menus:
// "backend:org/repo", "job:org/repo/workflow/job", "pr:12345".
QString backendKey(const QString& backend);
QString jobKey(const QString& backend, const QString& workflow, const QString& job);
QString prKey(qint64 pr);

struct WatchList {
    QSet<QString> followed; // item keys
    QSet<QString> muted;    // item keys: followed, marked, never notified
    // Local hours [quietFrom, quietTo) without notifications (wrapping past
    // midnight when quietFrom > quietTo); -1: none.
    int quietFrom = -1;
    int quietTo = -1;

    bool isFollowed(const QString& key) const { return followed.contains(key); }
    // A cell is watched when its backend, its job or its commit's PR is
    // followed; muted when the key that follows it is muted.
    bool watches(const MatrixColumn& column, const UpstreamCommit& commit) const;
    bool notifies(const MatrixColumn& column, const UpstreamCommit& commit) const;
    bool inQuietHours(QTime now) const;
    bool operator==(const WatchList&) const = default;
};

enum class WatchEventKind {
    NewFailure,    // failed or timed out, where it had not
    Zombie,        // in progress far past the relay's 6 h sweep
    DisputedGreen, // a green its own artifacts contradict
};

struct WatchEvent {
    WatchEventKind kind = WatchEventKind::NewFailure;
    CheckRunRow runRowId;
    QString sha;
    qint64 pr = 0;
    QString backend;
    QString job;
    bool notify = true; // false: muted (still marked in the matrix)
};

// What is new in `after` on watched cells: each cell whose run changed and is
// now failed, a zombie or a disputed green, and was not so before (a cell
// that keeps failing on a re-synced run is not new).
std::vector<WatchEvent> whatIsNew(const MatrixSnapshot& before, const MatrixSnapshot& after,
                                  const WatchList& watch);

// One notification for a sync: a title that counts, a body of the first few
// items, and the run to select when it is clicked.
struct Notice {
    QString title;
    QString body;
    CheckRunRow runRowId; // none: nothing to select (relay health)
    int items = 0;
    bool operator==(const Notice&) const = default;
};
Notice noticeFor(const std::vector<WatchEvent>& events, const QString& relayDegraded);

} // namespace relayhud::ui
