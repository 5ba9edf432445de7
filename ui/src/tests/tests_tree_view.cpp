#include "relayhud/ui/tests/tests_tree_view.h"

#include "relayhud/ui/tests/tests_model.h"

#include <QApplication>
#include <QClipboard>
#include <QHeaderView>
#include <QKeyEvent>
#include <QPainter>

namespace relayhud::ui {

TestsTreeView::TestsTreeView(QWidget* parent) : QTreeView(parent) {}

void TestsTreeView::drawRow(QPainter* painter, const QStyleOptionViewItem& option,
                            const QModelIndex& index) const
{
    QTreeView::drawRow(painter, option, index);
    if (index.data(TestsModel::GroupRole).toBool())
        paintGroupLabel(*painter, option, index);
}

// The delegate leaves a group's Test cell empty; its label is painted here
// from that cell to the Duration column, over the empty cells between.
void TestsTreeView::paintGroupLabel(QPainter& painter, const QStyleOptionViewItem& option,
                                    const QModelIndex& index) const
{
    const QHeaderView* top = header();
    if (top->isSectionHidden(TestsModel::TestColumn))
        return;
    const int left = columnViewportPosition(TestsModel::TestColumn) + indentation() + 4;
    int right = viewport()->width();
    const int duration = TestsModel::DurationColumn;
    if (!top->isSectionHidden(duration)
        && top->visualIndex(duration) > top->visualIndex(TestsModel::TestColumn))
        right = columnViewportPosition(duration);
    right -= 6;
    if (right <= left)
        return;
    const QModelIndex cell = index.siblingAtColumn(TestsModel::TestColumn);
    const bool selected = selectionModel() && selectionModel()->isSelected(cell);
    QFont font = option.font;
    if (const QVariant bold = cell.data(Qt::FontRole); bold.isValid())
        font = bold.value<QFont>();
    painter.save();
    painter.setFont(font);
    painter.setPen(option.palette.color(selected ? QPalette::HighlightedText : QPalette::Text));
    const QRect box(left, option.rect.top(), right - left, option.rect.height());
    const QString text =
        QFontMetrics(font).elidedText(cell.data().toString(), Qt::ElideRight, box.width());
    painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
    painter.restore();
}

void TestsTreeView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        const QModelIndex current = currentIndex();
        const QString text = current.data(TestsModel::GroupRole).toBool()
                                 ? current.data(TestsModel::GroupNameRole).toString()
                                 : current.siblingAtColumn(TestsModel::TestColumn)
                                       .data(TestsModel::IdentityRole)
                                       .toString();
        if (!text.isEmpty())
            QApplication::clipboard()->setText(text);
        event->accept();
        return;
    }
    QTreeView::keyPressEvent(event);
}

} // namespace relayhud::ui
