#include "relayhud/ui/matrix/cell_delegate.h"

#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QPainter>

#include <algorithm>

namespace relayhud::ui {

void CellDelegate::paint(QPainter* painter, const QStyleOptionViewItem& option,
                         const QModelIndex& index) const
{
    const int state = index.data(MatrixModel::CellStateRole).toInt();
    const QRect tile = option.rect.adjusted(1, 1, -1, -1);
    const int attempts = std::min(index.data(MatrixModel::AttemptsRole).toInt(), 10);
    const int triage = index.data(MatrixModel::TriageRole).toInt();
    if (tile.isValid())
        painter->drawPixmap(tile.topLeft(),
                            tilePixmap(state, attempts, triage, tile.size(), option.palette,
                                       painter->device()->devicePixelRatioF()));
    paintFocus(*painter, option.rect, option);
}

const QPixmap& CellDelegate::tilePixmap(int state, int attempts, int triage, const QSize& size,
                                        const QPalette& palette, qreal dpr) const
{
    const QRgb base = palette.color(QPalette::Base).rgb();
    const quint64 key = (quint64(base) << 32) ^ (quint64(state & 0xff) << 24)
                        ^ (quint64(triage & 0x3) << 62) ^ (quint64(attempts & 0xf) << 20)
                        ^ (quint64(size.width() & 0x3ff) << 10) ^ quint64(size.height() & 0x3ff)
                        ^ (quint64(qRound(dpr * 4)) << 56);
    auto it = m_tiles.find(key);
    if (it != m_tiles.end())
        return *it;
    QPixmap pixmap(size * dpr);
    pixmap.setDevicePixelRatio(dpr);
    pixmap.fill(Qt::transparent);
    QPainter p(&pixmap);
    const QRect tile(QPoint(0, 0), size);
    const auto cellState = static_cast<CellState>(state);
    const bool retried = attempts > 1;
    paintStateTile(p, tile, cellState, palette, retried ? QPointF(-2.5, 1) : QPointF());
    if (retried)
        paintRetryMark(p, tile, attempts, cellColors(cellState, palette).glyph);
    if (triage == static_cast<int>(MatrixModel::TriageMark::Triaged))
        paintTriagedMark(p, tile, cellColors(cellState, palette).glyph);
    p.end();
    if (m_tiles.size() > 512) // palette or zoom changes; never grows without bound
        m_tiles.clear();
    return *m_tiles.insert(key, pixmap);
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

// A folded bottom-left corner: "someone has looked at every failure here".
// Untriaged failures keep the plain tile, so the work left stands out.
void CellDelegate::paintTriagedMark(QPainter& painter, const QRect& tile, const QColor& color) const
{
    const qreal side = std::max(5.0, tile.height() * 0.36);
    const QPointF corner(tile.left(), tile.bottom() + 1);
    const QPointF points[3] = {corner, corner + QPointF(side, 0), corner - QPointF(0, side)};
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(color);
    painter.drawPolygon(points, 3);
    painter.restore();
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
