#pragma once
// A small widget showing one state tile (the matrix cell's look).
#include "relayhud/ui/matrix/cell_state.h"

#include <QWidget>

namespace relayhud::ui {

class StateTile : public QWidget {
    Q_OBJECT
public:
    explicit StateTile(QWidget* parent = nullptr);

    void setState(CellState state);
    CellState state() const { return m_state; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    CellState m_state = CellState::Empty;
};

} // namespace relayhud::ui
