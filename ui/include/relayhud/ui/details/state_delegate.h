#pragma once
// Shows a state tile as the decoration of any cell whose state role is set
// (role number given at construction), e.g. the attempts table's Result.
#include <QStyledItemDelegate>

namespace relayhud::ui {

class StateDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    StateDelegate(int stateRole, QObject* parent = nullptr);

protected:
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

private:
    int m_stateRole;
};

} // namespace relayhud::ui
