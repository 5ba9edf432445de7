#include "relayhud/ui/watch/notifier.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QSystemTrayIcon>
#include <QVariantMap>

namespace relayhud::ui {

namespace {

// The Desktop Notifications Specification's names.
const QString kService = QStringLiteral("org.freedesktop.Notifications");
const QString kPath = QStringLiteral("/org/freedesktop/Notifications");
const QString kInterface = QStringLiteral("org.freedesktop.Notifications");
const QString kDefaultAction = QStringLiteral("default");

// Bodies may carry a markup subset: ours is plain text.
QString escaped(const QString& text) { return text.toHtmlEscaped(); }

} // namespace

DesktopNotifier::DesktopNotifier(QSystemTrayIcon* tray, QObject* parent)
    : Notifier(parent), m_tray(tray)
{
    if (m_tray)
        connect(m_tray, &QSystemTrayIcon::messageClicked, this,
                [this] { emit activated(m_trayRun); });
}

bool DesktopNotifier::connectBus()
{
    if (m_busConnected)
        return true;
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected())
        return false;
    bus.connect(kService, kPath, kInterface, QStringLiteral("ActionInvoked"), this,
                SLOT(onActionInvoked(uint, QString)));
    bus.connect(kService, kPath, kInterface, QStringLiteral("NotificationClosed"), this,
                SLOT(onClosed(uint, uint)));
    m_busConnected = true;
    return true;
}

void DesktopNotifier::show(const Notice& notice)
{
    // Notification services are D-Bus activatable: ask even when none runs
    // yet, and fall back to the tray when the call fails.
    if (!connectBus()) {
        showInTray(notice);
        return;
    }
    QDBusMessage call =
        QDBusMessage::createMethodCall(kService, kPath, kInterface, QStringLiteral("Notify"));
    QVariantMap hints;
    hints.insert(QStringLiteral("desktop-entry"), QStringLiteral("relayhud"));
    hints.insert(QStringLiteral("urgency"), QVariant::fromValue(uchar(1))); // normal
    call << QStringLiteral("RelayHUD") << m_lastId << QStringLiteral("relayhud") << notice.title
         << escaped(notice.body) << QStringList{kDefaultAction, tr("Show")} << hints << qint32(-1);
    auto* watcher =
        new QDBusPendingCallWatcher(QDBusConnection::sessionBus().asyncCall(call, 5000), this);
    const qint64 run = notice.runRowId.value;
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, watcher, notice, run](QDBusPendingCallWatcher*) {
                watcher->deleteLater();
                const QDBusPendingReply<uint> reply = *watcher;
                if (reply.isError()) {
                    showInTray(notice);
                    return;
                }
                m_lastId = reply.value();
                m_runs[m_lastId] = run;
                emit delivered(QStringLiteral("desktop"));
            });
}

void DesktopNotifier::showInTray(const Notice& notice)
{
    if (!m_tray || !QSystemTrayIcon::isSystemTrayAvailable()) {
        emit delivered(tr("no notification service and no system tray"));
        return;
    }
    m_trayRun = notice.runRowId.value;
    m_tray->showMessage(notice.title, notice.body, QSystemTrayIcon::Information, 15000);
    emit delivered(QStringLiteral("tray"));
}

void DesktopNotifier::onActionInvoked(uint id, const QString& action)
{
    const auto it = m_runs.find(id);
    if (it == m_runs.end())
        return; // another application's notification
    if (action == kDefaultAction)
        emit activated(it->second);
}

void DesktopNotifier::onClosed(uint id, uint) { m_runs.erase(id); }

} // namespace relayhud::ui
