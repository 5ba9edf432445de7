#include "relayhud/ui/matrix/cell_delegate.h"

#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QPainter>

namespace relayhud::ui {

void CellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                         const QModelIndex& index) const
{
    const auto state = static_cast<CellState>(index.data(MatrixModel::CellStateRole).toInt());
    const QRect tile = option.rect.adjusted(1, 1, -1, -1);
    const int attempts = index.data(MatrixModel::AttemptsRole).toInt();
    const bool retried = attempts > 1;
    paintStateTile(*painter, tile, state, option.palette, retried ? QPointF(-2.5, 1) : QPointF());
    if (retried) {
        painter->save();
        paintRetryMark(*painter, tile, attempts, cellColors(state, option.palette).glyph);
        painter->restore();
    }
    paintFocus(*painter, option.rect, option);
}

void CellDelegate::paintRetryMark(QPainter& painter, const QRect& tile, int attempts,
                                  const QColor& color) const
{
    QFont font = painter.font();
    font.setPixelSize(8);
    font.setBold(true);
    painter.setFont(font);
    painter.setPen(color);
    const QString text = attempts > 9 ? QStringLiteral("+") : QString::number(attempts);
    painter.drawText(tile.adjusted(0, -1, -1, 0), Qt::AlignRight | Qt::AlignTop, text);
}

void CellDelegate::paintFocus(QPainter& painter, const QRect& cell,
                              const QStyleOptionViewItem& option) const
{
    const bool selected = option.state & QStyle::State_Selected;
    const bool focused = option.state & QStyle::State_HasFocus;
    if (!selected && !focused)
        return;
    painter.save();
    QPen pen(option.palette.color(QPalette::Highlight), 2);
    pen.setJoinStyle(Qt::MiterJoin);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(QRectF(cell).adjusted(1, 1, -1, -1));
    painter.restore();
}

QSize CellDelegate::sizeHint(const QStyleOptionViewItem&, const QModelIndex&) const
{
    return {kCellWidth, kCellHeight};
}

} // namespace relayhud::ui
