#pragma once
// The matrix's top-left corner: a legend of the cell glyphs above the titles
// of the commit fields.
class QPainter;
class QPalette;
class QRect;

namespace relayhud::ui {

class CommitHeaderView;

void paintMatrixCorner(QPainter& painter, const QRect& rect, const QPalette& palette,
                       const CommitHeaderView& header);

} // namespace relayhud::ui
