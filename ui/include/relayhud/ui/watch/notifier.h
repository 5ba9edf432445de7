#pragma once
// Desktop notifications for followed items: the freedesktop notification
// service on the session bus (org.freedesktop.Notifications, the
// Desktop Notifications Specification 1.2), falling back to the tray icon's
// message when no service answers. Clicking one asks to select its run.
// Nothing is sent anywhere but the local desktop session.
#include "relayhud/ui/watch/watch_list.h"

#include <QObject>
#include <QPointer>

#include <map>

class QSystemTrayIcon;

namespace relayhud::ui {

class Notifier : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;
    virtual void show(const Notice& notice) = 0;

signals:
    // The user clicked the notification of this run (0: none to select).
    void activated(qint64 runRowId);
    // How the last notice went out: "desktop", "tray" or why it could not.
    void delivered(const QString& how);
};

class DesktopNotifier : public Notifier {
    Q_OBJECT
public:
    // `tray` (may be null) shows the message when the bus has no service.
    explicit DesktopNotifier(QSystemTrayIcon* tray, QObject* parent = nullptr);
    void show(const Notice& notice) override;

private slots:
    void onActionInvoked(uint id, const QString& action);
    void onClosed(uint id, uint reason);

private:
    bool connectBus();
    void showInTray(const Notice& notice);

    QPointer<QSystemTrayIcon> m_tray;
    bool m_busConnected = false;
    uint m_lastId = 0;             // replaced by the next notice: one per sync
    std::map<uint, qint64> m_runs; // notification id -> run
    qint64 m_trayRun = 0;
};

} // namespace relayhud::ui
