#include "relayhud/ui/matrix/level_badge.h"

#include "relayhud/ui/matrix/cell_style.h"

#include <QPainter>
#include <QPalette>

namespace relayhud::ui {

namespace {

// L4 gates merges (strongest colour), L3 is opt-in per PR, L2 is informational.
QColor badgeColor(const QString& text, bool dark)
{
    if (text == u"L4")
        return dark ? QColor(0x8b, 0x5c, 0xf6) : QColor(0x6d, 0x28, 0xd9);
    if (text == u"L3")
        return dark ? QColor(0x1f, 0x9e, 0xa8) : QColor(0x0e, 0x74, 0x90);
    return dark ? QColor(0x6e, 0x76, 0x81) : QColor(0x57, 0x60, 0x6a);
}

QFont badgeFont(const QFont& base)
{
    QFont font = base;
    font.setBold(true);
    font.setPointSizeF(font.pointSizeF() * 0.8);
    return font;
}

} // namespace

int levelBadgeWidth(const QFont& font, const QString& text)
{
    return QFontMetrics(badgeFont(font)).horizontalAdvance(text) + 8;
}

QRect paintLevelBadge(QPainter& painter, const QRect& area, const QString& text,
                      const QPalette& palette)
{
    painter.save();
    const QFont font = badgeFont(painter.font());
    painter.setFont(font);
    const QFontMetrics metrics(font);
    const int height = std::min(area.height() - 4, metrics.height() + 2);
    const int width = metrics.horizontalAdvance(text) + 8;
    const QRect badge(area.left(), area.center().y() - height / 2 + 1, width, height);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(badgeColor(text, isDarkPalette(palette)));
    painter.drawRoundedRect(badge, 3, 3);
    painter.setPen(Qt::white);
    painter.drawText(badge, Qt::AlignCenter, text);
    painter.restore();
    return badge;
}

} // namespace relayhud::ui
