#include "relayhud/ui/matrix/matrix_corner.h"

#include "relayhud/ui/matrix/cell_delegate.h"
#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/matrix/commit_header_view.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QCoreApplication>
#include <QPainter>
#include <QPalette>

#include <array>

namespace relayhud::ui {

namespace {

constexpr int kTitleHeight = 20;
constexpr int kLegendRow = 18;

void paintLegendEntry(QPainter& painter, const QRect& rect, CellState state,
                      const QPalette& palette)
{
    const QRect tile(rect.left(), rect.top() + 1, 20, rect.height() - 2);
    paintStateTile(painter, tile, state, palette);
    painter.setPen(palette.color(QPalette::WindowText));
    painter.drawText(rect.adjusted(tile.width() + 5, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                     cellStateShortText(state));
}

// The corner marks: verdicts of greens, and failures people have triaged.
struct MarkEntry {
    CellState state;
    int verdict; // int(MatrixModel::VerdictMark); None for the triage mark
    const char* label;
};

void paintMarkEntry(QPainter& painter, const QRect& rect, const MarkEntry& entry,
                    const QPalette& palette)
{
    const QRect tile(rect.left(), rect.top() + 1, 20, rect.height() - 2);
    paintStateTile(painter, tile, entry.state, palette);
    if (entry.verdict == static_cast<int>(MatrixModel::VerdictMark::None))
        CellDelegate::paintTriagedMark(painter, tile, cellColors(entry.state, palette).glyph);
    else
        CellDelegate::paintVerdictMark(painter, tile, entry.verdict, palette);
    painter.setPen(palette.color(QPalette::WindowText));
    painter.drawText(rect.adjusted(tile.width() + 5, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("MatrixCorner", entry.label));
}

void paintLegend(QPainter& painter, const QRect& area, const QPalette& palette)
{
    static constexpr std::array kStates{
        CellState::Success,    CellState::Failure, CellState::Cancelled, CellState::TimedOut,
        CellState::InProgress, CellState::Stale,   CellState::Queued,    CellState::Skipped};
    const int columns = 2;
    const int columnWidth = area.width() / columns;
    for (std::size_t i = 0; i < kStates.size(); ++i) {
        const int row = static_cast<int>(i) / columns;
        const int column = static_cast<int>(i) % columns;
        const QRect rect(area.left() + column * columnWidth, area.top() + row * kLegendRow,
                         columnWidth, kLegendRow);
        if (rect.bottom() > area.bottom())
            return;
        paintLegendEntry(painter, rect, kStates[i], palette);
    }
    const std::array marks{
        MarkEntry{CellState::Success, static_cast<int>(MatrixModel::VerdictMark::Verified),
                  QT_TRANSLATE_NOOP("MatrixCorner", "verified")},
        MarkEntry{CellState::Success, static_cast<int>(MatrixModel::VerdictMark::Unverified),
                  QT_TRANSLATE_NOOP("MatrixCorner", "not verified")},
        MarkEntry{CellState::Success, static_cast<int>(MatrixModel::VerdictMark::Disputed),
                  QT_TRANSLATE_NOOP("MatrixCorner", "disputed")},
        MarkEntry{CellState::Failure, static_cast<int>(MatrixModel::VerdictMark::None),
                  QT_TRANSLATE_NOOP("MatrixCorner", "triaged")}};
    const int firstRow = static_cast<int>(kStates.size() + 1) / columns;
    for (std::size_t i = 0; i < marks.size(); ++i) {
        const int row = firstRow + static_cast<int>(i) / columns;
        const int column = static_cast<int>(i) % columns;
        const QRect rect(area.left() + column * columnWidth, area.top() + row * kLegendRow + 4,
                         columnWidth, kLegendRow);
        if (rect.bottom() > area.bottom())
            return;
        paintMarkEntry(painter, rect, marks[i], palette);
    }
}

} // namespace

void paintMatrixCorner(QPainter& painter, const QRect& rect, const QPalette& palette,
                       const CommitHeaderView& header)
{
    painter.fillRect(rect, palette.color(QPalette::Window));
    painter.setPen(palette.color(QPalette::Mid));
    painter.drawLine(rect.bottomLeft(), rect.bottomRight());
    painter.drawLine(rect.topRight(), rect.bottomRight());

    const QRect legend = rect.adjusted(10, 8, -8, -kTitleHeight - 4);
    paintLegend(painter, legend, palette);

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
