#include "relayhud/ui/details/state_tile.h"

#include "relayhud/ui/matrix/cell_style.h"

#include <QPainter>

namespace relayhud::ui {

StateTile::StateTile(QWidget* parent) : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

void StateTile::setState(CellState state)
{
    m_state = state;
    setAccessibleName(cellStateText(state));
    update();
}

QSize StateTile::sizeHint() const { return {26, 22}; }

void StateTile::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    paintStateTile(painter, rect(), m_state, palette());
}

} // namespace relayhud::ui
