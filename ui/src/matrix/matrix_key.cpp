#include "relayhud/ui/matrix/matrix_key.h"

#include "relayhud/ui/matrix/cell_delegate.h"
#include "relayhud/ui/matrix/cell_style.h"
#include "relayhud/ui/matrix/matrix_model.h"

#include <QCoreApplication>
#include <QMenu>
#include <QPainter>
#include <QWidgetAction>

#include <array>

namespace relayhud::ui {

namespace {

constexpr int kRow = 20;
constexpr int kTile = 20;
constexpr int kMargin = 10;
constexpr int kColumns = 2;

constexpr std::array kStates{CellState::Success,  CellState::Failure,    CellState::Cancelled,
                             CellState::TimedOut, CellState::InProgress, CellState::Stale,
                             CellState::Queued,   CellState::Skipped};

// The corner marks: verdicts of greens, and failures people have triaged.
struct MarkEntry {
    CellState state;
    MatrixModel::VerdictMark verdict; // None: the triage mark
    const char* label;
};

const std::array<MarkEntry, 4>& marks()
{
    static const std::array<MarkEntry, 4> entries{
        MarkEntry{CellState::Success, MatrixModel::VerdictMark::Verified,
                  QT_TRANSLATE_NOOP("MatrixKey", "verified (results match config)")},
        MarkEntry{CellState::Success, MatrixModel::VerdictMark::Unverified,
                  QT_TRANSLATE_NOOP("MatrixKey", "not verified")},
        MarkEntry{CellState::Success, MatrixModel::VerdictMark::Disputed,
                  QT_TRANSLATE_NOOP("MatrixKey", "disputed")},
        MarkEntry{CellState::Failure, MatrixModel::VerdictMark::None,
                  QT_TRANSLATE_NOOP("MatrixKey", "triaged")}};
    return entries;
}

QRect entryRect(int index, int columnWidth, int top)
{
    return QRect(kMargin + (index % kColumns) * columnWidth, top + (index / kColumns) * kRow,
                 columnWidth, kRow);
}

void paintText(QPainter& painter, const QRect& rect, const QString& text, const QPalette& palette)
{
    painter.setPen(palette.color(QPalette::WindowText));
    painter.drawText(rect.adjusted(kTile + 6, 0, 0, 0), Qt::AlignLeft | Qt::AlignVCenter, text);
}

int stateRows() { return (static_cast<int>(kStates.size()) + kColumns - 1) / kColumns; }

} // namespace

MatrixKey::MatrixKey(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("matrixKey"));
    setAutoFillBackground(true);
}

QSize MatrixKey::sizeHint() const
{
    const int markRows = (static_cast<int>(marks().size()) + kColumns - 1) / kColumns;
    int widest = 0;
    for (CellState state : kStates)
        widest = std::max(widest, fontMetrics().horizontalAdvance(cellStateShortText(state)));
    for (const MarkEntry& mark : marks())
        widest = std::max(widest, fontMetrics().horizontalAdvance(
                                      QCoreApplication::translate("MatrixKey", mark.label)));
    const int columnWidth = kTile + 6 + widest + 16;
    return {2 * kMargin + kColumns * columnWidth,
            2 * kMargin + (stateRows() + markRows) * kRow + 6};
}

void MatrixKey::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette& pal = palette();
    const int columnWidth = (width() - 2 * kMargin) / kColumns;
    for (std::size_t i = 0; i < kStates.size(); ++i) {
        const QRect rect = entryRect(static_cast<int>(i), columnWidth, kMargin);
        const QRect tile(rect.left(), rect.top() + 1, kTile, rect.height() - 2);
        paintStateTile(painter, tile, kStates[i], pal);
        paintText(painter, rect, cellStateShortText(kStates[i]), pal);
    }
    const int marksTop = kMargin + stateRows() * kRow + 6;
    for (std::size_t i = 0; i < marks().size(); ++i) {
        const MarkEntry& entry = marks()[i];
        const QRect rect = entryRect(static_cast<int>(i), columnWidth, marksTop);
        const QRect tile(rect.left(), rect.top() + 1, kTile, rect.height() - 2);
        paintStateTile(painter, tile, entry.state, pal);
        if (entry.verdict == MatrixModel::VerdictMark::None)
            CellDelegate::paintTriagedMark(painter, tile, cellColors(entry.state, pal).glyph);
        else
            CellDelegate::paintVerdictMark(painter, tile, static_cast<int>(entry.verdict), pal);
        paintText(painter, rect, QCoreApplication::translate("MatrixKey", entry.label), pal);
    }
}

MatrixKeyButton::MatrixKeyButton(QWidget* parent) : QToolButton(parent), m_key(new MatrixKey)
{
    setObjectName(QStringLiteral("matrixKeyButton"));
    setText(tr("Key"));
    setToolTip(tr("What the cells' colours, glyphs and corner marks mean"));
    setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(this);
    auto* action = new QWidgetAction(menu);
    action->setDefaultWidget(m_key);
    menu->addAction(action);
    setMenu(menu);
}

} // namespace relayhud::ui
