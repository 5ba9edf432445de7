#include "relayhud/ui/details/link_label.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/details/run_details.h"

#include <QDesktopServices>
#include <QKeyEvent>
#include <QMouseEvent>

namespace relayhud::ui {

LinkLabel::LinkLabel(QWidget* parent) : ElidedLabel(Qt::ElideMiddle, parent)
{
    setAutoToolTip(false);
    setUrl({});
}

void LinkLabel::setUrl(const QUrl& url, const QString& caption)
{
    m_url = url;
    const bool live = url.isValid() && !url.isEmpty();
    setFullText(live ? (caption.isEmpty() ? url.toString() : caption) : QStringLiteral("—"));
    setCursor(live ? Qt::PointingHandCursor : Qt::ArrowCursor);
    setFocusPolicy(live ? Qt::StrongFocus : Qt::NoFocus);
    setForegroundRole(live ? QPalette::Link : QPalette::PlaceholderText);
    QFont f = font();
    f.setUnderline(live);
    setFont(f);
    // The full URL, whether or not the caption is elided.
    setToolTip(live ? plainToolTip(url.toString()) : QString());
}

void LinkLabel::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint())
        && !m_url.isEmpty()) {
        emit activated(m_url);
        event->accept();
        return;
    }
    ElidedLabel::mouseReleaseEvent(event);
}

void LinkLabel::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    if ((key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Space)
        && !m_url.isEmpty()) {
        emit activated(m_url);
        event->accept();
        return;
    }
    ElidedLabel::keyPressEvent(event);
}

void openWebUrl(const QUrl& url)
{
    if (isWebUrl(url))
        QDesktopServices::openUrl(url);
}

} // namespace relayhud::ui
