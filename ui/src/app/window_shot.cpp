#include "relayhud/ui/app/window_shot.h"

#include <QApplication>
#include <QCoreApplication>
#include <QWidget>

namespace relayhud::ui {

void sizeLikeAScreen(QWidget& window, QSize screen)
{
    window.resize(screen.expandedTo(window.minimumSizeHint()));
}

QPixmap shootWindow(QWidget& window)
{
    // Layout requests are posted events: run them (twice: a layout's result
    // may post another), so the picture is what the next frame would show.
    for (int pass = 0; pass < 2; ++pass) {
        QCoreApplication::sendPostedEvents(nullptr, 0);
        QApplication::processEvents();
    }
    return window.grab();
}

QString screenFitProblem(const QWidget& window, QSize screen)
{
    const QSize minimum = window.minimumSizeHint();
    if (minimum.width() <= screen.width() && minimum.height() <= screen.height())
        return {};
    return QCoreApplication::translate("WindowShot",
                                       "the window needs at least %1x%2, more than %3x%4")
        .arg(minimum.width())
        .arg(minimum.height())
        .arg(screen.width())
        .arg(screen.height());
}

} // namespace relayhud::ui
