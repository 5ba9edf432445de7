#include "relayhud/ui/tests/outcome_style.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/matrix/cell_style.h"

#include <QCoreApplication>
#include <QLocale>
#include <QPainter>
#include <QPalette>

#include <cmath>

namespace relayhud::ui {

namespace {

QString tr(const char* text) { return QCoreApplication::translate("TestOutcome", text); }

// The matrix state whose colours an outcome borrows.
CellState colourState(TestOutcome outcome)
{
    switch (outcome) {
    case TestOutcome::Passed: return CellState::Success;
    case TestOutcome::Failed: return CellState::Failure;
    case TestOutcome::Error: return CellState::TimedOut;
    case TestOutcome::Skipped: return CellState::Skipped;
    case TestOutcome::XFailed: return CellState::Cancelled;
    case TestOutcome::XPassStrict: return CellState::Failure;
    }
    return CellState::Empty;
}

// The matrix glyph an outcome borrows; Error draws its own.
CellState glyphState(TestOutcome outcome)
{
    switch (outcome) {
    case TestOutcome::Passed: return CellState::Success;
    case TestOutcome::Failed: return CellState::Failure;
    case TestOutcome::Error: return CellState::Empty;
    case TestOutcome::Skipped: return CellState::Skipped;
    case TestOutcome::XFailed: return CellState::Failure;
    case TestOutcome::XPassStrict: return CellState::Success; // passed, and must not
    }
    return CellState::Empty;
}

void paintExclamation(QPainter& painter, const QRectF& box, const QColor& color)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(color, std::max<qreal>(1.5, box.width() * 0.16));
    pen.setCapStyle(Qt::RoundCap);
    painter.setPen(pen);
    const qreal x = box.center().x();
    painter.drawLine(QPointF(x, box.top() + box.height() * 0.2),
                     QPointF(x, box.top() + box.height() * 0.58));
    painter.drawPoint(QPointF(x, box.top() + box.height() * 0.8));
    painter.restore();
}

} // namespace

QString outcomeLabel(TestOutcome outcome)
{
    if (outcome == TestOutcome::XPassStrict)
        return tr("xpass (strict)");
    return toQString(std::string_view(outcomeName(outcome)));
}

QString outcomeDescription(TestOutcome outcome)
{
    switch (outcome) {
    case TestOutcome::Passed: return tr("passed (a non-strict XPASS counts as passed)");
    case TestOutcome::Failed: return tr("failed");
    case TestOutcome::Error: return tr("error: setup or teardown broke");
    case TestOutcome::Skipped: return tr("skipped");
    case TestOutcome::XFailed: return tr("xfailed: failed as expected");
    case TestOutcome::XPassStrict:
        return tr("xpass (strict): passed although marked xfail strict; the run counts it failed");
    }
    return {};
}

int outcomeRank(TestOutcome outcome)
{
    switch (outcome) {
    case TestOutcome::Failed: return 0;
    case TestOutcome::Error: return 1;
    case TestOutcome::XPassStrict: return 2;
    case TestOutcome::XFailed: return 3;
    case TestOutcome::Skipped: return 4;
    case TestOutcome::Passed: return 5;
    }
    return 6;
}

void paintOutcomeTile(QPainter& painter, const QRect& tile, TestOutcome outcome,
                      const QPalette& palette)
{
    const CellColors colors = cellColors(colourState(outcome), palette);
    painter.save();
    if (colors.fill.isValid()) {
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colors.fill);
        painter.drawRoundedRect(QRectF(tile), 2.5, 2.5);
    }
    const qreal side = std::min(tile.width(), tile.height()) - 4;
    const QPointF centre = QRectF(tile).center();
    const QRectF box(centre.x() - side / 2, centre.y() - side / 2, side, side);
    if (outcome == TestOutcome::Error)
        paintExclamation(painter, box, colors.glyph);
    else
        paintCellGlyph(painter, box, glyphState(outcome), colors.glyph);
    painter.restore();
}

QColor warningTextColor(const QPalette& palette)
{
    return isDarkPalette(palette) ? QColor(0xe3, 0xb3, 0x41) : QColor(0x9a, 0x67, 0x00);
}

StripSquare stripSquareOf(TestOutcome outcome)
{
    switch (outcome) {
    case TestOutcome::Passed: return StripSquare::Passed;
    case TestOutcome::Failed:
    case TestOutcome::Error:
    case TestOutcome::XPassStrict: return StripSquare::Failing;
    case TestOutcome::Skipped:
    case TestOutcome::XFailed: return StripSquare::Neutral;
    }
    return StripSquare::Missing;
}

QColor stripSquareColor(StripSquare square, const QPalette& palette)
{
    const bool dark = isDarkPalette(palette);
    switch (square) {
    case StripSquare::Passed: return dark ? QColor(0x3f, 0xb9, 0x50) : QColor(0x2d, 0xa4, 0x4e);
    case StripSquare::Failing: return cellColors(CellState::Failure, palette).fill;
    case StripSquare::Neutral: return dark ? QColor(0x6e, 0x76, 0x81) : QColor(0xaf, 0xb8, 0xc1);
    case StripSquare::Missing: break;
    }
    return blend(palette.color(QPalette::Base), palette.color(QPalette::Text), 0.45f);
}

QString formatCount(std::int64_t count)
{
    QLocale locale;
    locale.setNumberOptions(locale.numberOptions() & ~QLocale::OmitGroupSeparator);
    return locale.toString(static_cast<qlonglong>(count));
}

QString formatTestDuration(double seconds)
{
    if (!(seconds >= 0) || !std::isfinite(seconds))
        return QStringLiteral("—");
    if (seconds < 1.0)
        return QStringLiteral("%1 ms").arg(std::lround(seconds * 1000.0));
    if (seconds < 60.0)
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', seconds < 10.0 ? 2 : 1);
    return formatDuration(seconds);
}

} // namespace relayhud::ui
