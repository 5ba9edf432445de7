#include "relayhud/ui/logs/ansi_palette.h"

#include <QPalette>

#include <cmath>

namespace relayhud::ui {

namespace {

constexpr double kMinContrast = 3.0;

// GitHub's terminal colours for light and dark pages; "white" on a light page
// and "black" on a dark one are greys that stay readable.
constexpr std::array<QRgb, 16> kLight{0x24292f, 0xcf222e, 0x116329, 0x7d4e00, 0x0969da, 0x8250df,
                                      0x1b7c83, 0x6e7781, 0x57606a, 0xa40e26, 0x1a7f37, 0x633c01,
                                      0x218bff, 0xa475f9, 0x3192aa, 0x7d8590};
constexpr std::array<QRgb, 16> kDark{0x6e7681, 0xff7b72, 0x3fb950, 0xd29922, 0x58a6ff, 0xbc8cff,
                                     0x39c5cf, 0xb1bac4, 0x8b949e, 0xffa198, 0x56d364, 0xe3b341,
                                     0x79c0ff, 0xd2a8ff, 0x56d4dd, 0xf0f6fc};

double channel(int value)
{
    const double c = value / 255.0;
    return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c)
{
    return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue());
}

// A palette whose Base is neither white nor GitHub's dark grey could make a
// table colour fade into it: move it toward the text colour until it reads.
QColor readable(const QColor& color, const QColor& base, const QColor& text)
{
    QColor c = color;
    for (double t = 0.1; contrastRatio(c, base) < kMinContrast && t <= 1.0; t += 0.1)
        c = mixColors(color, text, t);
    return c;
}

// xterm's 6x6x6 cube and grey ramp.
QColor xtermColor(int index)
{
    if (index >= 232) {
        const int level = 8 + (index - 232) * 10;
        return QColor(level, level, level);
    }
    const int cube = index - 16;
    const auto level = [](int v) { return v == 0 ? 0 : 55 + v * 40; };
    return QColor(level(cube / 36), level((cube / 6) % 6), level(cube % 6));
}

} // namespace

QColor mixColors(const QColor& a, const QColor& b, double t)
{
    const auto lerp = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
    return QColor(lerp(a.red(), b.red()), lerp(a.green(), b.green()), lerp(a.blue(), b.blue()));
}

double contrastRatio(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

AnsiPalette AnsiPalette::forPalette(const QPalette& palette)
{
    AnsiPalette p;
    p.m_base = palette.color(QPalette::Base);
    p.m_text = palette.color(QPalette::Text);
    p.m_dark = p.m_base.lightness() < 128;
    const auto& table = p.m_dark ? kDark : kLight;
    for (std::size_t i = 0; i < table.size(); ++i)
        p.m_colors[i] = readable(QColor::fromRgb(table[i]), p.m_base, p.m_text);
    return p;
}

QColor AnsiPalette::baseColor(int index) const
{
    return m_colors[static_cast<std::size_t>(index & 15)];
}

QColor AnsiPalette::color(const Color& c) const
{
    switch (c.kind) {
    case Color::Kind::Default: return {};
    case Color::Kind::Rgb: return QColor(c.red, c.green, c.blue);
    case Color::Kind::Palette: return c.index < 16 ? baseColor(c.index) : xtermColor(c.index);
    }
    return {};
}

AnsiPalette::Resolved AnsiPalette::resolve(const TextStyle& style,
                                           const QColor& defaultForeground) const
{
    QColor fg = color(style.foreground);
    QColor bg = color(style.background);
    if (!fg.isValid())
        fg = defaultForeground;
    if (style.inverse) {
        const QColor newBg = fg;
        fg = bg.isValid() ? bg : m_base;
        bg = newBg;
    }
    if (style.dim)
        fg = mixColors(fg, bg.isValid() ? bg : m_base, 0.4);
    return {fg, bg};
}

} // namespace relayhud::ui
