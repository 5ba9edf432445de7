#pragma once
// Paints one matrix cell from index.data(role) only: a state-coloured tile,
// the state's glyph, a retry count in the corner and a focus ring.
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

private:
    void paintRetryMark(QPainter& painter, const QRect& tile, int attempts,
                        const QColor& color) const;
    void paintFocus(QPainter& painter, const QRect& cell, const QStyleOptionViewItem& option) const;
};

} // namespace relayhud::ui
