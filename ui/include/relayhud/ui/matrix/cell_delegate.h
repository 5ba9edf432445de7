#pragma once
// Paints one matrix cell from index.data(role) only: a state-coloured tile,
// the state's glyph, a retry count in the corner, triage and verdict marks
// in the bottom-left corner and a focus ring. Tiles are
// drawn once per (state, attempts, size, palette) into a pixmap and then
// blitted: a full 1080p viewport holds thousands of cells.
#include <QHash>
#include <QPixmap>
#include <QStyledItemDelegate>

namespace relayhud::ui {

class CellDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    static constexpr int kCellWidth = 24;
    static constexpr int kCellHeight = 20;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

    // The corner marks, for the cells and the matrix's legend. `verdict` is
    // an int(MatrixModel::VerdictMark).
    static void paintVerdictMark(QPainter& painter, const QRect& tile, int verdict,
                                 const QPalette& palette);
    static void paintTriagedMark(QPainter& painter, const QRect& tile, const QColor& color);
    static void paintUnseenMark(QPainter& painter, const QRect& tile, const QPalette& palette);

private:
    const QPixmap& tilePixmap(int state, int attempts, int triage, int verdict, const QSize& size,
                              const QPalette& palette, qreal dpr) const;
    void paintRetryMark(QPainter& painter, const QRect& tile, int attempts,
                        const QColor& color) const;
    void paintFocus(QPainter& painter, const QRect& cell, const QStyleOptionViewItem& option) const;

    mutable QHash<quint64, QPixmap> m_tiles;
};

} // namespace relayhud::ui
