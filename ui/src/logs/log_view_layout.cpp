// LogView: rows on screen, scroll bars and the parts around the viewport.
#include "relayhud/ui/logs/line_jump_edit.h"
#include "relayhud/ui/logs/log_overview_bar.h"
#include "relayhud/ui/logs/log_view.h"

#include <QScrollBar>

#include <algorithm>
#include <climits>

namespace relayhud::ui {

const RowMap& LogView::rows() const
{
    if (m_filter)
        return *m_filter;
    return m_folds;
}

std::uint64_t LogView::rowCount() const { return rows().rowCount(); }

ViewRow LogView::rowAt(std::uint64_t row) const
{
    return row < rowCount() ? rows().rowAt(row) : ViewRow{};
}

std::uint64_t LogView::topRow() const
{
    return static_cast<std::uint64_t>(std::max(0, verticalScrollBar()->value()));
}

int LogView::pageRows() const { return std::max(1, viewport()->height() / m_painter.lineHeight()); }

int LogView::columnsPerRow() const { return m_painter.columnsIn(viewport()->width()); }

int LogView::wrapRowsOf(const DisplayLine& line) const
{
    const int perRow = columnsPerRow();
    return std::max(1, (line.paintedColumns() + perRow - 1) / perRow);
}

std::vector<LogView::VisualRow> LogView::layoutRows()
{
    std::vector<VisualRow> out;
    const std::uint64_t total = rowCount();
    const std::uint64_t top = topRow();
    if (top >= total)
        return out;
    // A wrapped line takes one row or more: pageRows() + 1 lines always fill
    // the screen, and are all a frame ever reads.
    const std::uint64_t end = std::min(total, top + static_cast<std::uint64_t>(pageRows()) + 1);
    std::vector<ViewRow> viewRows;
    std::vector<LineNumber> lines;
    for (std::uint64_t r = top; r < end; ++r) {
        viewRows.push_back(rows().rowAt(r));
        if (!viewRows.back().separator)
            lines.push_back(viewRows.back().line);
    }
    const std::string error = m_cache.load(lines);
    m_readError = QString::fromStdString(error);
    const int height = viewport()->height();
    const int lh = m_painter.lineHeight();
    int y = 0;
    for (std::size_t i = 0; i < viewRows.size() && y < height; ++i) {
        VisualRow v{top + i, viewRows[i], 0, y, nullptr};
        if (!v.view.separator)
            v.line = m_cache.find(v.view.line);
        const int subRows = m_wrap && v.line ? wrapRowsOf(*v.line) : 1;
        for (int s = 0; s < subRows && y < height; ++s, y += lh) {
            v.subRow = s;
            v.y = y;
            out.push_back(v);
        }
    }
    return out;
}

std::uint64_t LogView::bottomTopRow()
{
    const std::uint64_t total = rowCount();
    const auto page = static_cast<std::uint64_t>(pageRows());
    if (!m_wrap || total == 0)
        return total > page ? total - page : 0;
    // Wrapped: as many of the last lines as fit, read like any screen.
    const std::uint64_t from = total > page ? total - page : 0;
    std::vector<LineNumber> lines;
    for (std::uint64_t r = from; r < total; ++r)
        if (const ViewRow v = rows().rowAt(r); !v.separator)
            lines.push_back(v.line);
    m_cache.load(lines);
    std::uint64_t top = total;
    int used = 0;
    while (top > 0) {
        const ViewRow v = rows().rowAt(top - 1);
        const DisplayLine* line = v.separator ? nullptr : m_cache.find(v.line);
        used += line ? wrapRowsOf(*line) : 1;
        if (used > static_cast<int>(page))
            break;
        --top;
    }
    return std::min(top, total - 1);
}

void LogView::updateScrollBars()
{
    const auto clampInt = [](std::uint64_t v) {
        return static_cast<int>(std::min<std::uint64_t>(v, INT_MAX));
    };
    QScrollBar* v = verticalScrollBar();
    v->setPageStep(pageRows());
    v->setSingleStep(1);
    v->setRange(0, clampInt(bottomTopRow()));
    QScrollBar* h = horizontalScrollBar();
    const int columns = columnsPerRow();
    h->setPageStep(columns);
    h->setSingleStep(4);
    h->setRange(0, m_wrap ? 0 : std::max(0, m_cache.widestColumns() - columns + 2));
    m_overview->update();
}

void LogView::updateGutter() { m_painter.setGutter(m_lineCount, m_timestamps); }

void LogView::updateGeometryOfParts()
{
    const QRect area = viewport()->geometry();
    m_overview->setGeometry(area.right() + 1, area.top(), m_overview->sizeHint().width(),
                            area.height());
    const int jumpWidth = std::min(area.width() - 16, 320);
    m_jump->setGeometry(area.left() + area.width() - jumpWidth - 8, area.top() + 6, jumpWidth,
                        m_jump->sizeHint().height());
}

bool LogView::isAtBottom() const
{
    return verticalScrollBar()->value() >= verticalScrollBar()->maximum();
}

void LogView::scrollToBottom() { verticalScrollBar()->setValue(verticalScrollBar()->maximum()); }

void LogView::scrollToRow(std::uint64_t row, bool center)
{
    const auto half = static_cast<std::uint64_t>(pageRows() / 2);
    const std::uint64_t top = center ? (row > half ? row - half : 0) : row;
    verticalScrollBar()->setValue(
        static_cast<int>(std::min<std::uint64_t>(top, static_cast<std::uint64_t>(INT_MAX))));
}

void LogView::ensureLineVisible(LineNumber line, bool center)
{
    const std::uint64_t row = rows().rowOf(line);
    const std::uint64_t top = topRow();
    // Wrapped rows can push a line below the screen sooner: keep a margin.
    const auto page = static_cast<std::uint64_t>(m_wrap ? std::max(1, pageRows() / 2) : pageRows());
    if (row >= top && row < top + page)
        return;
    if (center)
        scrollToRow(row, true);
    else
        scrollToRow(row < top ? row : row - page + 1, false);
}

LogView::ScreenAnchor LogView::screenAnchor() const
{
    const std::uint64_t top = topRow();
    const std::uint64_t current = rows().rowOf(m_current);
    if (current >= top && current < top + static_cast<std::uint64_t>(pageRows()))
        return {m_current, static_cast<std::int64_t>(current - top)};
    return {rowAt(top).line, 0};
}

void LogView::restoreAnchor(const ScreenAnchor& anchor)
{
    updateScrollBars();
    const std::uint64_t row = rows().rowOf(anchor.line);
    const auto offset = static_cast<std::uint64_t>(std::max<std::int64_t>(0, anchor.offset));
    scrollToRow(row > offset ? row - offset : 0, false);
    viewport()->update();
    m_overview->update();
}

OverviewMarks LogView::overviewMarks(int pixelRows) const
{
    OverviewMarks marks;
    const std::uint64_t total = rowCount();
    if (total == 0 || pixelRows <= 0)
        return marks;
    marks.rows.assign(static_cast<std::size_t>(pixelRows), 0);
    const auto any = [](const std::vector<LineNumber>& sorted, LineNumber a, LineNumber b) {
        const auto it = std::lower_bound(sorted.begin(), sorted.end(), a);
        return it != sorted.end() && *it <= b;
    };
    const auto px = static_cast<std::uint64_t>(pixelRows);
    for (std::uint64_t y = 0; y < px; ++y) {
        const std::uint64_t r0 = y * total / px;
        const std::uint64_t r1 = std::max(r0 + 1, (y + 1) * total / px);
        if (r0 >= total)
            break;
        const LineNumber a = rows().rowAt(r0).line;
        const LineNumber b = rows().rowAt(std::min(r1, total) - 1).line;
        std::uint8_t m = 0;
        if (any(m_matches, a, b))
            m |= LogOverviewBar::Match;
        if (any(m_landmarks, a, b))
            m |= LogOverviewBar::Landmark;
        marks.rows[y] = m;
    }
    const double top = static_cast<double>(topRow());
    marks.visibleTop = top / static_cast<double>(total);
    marks.visibleBottom = std::min(1.0, (top + pageRows()) / static_cast<double>(total));
    return marks;
}

} // namespace relayhud::ui
