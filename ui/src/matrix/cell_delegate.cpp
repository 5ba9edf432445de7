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
    QRect tile = option.rect.adjusted(1, 1, -1, -1);
    if (tile.width() > kCellWidth - 2) // a column widened for its backend's name
        tile = QRect(tile.center().x() - (kCellWidth - 2) / 2, tile.top(), kCellWidth - 2,
                     tile.height());
    const int attempts = std::min(index.data(MatrixModel::AttemptsRole).toInt(), 10);
    const int triage = index.data(MatrixModel::TriageRole).toInt();
    const int verdict = index.data(MatrixModel::VerdictRole).toInt();
    if (tile.isValid())
        painter->drawPixmap(tile.topLeft(),
                            tilePixmap(state, attempts, triage, verdict, tile.size(),
                                       option.palette, painter->device()->devicePixelRatioF()));
    if (index.data(MatrixModel::UnseenRole).toBool())
        paintUnseenMark(*painter, tile, option.palette);
    paintFocus(*painter, option.rect, option);
}

// Changed on a followed item since the user last looked: a dot in the
// top-left corner, in the highlight colour, ringed so it shows on any tile.
void CellDelegate::paintUnseenMark(QPainter& painter, const QRect& tile, const QPalette& palette)
{
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(QPen(palette.color(QPalette::Base), 1.2));
    painter.setBrush(palette.color(QPalette::Highlight));
    painter.drawEllipse(QRectF(tile.left() + 0.5, tile.top() + 0.5, 7, 7));
    painter.restore();
}

const QPixmap& CellDelegate::tilePixmap(int state, int attempts, int triage, int verdict,
                                        const QSize& size, const QPalette& palette, qreal dpr) const
{
    const QRgb base = palette.color(QPalette::Base).rgb();
    const quint64 key = (quint64(base) << 32) ^ (quint64(state & 0xff) << 24)
                        ^ (quint64(triage & 0x3) << 62) ^ (quint64(attempts & 0xf) << 20)
                        ^ (quint64(size.width() & 0x3ff) << 10) ^ quint64(size.height() & 0x3ff)
                        ^ (quint64(qRound(dpr * 4)) << 56) ^ (quint64(verdict & 0x3) << 54);
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
    if (verdict != static_cast<int>(MatrixModel::VerdictMark::None))
        paintVerdictMark(p, tile, verdict, palette);
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
void CellDelegate::paintTriagedMark(QPainter& painter, const QRect& tile, const QColor& color)
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

// Greens only, bottom-left: a solid dot in the glyph's colour, ringed in the
// base colour so it reads at a glance on the green tile, when the green is
// verified, an amber ring when it is not
// (incomplete or unverifiable), a filled amber triangle when its own
// artifacts contradict it. A green whose artifacts were never fetched has no
// mark: nothing was checked.
void CellDelegate::paintVerdictMark(QPainter& painter, const QRect& tile, int verdict,
                                    const QPalette& palette)
{
    const QColor color = cellColors(CellState::Success, palette).glyph;
    const qreal r = std::max(3.0, tile.height() * 0.18);
    const QColor amber =
        isDarkPalette(palette) ? QColor(0xd2, 0x99, 0x22) : QColor(0xbf, 0x87, 0x00);
    const QPointF centre(tile.left() + r + 2, tile.bottom() - r - 1);
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    switch (static_cast<MatrixModel::VerdictMark>(verdict)) {
    case MatrixModel::VerdictMark::Verified:
        painter.setPen(QPen(palette.color(QPalette::Base), 1.2));
        painter.setBrush(color);
        painter.drawEllipse(centre, r * 1.05, r * 1.05);
        break;
    case MatrixModel::VerdictMark::Unverified:
        painter.setPen(QPen(amber, 1.8));
        painter.setBrush(Qt::NoBrush);
        painter.drawEllipse(centre, r, r);
        break;
    case MatrixModel::VerdictMark::Disputed: {
        const qreal side = r * 2.6;
        const QPointF base(tile.left() + 1.5, tile.bottom() - 0.5);
        const QPointF points[3] = {base, base + QPointF(side, 0),
                                   base + QPointF(side / 2, -side * 0.9)};
        painter.setPen(QPen(QColor(0x5c, 0x3b, 0x00), 1));
        painter.setBrush(QColor(0xff, 0xb0, 0x20));
        painter.drawPolygon(points, 3);
        break;
    }
    case MatrixModel::VerdictMark::None: break;
    }
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
