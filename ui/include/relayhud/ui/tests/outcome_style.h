#pragma once
// How test outcomes look: words, tiles and history squares in the matrix's
// colour language (cell_style.h), picked per palette. Each outcome also has
// its own glyph, so the meaning never rests on colour alone.
#include "relayhud/model/test_result.h"

#include <QColor>
#include <QString>

#include <cstdint>

class QPainter;
class QPalette;
class QRect;

namespace relayhud::ui {

// "passed", "failed", "error", "skipped", "xfailed", "xpass (strict)".
QString outcomeLabel(TestOutcome outcome);
// What the outcome means, for tooltips ("expected failure: ...").
QString outcomeDescription(TestOutcome outcome);

// Failing outcomes first, then the ones worth a look, passed last: the
// table's default order.
int outcomeRank(TestOutcome outcome);

// A rounded tile in the outcome's colour with its glyph.
void paintOutcomeTile(QPainter& painter, const QRect& tile, TestOutcome outcome,
                      const QPalette& palette);

// Text in the warning colour (disagreeing counts, parse breaks), readable on
// the palette's window colour.
QColor warningTextColor(const QPalette& palette);

// One square of a history strip.
enum class StripSquare : std::uint8_t {
    Missing, // the run has results but not this test: drawn hollow
    Passed,
    Failing, // failed, error, xpass-strict
    Neutral, // skipped, xfailed
};
StripSquare stripSquareOf(TestOutcome outcome);
QColor stripSquareColor(StripSquare square, const QPalette& palette);

// "1,200": the locale's digits with group separators even in the C locale.
QString formatCount(std::int64_t count);
// "142 ms", "12.3 s", "2m 05s".
QString formatTestDuration(double seconds);

} // namespace relayhud::ui
