#include "relayhud/ui/status/sync_status_widget.h"

#include "relayhud/ui/common/elided_label.h"
#include "relayhud/ui/common/format.h"

#include <QColor>
#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>

namespace relayhud::ui {

SyncStatusWidget::SyncStatusWidget(QWidget* parent)
    : QWidget(parent), m_state(new ElidedLabel(Qt::ElideRight, this)),
      m_progress(new QProgressBar(this)), m_lastSync(new QLabel(this)),
      m_relayHealth(new QLabel(this)), m_team(new QLabel(this)),
      m_cache(new ElidedLabel(Qt::ElideMiddle, this))
{
    m_lastSync->setTextFormat(Qt::PlainText);
    m_state->setAutoToolTip(false);
    m_cache->setAutoToolTip(false);
    m_cache->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    m_cache->setMaximumWidth(420);
    m_progress->setMaximumWidth(160);
    m_progress->setMaximumHeight(14);
    m_progress->setTextVisible(false);
    m_progress->hide();
    m_lastSync->setForegroundRole(QPalette::PlaceholderText);
    m_cache->setForegroundRole(QPalette::PlaceholderText);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(4, 0, 4, 0);
    layout->setSpacing(12);
    layout->addWidget(m_state, 1);
    layout->addWidget(m_progress);
    layout->addWidget(m_relayHealth);
    layout->addWidget(m_team);
    layout->addWidget(m_lastSync);
    layout->addWidget(m_cache);
    m_relayHealth->setTextFormat(Qt::RichText);
    m_relayHealth->hide();
    m_team->setObjectName(QStringLiteral("teamStatus"));
    m_team->setTextFormat(Qt::PlainText);
    m_team->hide();
    setState(tr("Not synced yet"));
}

void SyncStatusWidget::setState(const QString& text, const QString& toolTip)
{
    m_state->setFullText(text);
    m_state->setToolTip(plainToolTip(toolTip.isEmpty() ? text : toolTip));
}

void SyncStatusWidget::showSyncing(const QString& phase, int done, int total)
{
    m_progress->show();
    m_progress->setRange(0, std::max(total, 0));
    m_progress->setValue(std::min(done, std::max(total, 0)));
    const QString what = phase.isEmpty() ? tr("Syncing…") : tr("Syncing %1…").arg(phase);
    setState(total > 0 ? what % QStringLiteral("  %1/%2").arg(done).arg(total) : what);
}

void SyncStatusWidget::showSynced(qint64 finishedAt, const QString& summary, const QString& toolTip)
{
    m_offline = false;
    m_progress->hide();
    m_lastSyncAt = finishedAt;
    setState(summary, toolTip);
    m_lastSync->setText(lastSyncText());
}

void SyncStatusWidget::showOffline(const QString& reason, int retryInSeconds)
{
    m_offline = true;
    m_progress->hide();
    const QString retry = retryInSeconds >= 120 ? tr("retry in %1 min").arg(retryInSeconds / 60)
                                                : tr("retry in %1 s").arg(retryInSeconds);
    const QString firstLine = reason.section(u'\n', 0, 0);
    setState(tr("offline — %1 (%2; showing the cache)").arg(firstLine, retry), reason);
    m_lastSync->setText(lastSyncText());
}

void SyncStatusWidget::showCacheError(const QString& reason)
{
    m_progress->hide();
    setState(tr("cache unreadable — %1").arg(reason.section(u'\n', 0, 0)), reason);
}

void SyncStatusWidget::showTeam(const QString& text, const QString& toolTip, bool warn)
{
    m_team->setText(text);
    m_team->setToolTip(plainToolTip(toolTip));
    QPalette palette = m_team->parentWidget()->palette();
    if (warn)
        palette.setColor(QPalette::WindowText, QColor(0xef, 0x6c, 0x00)); // the doctor's warning
    m_team->setPalette(palette);
    m_team->setVisible(!text.isEmpty());
}

QString SyncStatusWidget::teamText() const
{
    return m_team->isVisible() ? m_team->text() : QString();
}

void SyncStatusWidget::showRelayHealth(int state, const QString& word, const QString& toolTip)
{
    if (word.isEmpty()) {
        m_relayHealth->hide();
        return;
    }
    // HealthState: 0 no data (grey), 1 healthy (green), 2 degraded (amber),
    // the HUD card's colours, readable on light and dark palettes.
    const QString colour = state == 1   ? QStringLiteral("#2e9d3a")
                           : state == 2 ? QStringLiteral("#e07b00")
                                        : QStringLiteral("#8a8a8a");
    m_relayHealth->setText(QStringLiteral("<span style=\"color:%1\">\u25CF</span> %2")
                               .arg(colour, word.toHtmlEscaped()));
    m_relayHealth->setToolTip(plainToolTip(toolTip));
    m_relayHealth->show();
}

QString SyncStatusWidget::relayHealthText() const
{
    return m_relayHealth->isVisible() || !m_relayHealth->isHidden()
               ? m_relayHealth->text() % u'\n' % m_relayHealth->toolTip()
               : QString();
}

QString SyncStatusWidget::stateToolTip() const { return m_state->toolTip(); }

void SyncStatusWidget::showLastSync(qint64 finishedAt)
{
    m_lastSyncAt = finishedAt;
    m_lastSync->setText(lastSyncText());
}

void SyncStatusWidget::showMessage(const QString& text)
{
    m_progress->hide();
    setState(text.section(u'\n', 0, 0), text);
}

void SyncStatusWidget::setCachePath(const QString& path)
{
    m_cache->setFullText(path);
    m_cache->setToolTip(plainToolTip(tr("Cache: %1").arg(path)));
}

QString SyncStatusWidget::stateText() const { return m_state->fullText(); }

QString SyncStatusWidget::lastSyncText() const
{
    if (m_lastSyncAt <= 0)
        return tr("never synced");
    return tr("last sync %1")
        .arg(QDateTime::fromSecsSinceEpoch(m_lastSyncAt).toString(QStringLiteral("MMM d HH:mm")));
}

} // namespace relayhud::ui
