#pragma once
// Colours and vector glyphs for cell states. Glyph shapes carry the meaning
// on their own (colour-blind safe); colours are picked per palette so that
// both light and dark themes keep contrast.
#include "relayhud/ui/matrix/cell_state.h"

#include <QColor>
#include <QPointF>

class QPainter;
class QPalette;
class QRect;
class QRectF;

namespace relayhud::ui {

struct CellColors {
    QColor fill; // invalid: no fill
    QColor glyph;
};

bool isDarkPalette(const QPalette& palette);
CellColors cellColors(CellState state, const QPalette& palette);

// Draws the state's glyph centred in `box` (square-ish, a few pixels inside
// the cell).
void paintCellGlyph(QPainter& painter, const QRectF& box, CellState state, const QColor& color);

// A rounded tile in the state's fill with its glyph centred: the matrix
// cell, the legend entry and the details chip all look the same.
// `glyphShift` moves the glyph off centre (to make room for a retry mark).
void paintStateTile(QPainter& painter, const QRect& tile, CellState state, const QPalette& palette,
                    const QPointF& glyphShift = {});

// `over` laid on `base` with opacity `amount` (0..1).
QColor blend(const QColor& base, const QColor& over, float amount);

// Lines between backend groups: between text and base, visible on both.
QColor groupSeparatorColor(const QPalette& palette);

// A colour for a backend's header band, stable per name, tuned per palette.
QColor backendBandColor(const QString& backend, const QPalette& palette);

} // namespace relayhud::ui
