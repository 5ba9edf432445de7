#include "relayhud/ui/details/state_delegate.h"

#include "relayhud/ui/matrix/cell_style.h"

#include <QPainter>
#include <QPixmap>

namespace relayhud::ui {

namespace {

constexpr int kTile = 16;

QIcon stateIcon(CellState state, const QPalette& palette, qreal ratio)
{
    QPixmap pixmap(QSize(kTile, kTile) * ratio);
    pixmap.setDevicePixelRatio(ratio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    paintStateTile(painter, QRect(0, 0, kTile, kTile), state, palette);
    return QIcon(pixmap);
}

} // namespace

StateDelegate::StateDelegate(int stateRole, QObject* parent)
    : QStyledItemDelegate(parent), m_stateRole(stateRole)
{
}

void StateDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const
{
    QStyledItemDelegate::initStyleOption(option, index);
    const QVariant state = index.data(m_stateRole);
    if (!state.isValid())
        return;
    const qreal ratio = option->widget ? option->widget->devicePixelRatioF() : 1.0;
    option->icon = stateIcon(static_cast<CellState>(state.toInt()), option->palette, ratio);
    option->decorationSize = QSize(kTile, kTile);
    option->features |= QStyleOptionViewItem::HasDecoration;
}

} // namespace relayhud::ui
