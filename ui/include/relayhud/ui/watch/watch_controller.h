#pragma once
// Watch and notify: after each sync, what is new on followed items raises one
// notification; the matrix marks changed cells until they are visited; a
// tray icon counts them. Quiet hours hold notifications back (cells are still
// marked); a muted item is marked and never notified.
#include "relayhud/ui/watch/attributed_failures.h"
#include "relayhud/ui/watch/watch_list.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>

#include <functional>

class QSystemTrayIcon;

namespace relayhud::ui {

class Notifier;

class WatchController : public QObject {
    Q_OBJECT
public:
    explicit WatchController(QObject* parent = nullptr);

    // Replaces the notifier (a fake one in tests); the controller owns it.
    void setNotifier(Notifier* notifier);
    Notifier* notifier() const { return m_notifier; }
    // A tray icon that counts unseen changes (null where the desktop has no tray).
    void setTrayIcon(QSystemTrayIcon* tray);
    // Local time, for quiet hours (tests set it).
    void setClock(std::function<QTime()> clock) { m_clock = std::move(clock); }

    const WatchList& list() const { return m_list; }
    void setList(const WatchList& list);
    void toggleFollowed(const QString& key);
    void toggleMuted(const QString& key);

    // A sync's new snapshot against the one on screen; `relayDegraded`
    // non-empty when relay health got worse with this sync.
    void compare(const MatrixSnapshot& before, const MatrixSnapshot& after,
                 const QString& relayDegraded);
    // New failures on followed items wait for their test results, for the
    // evidence that may attribute them to a PR (attributed_failures.h): the
    // runs to read once an artifact pass ends, taken once.
    QHash<qint64, WatchEvent> takeAwaitingEvidence();
    bool awaitsEvidence() const { return !m_awaiting.isEmpty(); }
    // What the evidence attributed: one more notification (none when empty).
    void attributionsArrived(const std::vector<AttributedFailure>& failures);
    // The user looked at this run's cell.
    void visited(qint64 runRowId);
    const QSet<qint64>& unseen() const { return m_unseen; }
    int noticesShown() const { return m_noticesShown; }

signals:
    void listChanged(const WatchList& list);
    void unseenChanged(const QSet<qint64>& unseen);
    void selectRunRequested(qint64 runRowId);
    // A notice was held back by quiet hours, or went out ("desktop"/"tray").
    void noticeStatus(const QString& text);

private:
    void updateTray();
    void notify(const Notice& notice);

    WatchList m_list;
    Notifier* m_notifier = nullptr;
    QPointer<QSystemTrayIcon> m_tray;
    QSet<qint64> m_unseen;
    QHash<qint64, WatchEvent> m_awaiting; // run row id -> its new failure
    int m_noticesShown = 0;
    std::function<QTime()> m_clock;
};

} // namespace relayhud::ui
