#include "relayhud/ui/common/elided_label.h"

#include "relayhud/ui/common/format.h"

#include <QEvent>

namespace relayhud::ui {

ElidedLabel::ElidedLabel(Qt::TextElideMode mode, QWidget* parent) : QLabel(parent), m_mode(mode)
{
    setTextFormat(Qt::PlainText);
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text)
{
    m_fullText = text;
    updateElided();
}

QSize ElidedLabel::minimumSizeHint() const { return {40, QLabel::minimumSizeHint().height()}; }

QSize ElidedLabel::sizeHint() const
{
    return {fontMetrics().horizontalAdvance(m_fullText) + 4, QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event)
{
    QLabel::resizeEvent(event);
    updateElided();
}

void ElidedLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange)
        updateElided();
}

void ElidedLabel::updateElided()
{
    const QString shown = fontMetrics().elidedText(m_fullText, m_mode, std::max(0, width() - 2));
    setText(shown);
    if (m_autoToolTip)
        setToolTip(shown == m_fullText || m_fullText.isEmpty() ? QString()
                                                               : plainToolTip(m_fullText));
}

} // namespace relayhud::ui
