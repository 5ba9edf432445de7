#pragma once
// The small "L2"/"L3"/"L4" pill shown next to a backend's name.
#include <QRect>
#include <QString>

class QFont;
class QPainter;
class QPalette;

namespace relayhud::ui {

// Paints the badge at the left of `area`, vertically centred; returns its rect.
// The width paintLevelBadge gives `text` painted with `font`.
int levelBadgeWidth(const QFont& font, const QString& text);
QRect paintLevelBadge(QPainter& painter, const QRect& area, const QString& text,
                      const QPalette& palette);

} // namespace relayhud::ui
