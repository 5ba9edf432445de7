#pragma once
// Paints a landmark row: a coloured kind label, the line number, and the
// title elided to fit, all from the model's roles.
#include <QStyledItemDelegate>

namespace relayhud::ui {

class LandmarkDelegate : public QStyledItemDelegate {
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    void paint(QPainter* painter, const QStyleOptionViewItem& option,
               const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;
};

} // namespace relayhud::ui
