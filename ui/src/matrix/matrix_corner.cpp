#include "relayhud/ui/matrix/matrix_corner.h"

#include "relayhud/ui/matrix/commit_header_view.h"

#include <QPainter>
#include <QPalette>

namespace relayhud::ui {

void paintMatrixCorner(QPainter& painter, const QRect& rect, const QPalette& palette,
                       const CommitHeaderView& header)
{
    painter.fillRect(rect, palette.color(QPalette::Window));
    painter.setPen(palette.color(QPalette::Mid));
    painter.drawLine(rect.bottomLeft(), rect.bottomRight());
    painter.drawLine(rect.topRight(), rect.bottomRight());

    constexpr int kTitleHeight = 20;
    const QRect titles(rect.left(), rect.bottom() - kTitleHeight, rect.width(), kTitleHeight);
    const auto fields = header.fieldRects(titles);
    QFont font = painter.font();
    font.setBold(true);
    painter.setFont(font);
    painter.setPen(palette.color(QPalette::WindowText));
    for (int field = 0; field < CommitHeaderView::FieldCount; ++field) {
        const bool right =
            field == CommitHeaderView::PrField || field == CommitHeaderView::TimeField;
        const Qt::Alignment align = (right ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter;
        painter.drawText(fields[static_cast<std::size_t>(field)], static_cast<int>(align),
                         CommitHeaderView::fieldTitle(static_cast<CommitHeaderView::Field>(field)));
    }
}

} // namespace relayhud::ui
