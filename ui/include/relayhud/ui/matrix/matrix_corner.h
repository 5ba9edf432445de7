#pragma once
// The matrix's top-left corner: the titles of the commit fields. The glyph
// key is a popup of the filter bar (matrix_key.h), so the corner stays as
// short as the job labels.
class QPainter;
class QPalette;
class QRect;

namespace relayhud::ui {

class CommitHeaderView;

void paintMatrixCorner(QPainter& painter, const QRect& rect, const QPalette& palette,
                       const CommitHeaderView& header);

} // namespace relayhud::ui
