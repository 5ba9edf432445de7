#pragma once
// Colours for a log's ANSI styles on the widget's palette. The 16 base
// colours are picked per palette lightness (a terminal's "white" is
// unreadable on a light page and its "black" on a dark one), so every one
// of them keeps a WCAG contrast of at least 3:1 against the base colour;
// 256-colour and 24-bit colours are shown as given.
#include "relayhud/logs/line_decoder.h"

#include <QColor>

#include <array>

class QPalette;

namespace relayhud::ui {

// WCAG 2 contrast ratio of two opaque colours, 1 to 21.
double contrastRatio(const QColor& a, const QColor& b);
// `a` moved toward `b` by t (0: a, 1: b), opaque.
QColor mixColors(const QColor& a, const QColor& b, double t);

class AnsiPalette {
public:
    // Light or dark base colours by the palette's Base lightness.
    static AnsiPalette forPalette(const QPalette& palette);

    bool dark() const { return m_dark; }
    QColor base() const { return m_base; }
    QColor text() const { return m_text; }
    // One of the 16 base colours (0-7 standard, 8-15 bright).
    QColor baseColor(int index) const;
    // Any colour of a style; an invalid QColor for Color::Kind::Default.
    QColor color(const Color& color) const;

    // The colours a styled stretch is painted with: inverse, dim and the
    // defaults resolved. background is invalid when nothing is to be filled.
    struct Resolved {
        QColor foreground;
        QColor background;
    };
    Resolved resolve(const TextStyle& style, const QColor& defaultForeground) const;

private:
    bool m_dark = false;
    QColor m_base;
    QColor m_text;
    std::array<QColor, 16> m_colors;
};

} // namespace relayhud::ui
