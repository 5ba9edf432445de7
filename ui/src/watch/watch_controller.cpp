#include "relayhud/ui/watch/watch_controller.h"

#include "relayhud/ui/watch/notifier.h"

#include <QFont>
#include <QIcon>
#include <QPainter>
#include <QSystemTrayIcon>

#include <utility>

namespace relayhud::ui {

namespace {

// The app's icon with the count in a badge.
QIcon countedIcon(int count)
{
    const QIcon app(QStringLiteral(":/relayhud/relayhud.svg"));
    QPixmap pixmap = app.pixmap(64, 64);
    if (count <= 0)
        return QIcon(pixmap);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const QRect badge(26, 26, 38, 38);
    painter.setBrush(QColor(0xd7, 0x30, 0x27));
    painter.setPen(Qt::NoPen);
    painter.drawEllipse(badge);
    QFont font = painter.font();
    font.setBold(true);
    font.setPixelSize(count > 99 ? 15 : 22);
    painter.setFont(font);
    painter.setPen(Qt::white);
    painter.drawText(badge, Qt::AlignCenter,
                     count > 99 ? QStringLiteral("99+") : QString::number(count));
    return QIcon(pixmap);
}

} // namespace

WatchController::WatchController(QObject* parent)
    : QObject(parent), m_clock([] { return QTime::currentTime(); })
{
}

void WatchController::setNotifier(Notifier* notifier)
{
    if (m_notifier == notifier)
        return;
    delete m_notifier;
    m_notifier = notifier;
    if (!m_notifier)
        return;
    m_notifier->setParent(this);
    connect(m_notifier, &Notifier::activated, this, [this](qint64 run) {
        if (run > 0)
            emit selectRunRequested(run);
    });
    connect(m_notifier, &Notifier::delivered, this, &WatchController::noticeStatus);
}

void WatchController::setTrayIcon(QSystemTrayIcon* tray)
{
    m_tray = tray;
    updateTray();
}

void WatchController::setList(const WatchList& list)
{
    if (m_list == list)
        return;
    m_list = list;
    emit listChanged(m_list);
}

void WatchController::toggleFollowed(const QString& key)
{
    WatchList next = m_list;
    if (!next.followed.remove(key)) {
        next.followed.insert(key);
    } else {
        next.muted.remove(key);
    }
    setList(next);
}

void WatchController::toggleMuted(const QString& key)
{
    WatchList next = m_list;
    if (!next.muted.remove(key))
        next.muted.insert(key);
    setList(next);
}

void WatchController::compare(const MatrixSnapshot& before, const MatrixSnapshot& after,
                              const QString& relayDegraded)
{
    const std::vector<WatchEvent> events = whatIsNew(before, after, m_list);
    for (const WatchEvent& e : events)
        m_unseen.insert(e.runRowId.value);
    if (!events.empty()) {
        emit unseenChanged(m_unseen);
        updateTray();
    }
    for (const WatchEvent& e : events)
        if (e.kind == WatchEventKind::NewFailure && e.notify)
            m_awaiting.insert(e.runRowId.value, e);
    notify(noticeFor(events, m_list.followed.isEmpty() ? QString() : relayDegraded));
}

QHash<qint64, WatchEvent> WatchController::takeAwaitingEvidence()
{
    return std::exchange(m_awaiting, {});
}

void WatchController::attributionsArrived(const std::vector<AttributedFailure>& failures)
{
    notify(noticeForAttributions(failures));
}

void WatchController::notify(const Notice& notice)
{
    if (notice.items == 0)
        return;
    if (m_list.inQuietHours(m_clock())) {
        emit noticeStatus(
            tr("quiet hours: %n change(s) marked, not notified", nullptr, notice.items));
        return;
    }
    if (!m_notifier)
        return;
    ++m_noticesShown;
    m_notifier->show(notice);
}

void WatchController::visited(qint64 runRowId)
{
    if (!m_unseen.remove(runRowId))
        return;
    emit unseenChanged(m_unseen);
    updateTray();
}

void WatchController::updateTray()
{
    if (!m_tray)
        return;
    const int count = static_cast<int>(m_unseen.size());
    m_tray->setIcon(countedIcon(count));
    m_tray->setToolTip(
        count == 0 ? tr("RelayHUD: nothing new on followed items")
                   : tr("RelayHUD: %n change(s) on followed items not yet seen", nullptr, count));
}

} // namespace relayhud::ui
