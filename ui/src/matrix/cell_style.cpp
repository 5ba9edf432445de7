#include "relayhud/ui/matrix/cell_style.h"

#include <QPainter>
#include <QPainterPath>
#include <QPalette>

#include <cmath>

namespace relayhud::ui {

namespace {

struct ColorPair {
    const char* fill; // nullptr: no fill
    const char* glyph;
};

ColorPair lightColors(CellState state)
{
    switch (state) {
    case CellState::Success: return {"#d3f2db", "#1a7f37"};
    case CellState::Failure: return {"#cf222e", "#ffffff"};
    case CellState::Cancelled: return {"#e4e8ec", "#57606a"};
    case CellState::TimedOut: return {"#c2530a", "#ffffff"};
    case CellState::InProgress: return {"#d6ebff", "#0969da"};
    case CellState::Queued: return {"#eef1f4", "#6e7781"};
    case CellState::Stale: return {"#8250df", "#ffffff"};
    case CellState::Skipped: return {nullptr, "#6e7781"};
    case CellState::Neutral: return {nullptr, "#6e7781"};
    case CellState::SuccessTestsFailed: return {"#ffd8d3", "#cf222e"};
    case CellState::Empty: break;
    }
    return {nullptr, "#6e7781"};
}

ColorPair darkColors(CellState state)
{
    switch (state) {
    case CellState::Success: return {"#1d4428", "#56d364"};
    case CellState::Failure: return {"#da3633", "#ffffff"};
    case CellState::Cancelled: return {"#3a4048", "#b1bac4"};
    case CellState::TimedOut: return {"#c4561b", "#ffffff"};
    case CellState::InProgress: return {"#12355f", "#79c0ff"};
    case CellState::Queued: return {"#2d333b", "#9ea7b3"};
    case CellState::Stale: return {"#7749d6", "#ffffff"};
    case CellState::Skipped: return {nullptr, "#9ea7b3"};
    case CellState::Neutral: return {nullptr, "#9ea7b3"};
    case CellState::SuccessTestsFailed: return {"#5d1f1c", "#ff7b72"};
    case CellState::Empty: break;
    }
    return {nullptr, "#9ea7b3"};
}

QPen glyphPen(const QColor& color, qreal size)
{
    QPen pen(color, std::max<qreal>(1.5, size * 0.14));
    pen.setCapStyle(Qt::RoundCap);
    pen.setJoinStyle(Qt::RoundJoin);
    return pen;
}

// Maps unit coordinates (0..1) into the glyph box.
QPointF at(const QRectF& box, qreal x, qreal y)
{
    return {box.left() + x * box.width(), box.top() + y * box.height()};
}

void paintCheck(QPainter& p, const QRectF& b)
{
    QPainterPath path(at(b, 0.18, 0.54));
    path.lineTo(at(b, 0.42, 0.78));
    path.lineTo(at(b, 0.84, 0.26));
    p.drawPath(path);
}

void paintCross(QPainter& p, const QRectF& b)
{
    p.drawLine(at(b, 0.24, 0.24), at(b, 0.76, 0.76));
    p.drawLine(at(b, 0.76, 0.24), at(b, 0.24, 0.76));
}

void paintCircleSlash(QPainter& p, const QRectF& b)
{
    const QRectF ring =
        b.adjusted(b.width() * 0.16, b.height() * 0.16, -b.width() * 0.16, -b.height() * 0.16);
    p.drawEllipse(ring);
    p.drawLine(at(b, 0.30, 0.70), at(b, 0.70, 0.30));
}

void paintClock(QPainter& p, const QRectF& b)
{
    const QRectF ring =
        b.adjusted(b.width() * 0.14, b.height() * 0.14, -b.width() * 0.14, -b.height() * 0.14);
    p.drawEllipse(ring);
    p.drawLine(at(b, 0.5, 0.5), at(b, 0.5, 0.28));
    p.drawLine(at(b, 0.5, 0.5), at(b, 0.68, 0.58));
}

void paintHalfCircle(QPainter& p, const QRectF& b, const QColor& color)
{
    const QRectF ring =
        b.adjusted(b.width() * 0.16, b.height() * 0.16, -b.width() * 0.16, -b.height() * 0.16);
    p.drawEllipse(ring);
    p.save();
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPie(ring, 90 * 16, 180 * 16);
    p.restore();
}

void paintHourglass(QPainter& p, const QRectF& b)
{
    p.drawLine(at(b, 0.26, 0.18), at(b, 0.74, 0.18));
    p.drawLine(at(b, 0.26, 0.82), at(b, 0.74, 0.82));
    QPainterPath sand(at(b, 0.32, 0.20));
    sand.lineTo(at(b, 0.68, 0.20));
    sand.lineTo(at(b, 0.32, 0.80));
    sand.lineTo(at(b, 0.68, 0.80));
    sand.closeSubpath();
    p.drawPath(sand);
}

void paintRing(QPainter& p, const QRectF& b)
{
    p.drawEllipse(
        b.adjusted(b.width() * 0.26, b.height() * 0.26, -b.width() * 0.26, -b.height() * 0.26));
}

void paintDot(QPainter& p, const QRectF& b, const QColor& color)
{
    p.save();
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawEllipse(b.center(), b.width() * 0.14, b.height() * 0.14);
    p.restore();
}

// A thin check the run claimed, struck through by the failure its tests
// show: "said success, tests failed".
void paintClaimedCheck(QPainter& painter, const QRectF& box)
{
    QPen thin = painter.pen();
    thin.setWidthF(thin.widthF() * 0.6);
    painter.save();
    painter.setPen(thin);
    paintCheck(painter, box);
    painter.restore();
    painter.drawLine(at(box, 0.2, 0.2), at(box, 0.8, 0.8));
}

} // namespace

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightnessF() < 0.5;
}

CellColors cellColors(CellState state, const QPalette& palette)
{
    const ColorPair pair = isDarkPalette(palette) ? darkColors(state) : lightColors(state);
    CellColors colors;
    if (pair.fill)
        colors.fill = QColor(QLatin1String(pair.fill));
    colors.glyph = QColor(QLatin1String(pair.glyph));
    return colors;
}

void paintCellGlyph(QPainter& painter, const QRectF& box, CellState state, const QColor& color)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(glyphPen(color, std::min(box.width(), box.height())));
    painter.setBrush(Qt::NoBrush);
    switch (state) {
    case CellState::Success: paintCheck(painter, box); break;
    case CellState::Failure: paintCross(painter, box); break;
    case CellState::Cancelled: paintCircleSlash(painter, box); break;
    case CellState::TimedOut: paintClock(painter, box); break;
    case CellState::InProgress: paintHalfCircle(painter, box, color); break;
    case CellState::Queued: paintRing(painter, box); break;
    case CellState::Stale: paintHourglass(painter, box); break;
    case CellState::Skipped: painter.drawLine(at(box, 0.3, 0.5), at(box, 0.7, 0.5)); break;
    case CellState::Neutral: paintDot(painter, box, color); break;
    case CellState::SuccessTestsFailed: paintClaimedCheck(painter, box); break;
    case CellState::Empty: break;
    }
    painter.restore();
}

void paintStateTile(QPainter& painter, const QRect& tile, CellState state, const QPalette& palette,
                    const QPointF& glyphShift)
{
    const CellColors colors = cellColors(state, palette);
    painter.save();
    if (colors.fill.isValid()) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colors.fill);
        painter.drawRoundedRect(QRectF(tile), 2.5, 2.5);
    }
    const qreal side = std::min(tile.width(), tile.height()) - 4;
    const QPointF centre = QRectF(tile).center() + glyphShift;
    paintCellGlyph(painter, QRectF(centre.x() - side / 2, centre.y() - side / 2, side, side), state,
                   colors.glyph);
    painter.restore();
}

QColor blend(const QColor& base, const QColor& over, float amount)
{
    const float keep = 1.0f - amount;
    return QColor::fromRgbF(base.redF() * keep + over.redF() * amount,
                            base.greenF() * keep + over.greenF() * amount,
                            base.blueF() * keep + over.blueF() * amount);
}

QColor groupSeparatorColor(const QPalette& palette)
{
    return blend(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.35f);
}

QColor backendBandColor(const QString& backend, const QPalette& palette)
{
    // Golden-ratio hue steps from a name hash: neighbours rarely look alike.
    const auto hash = static_cast<double>(qHash(backend) % 1000u);
    const double hue = std::fmod(hash * 0.618033988749895, 1.0);
    if (isDarkPalette(palette))
        return QColor::fromHslF(static_cast<float>(hue), 0.35f, 0.30f);
    return QColor::fromHslF(static_cast<float>(hue), 0.55f, 0.86f);
}

} // namespace relayhud::ui
