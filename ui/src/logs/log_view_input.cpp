// LogView: mouse, keys and the context menu.
#include "relayhud/ui/logs/line_jump_edit.h"
#include "relayhud/ui/logs/log_overview_bar.h"
#include "relayhud/ui/logs/log_view.h"

#include <QContextMenuEvent>
#include <QKeyEvent>
#include <QMenu>
#include <QScrollBar>

namespace relayhud::ui {

namespace {

bool isWordChar(QChar c)
{
    return c.isLetterOrNumber() || c == u'_' || c == u'.' || c == u'/' || c == u'-';
}

} // namespace

std::optional<TextPosition> LogView::positionAt(const QPoint& pos, bool* inGutter)
{
    const std::vector<VisualRow> visual = layoutRows();
    if (visual.empty())
        return std::nullopt;
    const int lh = m_painter.lineHeight();
    const VisualRow* hit = &visual.back();
    bool pastEnd = pos.y() >= visual.back().y + lh;
    if (pos.y() < 0) {
        hit = &visual.front();
        pastEnd = false;
    }
    for (const VisualRow& r : visual)
        if (pos.y() >= r.y && pos.y() < r.y + lh)
            hit = &r;
    if (inGutter)
        *inGutter = pos.x() < m_painter.textX();
    if (!hit->line)
        return TextPosition{hit->view.line, 0};
    if (pastEnd)
        return TextPosition{hit->view.line, hit->line->textLength()};
    const int first = m_wrap ? hit->subRow * columnsPerRow() : horizontalScrollBar()->value();
    const double x = std::max(0, pos.x() - m_painter.textX()) / m_painter.charWidth();
    const int column = first + static_cast<int>(x + 0.5);
    return TextPosition{hit->view.line, hit->line->textIndexAt(column)};
}

bool LogView::handleFoldClick(const QPoint& pos)
{
    if (m_filter || pos.x() < m_painter.foldX()
        || pos.x() >= m_painter.foldX() + m_painter.foldWidth())
        return false;
    bool gutter = false;
    const auto at = positionAt(pos, &gutter);
    if (!at || !m_folds.groupStartingAt(at->line))
        return false;
    toggleFold(at->line);
    return true;
}

void LogView::mousePressEvent(QMouseEvent* event)
{
    if (event->button() != Qt::LeftButton) {
        QAbstractScrollArea::mousePressEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    if (handleFoldClick(pos))
        return;
    bool gutter = false;
    const auto at = positionAt(pos, &gutter);
    if (!at)
        return;
    const bool extend = event->modifiers() & Qt::ShiftModifier;
    if (extend && m_selection.mode() != LogSelection::Mode::None) {
        m_selection.extendTo(*at); // from the last click's anchor
    } else if (gutter) {
        m_selection.selectLines(extend ? m_current : at->line, at->line);
    } else {
        m_selection.selectCharacters(extend ? TextPosition{m_current, 0} : *at, *at);
    }
    m_dragging = true;
    m_dragLines = m_selection.mode() == LogSelection::Mode::Lines;
    m_current = at->line;
    viewport()->update();
    Q_EMIT currentLineChanged(m_current);
    Q_EMIT selectionChanged();
}

void LogView::mouseMoveEvent(QMouseEvent* event)
{
    if (!m_dragging || !(event->buttons() & Qt::LeftButton)) {
        QAbstractScrollArea::mouseMoveEvent(event);
        return;
    }
    const QPoint pos = event->position().toPoint();
    // Dragging past an edge scrolls, a row per move event.
    if (pos.y() < 0)
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
    else if (pos.y() > viewport()->height())
        verticalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
    if (const auto at = positionAt(pos)) {
        m_selection.extendTo(*at);
        m_current = at->line;
        viewport()->update();
        Q_EMIT selectionChanged();
    }
}

void LogView::mouseReleaseEvent(QMouseEvent* event)
{
    m_dragging = false;
    event->accept();
}

void LogView::mouseDoubleClickEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    bool gutter = false;
    const auto at = positionAt(pos, &gutter);
    if (!at)
        return;
    if (m_folds.groupStartingAt(at->line) && !m_filter) {
        toggleFold(at->line);
        return;
    }
    const DisplayLine* line = m_cache.find(at->line);
    if (!line || gutter)
        return;
    const QString text = line->text();
    int start = std::min(at->index, static_cast<int>(text.size()));
    int end = start;
    while (start > 0 && isWordChar(text.at(start - 1)))
        --start;
    while (end < text.size() && isWordChar(text.at(end)))
        ++end;
    m_selection.selectCharacters({at->line, start}, {at->line, end});
    viewport()->update();
    Q_EMIT selectionChanged();
}

void LogView::setCurrent(LineNumber line, bool extend)
{
    if (extend) {
        if (m_selection.isEmpty() || m_selection.mode() != LogSelection::Mode::Lines)
            m_selection.selectLines(m_current, line);
        else
            m_selection.extendTo({line, 0});
    } else if (!m_selection.isEmpty()) {
        m_selection.clear();
    }
    m_current = line;
    ensureLineVisible(line, false);
    viewport()->update();
    Q_EMIT currentLineChanged(line);
    Q_EMIT selectionChanged();
}

void LogView::moveCurrent(std::int64_t delta, bool extend)
{
    const std::uint64_t total = rowCount();
    if (total == 0)
        return;
    const auto row = static_cast<std::int64_t>(rows().rowOf(m_current));
    auto target = static_cast<std::uint64_t>(
        std::clamp<std::int64_t>(row + delta, 0, static_cast<std::int64_t>(total) - 1));
    if (rows().rowAt(target).separator)
        target = delta > 0 ? std::min(target + 1, total - 1) : (target > 0 ? target - 1 : 0);
    setCurrent(rows().rowAt(target).line, extend);
}

bool LogView::handleFoldKey(int key)
{
    if (m_filter)
        return false;
    const LogGroup* g = m_folds.groupContaining(m_current);
    if (!g)
        return false;
    const bool header = g->start == m_current;
    if (key == Qt::Key_Space) {
        setFolded(g->start, !m_folds.isFolded(g->start));
        return true;
    }
    if (key == Qt::Key_Left && (!header || !m_folds.isFolded(g->start))) {
        setFolded(g->start, true);
        return true;
    }
    if (key == Qt::Key_Right && header && m_folds.isFolded(g->start)) {
        setFolded(g->start, false);
        return true;
    }
    return false;
}

void LogView::keyPressEvent(QKeyEvent* event)
{
    if (event->matches(QKeySequence::Copy)) {
        copySelection();
        return;
    }
    if (event->matches(QKeySequence::SelectAll)) {
        selectAll();
        return;
    }
    const bool shift = event->modifiers() & Qt::ShiftModifier;
    const bool ctrl = event->modifiers() & Qt::ControlModifier;
    const std::int64_t page = pageRows();
    const int key = event->key();
    if (ctrl && key == Qt::Key_G) {
        openLineJump();
        return;
    }
    if ((key == Qt::Key_Left || key == Qt::Key_Right || key == Qt::Key_Space) && !ctrl
        && handleFoldKey(key))
        return;
    switch (key) {
    case Qt::Key_Up: moveCurrent(-1, shift); return;
    case Qt::Key_Down: moveCurrent(1, shift); return;
    case Qt::Key_PageUp: moveCurrent(-page, shift); return;
    case Qt::Key_PageDown: moveCurrent(page, shift); return;
    case Qt::Key_Home: moveCurrent(-static_cast<std::int64_t>(rowCount()), shift); return;
    case Qt::Key_End: moveCurrent(static_cast<std::int64_t>(rowCount()), shift); return;
    case Qt::Key_Left:
        horizontalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepSub);
        return;
    case Qt::Key_Right:
        horizontalScrollBar()->triggerAction(QAbstractSlider::SliderSingleStepAdd);
        return;
    case Qt::Key_F8: stepLandmark(!shift); return;
    case Qt::Key_N: stepLandmark(!shift); return;
    case Qt::Key_P: stepLandmark(false); return;
    case Qt::Key_Escape:
        if (!m_selection.isEmpty()) {
            m_selection.clear();
            viewport()->update();
            Q_EMIT selectionChanged();
            return;
        }
        break;
    default: break;
    }
    QAbstractScrollArea::keyPressEvent(event);
}

void LogView::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    menu.addAction(tr("Copy"), QKeySequence::Copy, this, &LogView::copySelection)
        ->setEnabled(!m_selection.isEmpty());
    menu.addAction(tr("Copy link to lines"), this, [this] { copyLink(LinkForm::Url); });
    menu.addAction(tr("Copy path:lines"), this, [this] { copyLink(LinkForm::Plain); });
    menu.addAction(tr("Select all"), QKeySequence::SelectAll, this, &LogView::selectAll);
    menu.addSeparator();
    menu.addAction(tr("Go to line…"), QKeySequence(Qt::CTRL | Qt::Key_G), this,
                   &LogView::openLineJump);
    menu.addAction(tr("Next failure"), QKeySequence(Qt::Key_F8), this,
                   [this] { stepLandmark(true); });
    menu.addAction(tr("Previous failure"), QKeySequence(Qt::SHIFT | Qt::Key_F8), this,
                   [this] { stepLandmark(false); });
    menu.addSeparator();
    QAction* wrapAction = menu.addAction(tr("Wrap lines"), this, [this](bool on) { setWrap(on); });
    wrapAction->setCheckable(true);
    wrapAction->setChecked(m_wrap);
    QAction* times =
        menu.addAction(tr("Show timestamps"), this, [this](bool on) { setTimestampsShown(on); });
    times->setCheckable(true);
    times->setChecked(m_timestamps);
    if (!m_folds.groups().empty() && !m_filter) {
        menu.addSeparator();
        menu.addAction(tr("Fold all groups"), this, [this] { setAllFolded(true); });
        menu.addAction(tr("Unfold all groups"), this, [this] { setAllFolded(false); });
    }
    menu.exec(event->globalPos());
}

void LogView::resizeEvent(QResizeEvent* event)
{
    QAbstractScrollArea::resizeEvent(event);
    updateGeometryOfParts();
    updateScrollBars();
}

void LogView::scrollContentsBy(int, int)
{
    viewport()->update();
    m_overview->update();
}

void LogView::changeEvent(QEvent* event)
{
    QAbstractScrollArea::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        m_painter.setPalette(palette());
        viewport()->update();
    } else if (event->type() == QEvent::FontChange) {
        m_painter.setFont(font());
        updateGutter();
        updateScrollBars();
    }
}

// The current line shows while the view has focus.
void LogView::focusInEvent(QFocusEvent* event)
{
    QAbstractScrollArea::focusInEvent(event);
    viewport()->update();
}

void LogView::focusOutEvent(QFocusEvent* event)
{
    QAbstractScrollArea::focusOutEvent(event);
    viewport()->update();
}

} // namespace relayhud::ui
