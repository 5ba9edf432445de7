#include "relayhud/ui/app/dark_palette.h"

#include <QApplication>
#include <QPalette>
#include <QStyleFactory>

namespace relayhud::ui {

void applyDarkPalette(QApplication& app)
{
    app.setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    QPalette p;
    const QColor window(0x23, 0x27, 0x2e);
    const QColor base(0x1b, 0x1f, 0x24);
    const QColor text(0xe6, 0xea, 0xef);
    const QColor muted(0x8b, 0x94, 0x9e);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x22, 0x27, 0x2d));
    p.setColor(QPalette::ToolTipBase, QColor(0x2d, 0x33, 0x3b));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, muted);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x2d, 0x33, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::white);
    p.setColor(QPalette::Light, QColor(0x3d, 0x44, 0x4d));
    p.setColor(QPalette::Midlight, QColor(0x33, 0x39, 0x41));
    p.setColor(QPalette::Mid, QColor(0x30, 0x36, 0x3d));
    p.setColor(QPalette::Dark, QColor(0x15, 0x18, 0x1c));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, QColor(0x38, 0x8b, 0xfd));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x58, 0xa6, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xbc, 0x8c, 0xff));
    for (auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, muted);
    app.setPalette(p);
}

} // namespace relayhud::ui
