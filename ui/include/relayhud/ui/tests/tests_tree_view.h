#pragma once
// The tests table's view: a tree (for grouping) whose group rows read as one
// line across the columns ("test_ops.py — 3 failed · 1,200 passed"), and
// Ctrl+C copies the selected test's identity.
#include <QTreeView>

namespace relayhud::ui {

class TestsTreeView : public QTreeView {
    Q_OBJECT
public:
    explicit TestsTreeView(QWidget* parent = nullptr);

protected:
    void drawRow(QPainter* painter, const QStyleOptionViewItem& option,
                 const QModelIndex& index) const override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    void paintGroupLabel(QPainter& painter, const QStyleOptionViewItem& option,
                         const QModelIndex& index) const;
};

} // namespace relayhud::ui
