// ANSI colours on light and dark pages: every one of the 16 base colours
// stays readable (WCAG contrast >= 3:1 against the base colour).
#include "relayhud/ui/app/dark_palette.h"
#include "relayhud/ui/logs/ansi_palette.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

#include <gmock/gmock.h>

using namespace relayhud;
using namespace relayhud::ui;

namespace {

void expectReadable(const AnsiPalette& ansi, const char* name)
{
    for (int i = 0; i < 16; ++i) {
        const double ratio = contrastRatio(ansi.baseColor(i), ansi.base());
        EXPECT_GE(ratio, 3.0) << name << " colour " << i << " "
                              << ansi.baseColor(i).name().toStdString() << " on "
                              << ansi.base().name().toStdString();
    }
}

} // namespace

TEST(AnsiPalette, ContrastOfWcagReferenceColours)
{
    EXPECT_NEAR(contrastRatio(Qt::black, Qt::white), 21.0, 0.01);
    EXPECT_NEAR(contrastRatio(Qt::white, Qt::white), 1.0, 0.01);
    EXPECT_NEAR(contrastRatio(QColor(0x76, 0x76, 0x76), Qt::white), 4.54, 0.02);
}

TEST(AnsiPalette, BaseColoursAreReadableOnLightAndDarkPalettes)
{
    const QPalette light = QApplication::style()->standardPalette();
    const AnsiPalette onLight = AnsiPalette::forPalette(light);
    EXPECT_FALSE(onLight.dark());
    expectReadable(onLight, "light");

    const QPalette before = QApplication::palette();
    const QString style = QApplication::style()->name();
    applyDarkPalette(*qApp);
    const AnsiPalette onDark = AnsiPalette::forPalette(QApplication::palette());
    QApplication::setStyle(QStyleFactory::create(style));
    QApplication::setPalette(before);
    EXPECT_TRUE(onDark.dark());
    expectReadable(onDark, "dark");
    // Black on a dark page and white on a light one are greys, not invisible.
    EXPECT_NE(onDark.baseColor(0), QColor(Qt::black));
    EXPECT_NE(onLight.baseColor(7), QColor(Qt::white));
}

TEST(AnsiPalette, AnOddBasePaletteIsMadeReadableToo)
{
    QPalette odd;
    odd.setColor(QPalette::Base, QColor(0x80, 0x80, 0x80)); // mid grey: the worst case
    odd.setColor(QPalette::Text, Qt::black);
    expectReadable(AnsiPalette::forPalette(odd), "grey");
}

TEST(AnsiPalette, ExtendedColoursAreShownAsGivenAndStylesResolve)
{
    const AnsiPalette ansi = AnsiPalette::forPalette(QApplication::style()->standardPalette());
    EXPECT_EQ(ansi.color(Color::rgb(1, 2, 3)), QColor(1, 2, 3));
    EXPECT_EQ(ansi.color(Color::palette(196)), QColor(255, 0, 0)) << "xterm cube red";
    EXPECT_EQ(ansi.color(Color::palette(232)), QColor(8, 8, 8)) << "first grey of the ramp";
    EXPECT_FALSE(ansi.color(Color{}).isValid());

    TextStyle inverse;
    inverse.inverse = true;
    inverse.foreground = Color::palette(1);
    const auto resolved = ansi.resolve(inverse, ansi.text());
    EXPECT_EQ(resolved.background, ansi.baseColor(1));
    EXPECT_EQ(resolved.foreground, ansi.base());

    TextStyle dim;
    dim.dim = true;
    EXPECT_NE(ansi.resolve(dim, ansi.text()).foreground, ansi.text());
}
