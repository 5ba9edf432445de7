#pragma once
// `relayhud --screenshot FILE --size WxH`: the window as a screen of that
// size shows it. A window manager never makes a window smaller than its
// minimum size, so neither does the picture: a window that needs more than
// the screen is pictured at its minimum, and says so, instead of squeezing
// its panels over each other as no real window would.
#include <QPixmap>
#include <QSize>
#include <QString>

class QWidget;

namespace relayhud::ui {

// Sizes `window` as a screen of `screen` would (before or after show()).
void sizeLikeAScreen(QWidget& window, QSize screen);
// The window's picture once pending layouts and paints have run.
QPixmap shootWindow(QWidget& window);
// "" when `window` fits `screen`; else one line saying what it needs.
QString screenFitProblem(const QWidget& window, QSize screen);

} // namespace relayhud::ui
