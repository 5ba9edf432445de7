// LogView: painting a frame. Everything here is bounded by the rows on
// screen and the columns that fit; nothing walks the log.
#include "relayhud/ui/logs/log_view.h"

#include <QPainter>
#include <QScrollBar>

namespace relayhud::ui {

void LogView::paintEvent(QPaintEvent*)
{
    QPainter p(viewport());
    const int width = viewport()->width();
    const int height = viewport()->height();
    const std::vector<VisualRow> visual = layoutRows();
    if (visual.empty()) {
        paintPlaceholder(p);
        ++m_frames;
        Q_EMIT framePainted(0);
        return;
    }
    m_painter.beginFrame(p, height);
    std::vector<RowState> states(visual.size());
    for (std::size_t i = 0; i < visual.size(); ++i) {
        const VisualRow& r = visual[i];
        if (r.view.separator) {
            m_painter.paintSeparator(p, r.y, width);
        } else if (!r.line) {
            m_painter.paintPendingRow(p, r.y, r.view.line);
        } else {
            states[i] = rowState(r);
            m_painter.paintRowFrame(p, r.y, width, *r.line, states[i]);
        }
    }
    p.setClipRect(m_painter.textArea(width, height));
    for (std::size_t i = 0; i < visual.size(); ++i) {
        if (const VisualRow& r = visual[i]; r.line) {
            m_highlighter.apply(*r.line);
            m_painter.paintRowText(p, r.y, *r.line, states[i], m_highlighter);
        }
    }
    p.setClipping(false);
    if (!m_readError.isEmpty()) {
        p.setPen(m_painter.ansi().baseColor(1));
        p.drawText(viewport()->rect().adjusted(m_painter.textX(), 0, -8, -4),
                   Qt::AlignBottom | Qt::AlignRight, m_readError);
    }
    // Lines seen so far set how far one can scroll right.
    if (!m_wrap) {
        const int range = std::max(0, m_cache.widestColumns() - columnsPerRow() + 2);
        if (range > horizontalScrollBar()->maximum())
            horizontalScrollBar()->setRange(0, range);
    }
    ++m_frames;
    Q_EMIT framePainted(static_cast<int>(visual.size()));
}

RowState LogView::rowState(const VisualRow& r) const
{
    RowState s;
    const int perRow = columnsPerRow();
    s.firstColumn = m_wrap ? r.subRow * perRow : horizontalScrollBar()->value();
    s.columnCount = m_wrap ? perRow : perRow + 1;
    s.showNumber = r.subRow == 0;
    const LineNumber line = r.view.line;
    s.current = line == m_current && hasFocus();
    s.landmark = std::binary_search(m_landmarks.begin(), m_landmarks.end(), line);
    s.currentMatch = m_currentMatch && *m_currentMatch == line;
    if (!m_filter) {
        const FoldMark mark = foldMarkOf(line);
        // A wrapped line's further rows continue the group's guide.
        s.fold = r.subRow == 0 || mark == FoldMark::None || mark == FoldMark::Closed
                     ? (r.subRow == 0 ? mark : FoldMark::None)
                     : FoldMark::Inside;
        const LogGroup* g = s.fold == FoldMark::Closed ? m_folds.groupStartingAt(line) : nullptr;
        if (g)
            s.foldedLines = std::min(g->end.value, m_lineCount - 1) - g->start.value;
    }
    if (const auto part = m_selection.partOf(line)) {
        if (part->whole) {
            s.wholeSelected = true;
        } else {
            s.selectionStart = r.line->columnOf(part->start);
            // To the end of the line: one column past it, as editors show.
            s.selectionEnd = part->end < 0 ? r.line->columns() + 1 : r.line->columnOf(part->end);
        }
    }
    return s;
}

FoldMark LogView::foldMarkOf(LineNumber line) const
{
    const LogGroup* g = m_folds.groupContaining(line);
    if (!g || g->end == g->start)
        return FoldMark::None;
    if (g->start == line)
        return m_folds.isFolded(line) ? FoldMark::Closed : FoldMark::Open;
    return line == g->end ? FoldMark::End : FoldMark::Inside;
}

void LogView::paintPlaceholder(QPainter& p)
{
    const QRect area = viewport()->rect().adjusted(m_painter.textX(), 0, -m_painter.textX(), 0);
    p.setPen(m_painter.mutedText());
    QFont f = QWidget::font();
    f.setFamily(QFont().family()); // the message is UI text, not log text
    f.setPointSizeF(f.pointSizeF() * 1.1);
    p.setFont(f);
    const QString text = m_readError.isEmpty() ? m_placeholder : m_readError;
    p.drawText(area, Qt::AlignCenter | Qt::TextWordWrap, text);
}

} // namespace relayhud::ui
